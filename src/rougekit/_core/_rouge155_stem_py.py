"""The script's Porter stemmer (ROUGE-1.5.5.pl, subroutines ``stem`` and
``initialise``): the pure twin of ``_rouge155_stem`` and its specification,
written with the script's own regular expressions.

It differs from NLTK's Porter (``_porter_py``): ``y`` rules by regular
expression, ``bli -> ble`` and ``logi -> log`` in step 2, and step 4 as three
successive tests, so ``agreement -> agreem``.
"""
import re

__all__ = ["porter_stem"]

_c = "[^aeiou]"             # consonant
_v = "[aeiouy]"             # vowel
_C = _c + "[^aeiouy]*"      # consonant sequence
_V = _v + "[aeiou]*"        # vowel sequence
_MGR0 = re.compile("^(" + _C + ")?" + _V + _C)                      # m > 0
_MEQ1 = re.compile("^(" + _C + ")?" + _V + _C + "(" + _V + ")?$")   # m = 1
_MGR1 = re.compile("^(" + _C + ")?" + _V + _C + _V + _C)            # m > 1
_HAS_V = re.compile("^(" + _C + ")?" + _v)                           # vowel in stem
_CVC = re.compile("^" + _C + _v + "[^aeiouwxy]$")

_STEP1A = re.compile("(ss|i)es$")
_STEP1A_S = re.compile("([^s])s$")
_EED = re.compile("eed$")
_ED_ING = re.compile("(ed|ing)$")
_AT_BL_IZ = re.compile("(at|bl|iz)$")
_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_Y = re.compile("y$")
_STEP2 = re.compile("(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|"
                    "ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$")
_STEP2_LIST = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
    "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
    "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log"}
_STEP3 = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP3_LIST = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic",
               "ful": "", "ness": ""}
# Step 4 is three tests in a row (the script's 2004 change: a word ending in
# -ement is not tried against -ment and -ent first), each on the result of the
# one before.
_STEP4 = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_MENT = re.compile("ment$")
_ENT = re.compile("ent$")
_ION = re.compile("(s|t)(ion)$")
_E = re.compile("e$")
_LL = re.compile("ll$")


def porter_stem(word: str) -> str:
    """The script's Porter stemmer, for a lowercase word.

    >>> [porter_stem(w) for w in ("agreement", "apology", "biology", "running")]
    ['agreem', 'apolog', 'biologi', 'run']
    """
    w = word
    if len(w) < 3:
        return w
    initial_y = w[0] == "y"
    if initial_y:                       # an initial y is a consonant
        w = "Y" + w[1:]
    # Step 1a
    m = _STEP1A.search(w)
    if m:
        w = w[:m.start()] + m.group(1)
    else:
        m = _STEP1A_S.search(w)
        if m:
            w = w[:m.start()] + m.group(1)
    # Step 1b
    m = _EED.search(w)
    if m:
        if _MGR0.search(w[:m.start()]):
            w = w[:-1]
    else:
        m = _ED_ING.search(w)
        if m:
            stem = w[:m.start()]
            if _HAS_V.search(stem):
                w = stem
                if _AT_BL_IZ.search(w):
                    w += "e"
                elif _DOUBLE.search(w):
                    w = w[:-1]
                elif _CVC.search(w):
                    w += "e"
    # Step 1c
    m = _Y.search(w)
    if m:
        stem = w[:m.start()]
        if _HAS_V.search(stem):
            w = stem + "i"
    # Step 2
    m = _STEP2.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2_LIST[m.group(1)]
    # Step 3
    m = _STEP3.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3_LIST[m.group(1)]
    # Step 4
    m = _STEP4.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _MENT.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    m = _ENT.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    else:
        m = _ION.search(w)
        if m:
            stem = w[:m.start()] + m.group(1)
            if _MGR1.search(stem):
                w = stem
    # Step 5
    m = _E.search(w)
    if m:
        stem = w[:m.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if _LL.search(w) and _MGR1.search(w):
        w = w[:-1]
    if initial_y:
        w = "y" + w[1:]
    return w

