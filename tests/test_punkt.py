"""rougekit's Punkt sentence splitter (``_backend.punkt``, reached through
``_sentences.nltk_sentences``) against ``nltk.sent_tokenize`` itself, run here.

Both kernels (compiled and pure) on: every article of the shared corpus (whole,
line by line, and in blocks of lines), every text of the shared news pairs,
and thousands of seeded hostile texts (abbreviations, initials, numbers,
ellipses, quotes and brackets after ends, newlines, tabs, non-ASCII letters
and punctuation, the model's own abbreviations, collocations and sentence
starters, very long texts, thousands of periods); the word tokens against
nltk's word tokenizer; the character classes against nltk's regular
expression engine, code point by code point. The work is linear: the
contexts the splitter decides cover the text at most three times (counted,
not timed). ``nltk_sentences`` calls nltk where the port does not apply, and
nltk's errors come through.
"""
import random

import pytest

from _helpers import assert_same_scores, compiled_kernel, shared_dir, sweep
from _integrations import need
from rougekit import _backend, _sentences
from rougekit._core import _punkt_py
from rougekit.rouge_scorer import RougeScorer

nltk = need("nltk")
regex = need("regex")

pytestmark = [pytest.mark.backend, pytest.mark.kernel]


def _compiled():
    return compiled_kernel("_punkt")


@pytest.fixture(params=["compiled", "pure"])
def core(request):
    return _compiled() if request.param == "compiled" else _punkt_py


@pytest.fixture(scope="module")
def tokenizer(punkt_data):
    """nltk's own english tokenizer: the object ``nltk.sent_tokenize`` uses."""
    return nltk.tokenize._get_punkt_tokenizer("english")


def split(core, tokenizer, text):
    params = tokenizer._params
    spans = core.sentence_spans(text, params.abbrev_types, params.collocations,
                                params.sent_starters, params.ortho_context)
    return [text[start:end] for start, end in spans]


def first_differences(core, tokenizer, texts, limit=3):
    """The first texts whose sentences differ from nltk.sent_tokenize's."""
    out = []
    for text in texts:
        ours, theirs = split(core, tokenizer, text), nltk.sent_tokenize(text)
        if ours != theirs:
            out.append((text[:300], ours[:6], theirs[:6]))
            if len(out) == limit:
                break
    return out


# --- hostile texts ---------------------------------------------------------------------

PIECES = ["Mr.", "Mrs.", "U.S.", "U.S", "e.g.", "i.e.", "Jan.", "No.", "no.", "Dr.", "St.",
          "Inc.", "Co.", "vs.", "etc.", "a.m.", "p.m.", "Ph.D.", "U.K.", "J.", "R.", "J. R. R.",
          "3.5", "1.", "2.", "10.", "-3.", "1,000.", ".5", "1999.", "...", "..", ". . .",
          ". . . .", "?", "!", "?!", "!!", "???", ".", '"."', '").', '."', ".)", ".'", ")",
          "(", '"', "'", "[", "]", "{", "}", "--", "---", "-", ",", ";", ":", "&", "#", "*",
          "@", "`", "the", "The", "he", "He", "she", "said", "said.", "It", "it", "and",
          "But", "however", "However", "é", "É.", "İstanbul", "İ.", "ı.", "café.", "Zürich.",
          "“Yes.”", "“No”", "‘a’", "«Oui.»", "…", "。", "！", "(a)", "(b).", "a.", "b.",
          "A.", "B.", "x.y.", "word,", "word.,", "word;", "ǅ.", "Ⅻ.", "٣.", "٣", "_.",
          "½.", "ﬁ.", "Σ.", "σ.", "1.2.3", "-.5", ",5", "a-b.", "non-u.s.", "self-e.g.",
          "dept.", "Gov.", "Sen.", "Rep.", "Lt.", "Gen.", "Calif.", "Mass.", "Nov.", "Oct.",
          "\ud800.", "a\udfff", "\x00.", "X\x00", "\U0001F600.", "\u200b.", "\x1b[0m."]
SEPARATORS = [" "] * 12 + ["  ", "\n", "\n\n", "\t", " \n ", "\r\n", "\n \n", "\xa0",
                            "\u2003", "\x0c", "\x0b", "\x1c", "\x85", "\u2028", "\u3000", ""]


def model_words(tokenizer):
    """Words of the model's own lists: abbreviations (with their period),
    sentence starters (capitalized), collocations (both words), words with
    orthographic contexts."""
    params = tokenizer._params
    abbrevs = sorted(params.abbrev_types)
    starters = sorted(params.sent_starters)
    collocations = sorted(params.collocations)
    ortho = sorted(params.ortho_context)[:: max(1, len(params.ortho_context) // 400)]
    return ([a + "." for a in abbrevs] + [a.capitalize() + "." for a in abbrevs[::3]]
            + [s.capitalize() for s in starters] + starters
            + [f"{a}. {b}" for a, b in collocations] + [f"{a}. {b.capitalize()}"
                                                        for a, b in collocations[::2]]
            + ortho + [w.capitalize() for w in ortho[::2]])


def hostile_texts(tokenizer, count, seed):
    rng = random.Random(seed)
    words = PIECES + model_words(tokenizer)
    out = ["", " ", "\n", "\n\n\n", "\t \t", " \r\n ", "\x1c", "\xa0", ".", "!", "?", "..",
           "a.", " a. ", "A. B.", "a. b.", "(a.) B.", '"Hi." He', "Hi!) There", "x.\n\nY."]
    for _ in range(count):
        n = rng.choice([1, 2, 3, 5, 8, 13, 30, 80])
        parts = []
        for _ in range(n):
            word = rng.choice(words)
            roll = rng.random()
            if roll < 0.15:
                word = word.capitalize()
            elif roll < 0.25:
                word = word.lower()
            elif roll < 0.3:
                word = word.upper()
            parts.append(word)
            parts.append(rng.choice(SEPARATORS))
        text = "".join(parts)
        if rng.random() < 0.2:
            text = rng.choice(SEPARATORS) + text
        if rng.random() < 0.3:
            text = text.rstrip() if rng.random() < 0.5 else text + rng.choice(SEPARATORS)
        out.append(text)
    return out


def long_texts(tokenizer):
    """Very long texts, and texts made of thousands of periods and marks."""
    rng = random.Random(7)
    words = PIECES + model_words(tokenizer)
    return [" ".join(rng.choice(words) for _ in range(50_000)),
            "\n".join(" ".join(rng.choice(words) for _ in range(12)) for _ in range(4000)),
            "a. " * 3000, "." * 5000, ". " * 5000, "!" * 5000 + " X", "?!" * 3000,
            "a.b." * 2000 + " C", "Mr. " * 3000, "J. " * 3000 + "Bach", "3. " * 3000,
            ")." * 3000, '"." ' * 3000, "... " * 3000, ". . " * 3000, "x" * 20000 + ". Y"]


# --- against nltk ----------------------------------------------------------------------

def test_the_corpus_articles_whole_and_line_by_line(core, tokenizer):
    path = shared_dir()
    if path is None:
        pytest.skip("shared corpus folder not found (ROUGEKIT_SHARED)")
    with open(path / "corpus" / "lee_background.txt", encoding="utf-8") as f:
        whole = f.read()
    lines = whole.split("\n")
    texts = [whole] + lines + ["\n".join(lines[i:i + 10]) for i in range(0, len(lines), 10)]
    assert first_differences(core, tokenizer, texts) == []


def test_the_news_pairs(core, tokenizer, corpus_pairs):
    texts = [t for pair in corpus_pairs(sweep(2000, 300), 0)
             for t in (pair["candidate"], *pair["references"])]
    assert first_differences(core, tokenizer, texts) == []


@pytest.mark.parametrize("seed", range(4))
def test_hostile_texts(core, tokenizer, seed):
    texts = hostile_texts(tokenizer, sweep(1500, 300), seed)
    assert first_differences(core, tokenizer, texts) == []


def test_long_texts_and_thousands_of_periods(core, tokenizer):
    assert first_differences(core, tokenizer, long_texts(tokenizer)) == []


def test_the_word_tokens_are_nltks(core, tokenizer):
    lang_vars = tokenizer._lang_vars
    lines = [line for text in hostile_texts(tokenizer, sweep(1500, 300), 11)
             for line in text.split("\n")]
    lines += [". . .x", ". .", "a. . . . b", "a--b", "a-b--", "a,--", "a,", "a,b", "a,)",
              "a,. . .", "?abc", "!x!", "'tis", "“a”", "a.b.c.", "x...y", "x.. .y", "#a",
              "a#b", "-a", "a-", ",a", "a,,", "a,.", "a.,", "...a", "..a.", "a. . . . ."]
    differences = [(line, core.words(line), lang_vars.word_tokenize(line))
                   for line in lines if core.words(line) != lang_vars.word_tokenize(line)]
    assert differences[:3] == []


def test_every_code_point_is_tokenized_and_split_as_nltk_does(core, tokenizer):
    """Each code point between letters, after a period and starting the next
    word, and as the one letter of an initial: nltk's tokens and sentences."""
    lang_vars = tokenizer._lang_vars
    points = [chr(c) for c in code_points() if not 0xd800 <= c < 0xe000]
    for i in range(0, len(points), 2000):
        chunk = points[i:i + 2000]
        line = " ".join(f"a{c}b" for c in chunk)
        assert core.words(line) == lang_vars.word_tokenize(line), i
        texts = ["".join(f"x.{c}Y {c}. b {c}. B 1{c}. c " for c in chunk[j:j + 50])
                 for j in range(0, len(chunk), 50)]
        assert first_differences(core, tokenizer, texts) == [], i


def code_points():
    """Every code point below U+3400 (the scripts with case, digits, spaces
    and punctuation) and every 13th above, where the classes come in long
    uniform blocks (CJK, private use); a sample under quick sweeps."""
    return [*range(0, 0x3400, sweep(1, 7)), *range(0x3400, 0x110000, sweep(13, 61))]


def test_whitespace_is_the_regex_engines():
    every = (chr(c) for c in range(0x110000))
    assert _punkt_py.WHITESPACE == {c for c in every if regex.match(r"\s", c)}
    # what str.strip and str.rstrip remove includes it (nltk strips with them)
    assert all(c.isspace() for c in _punkt_py.WHITESPACE)


def test_token_types_and_initials_are_nltks():
    Token = nltk.tokenize.punkt.PunktToken
    # no token holds a newline: the text is tokenized line by line
    for c in (chr(c) for c in code_points() if c != 0x0a):
        for tok in (c + ".", "1" + c, c + "5", "-" + c + "3."):
            assert _punkt_py._token_type(tok) == Token(tok).type, repr(tok)
        assert (len(c + ".") == 2 and _punkt_py._is_letter(c)) == bool(Token(c + ".").is_initial)


# --- linear work -----------------------------------------------------------------------

def test_the_decided_contexts_cover_the_text_a_bounded_number_of_times(core, tokenizer):
    """Each decided context is tokenized once; the words before the marks do
    not overlap, and each context's rest is the token after its mark, so the
    contexts cover the text at most three times over: the work is linear in
    its length, however many marks it has (counted, not timed)."""
    for text in long_texts(tokenizer) + hostile_texts(tokenizer, 200, 5):
        contexts = core.end_contexts(text)
        assert contexts == _punkt_py.end_contexts(text)
        covered = sum(end - start for _, start, end, _ in contexts)
        assert covered <= 3 * len(text), (text[:80], covered)
        marks = [mark for mark, _, _, _ in contexts]
        starts = [start for _, start, _, _ in contexts]
        assert all(mark <= start for mark, start in zip(marks, starts[1:])), text[:80]


# --- nltk_sentences: the one function both callers use ---------------------------------

def test_nltk_sentences_uses_the_port_with_nltks_own_parameters(tokenizer):
    text = "Mr. Smith arrived at 3 p.m. on Jan. 5. He sat down."
    assert _sentences.nltk_sentences(text) == nltk.sent_tokenize(text)
    assert _sentences._punkt_parameters(tokenizer) == (
        tokenizer._params.abbrev_types, tokenizer._params.collocations,
        tokenizer._params.sent_starters, tokenizer._params.ortho_context)
    # the model's own objects: a change to them is seen at once
    params = tokenizer._params
    try:
        params.abbrev_types.add("arrived at 3 p.m")
        assert _sentences.nltk_sentences("He arrived at 3 p.m. Then left.") == \
            nltk.sent_tokenize("He arrived at 3 p.m. Then left.")
    finally:
        params.abbrev_types.discard("arrived at 3 p.m")


def test_nltk_sentences_calls_nltk_where_the_port_does_not_apply(tokenizer, monkeypatch):
    calls = []
    original = nltk.sent_tokenize

    def counted(text, language="english"):
        calls.append(text)
        return original(text, language)

    monkeypatch.setattr(nltk, "sent_tokenize", counted)     # a caller's replacement
    assert _sentences.nltk_sentences("A b. C d.") == ["A b.", "C d."]
    assert calls == ["A b. C d."]
    monkeypatch.undo()
    # a pattern the port does not reproduce: nltk splits
    Token = nltk.tokenize.punkt.PunktToken
    monkeypatch.setattr(Token, "_RE_NUMERIC", regex.compile(r"^\d+$"))
    monkeypatch.setattr(_sentences, "_punkt_checked", [None, None, None])
    assert _sentences._punkt_parameters(tokenizer) is None
    text = "It cost 3. Then more."
    assert _sentences.nltk_sentences(text) == nltk.sent_tokenize(text)
    monkeypatch.undo()
    _sentences._punkt_checked[:] = [None, None, None]
    assert _sentences._punkt_parameters(tokenizer) is not None
    # not a str: nltk's own error
    with pytest.raises(Exception) as ours:
        _sentences.nltk_sentences(5)
    with pytest.raises(Exception) as theirs:
        nltk.sent_tokenize(5)
    assert type(ours.value) is type(theirs.value)


def test_nltks_lookup_error_comes_through(monkeypatch):
    def no_data(language="english"):
        raise LookupError("Resource punkt_tab not found.")
    monkeypatch.setattr(nltk.tokenize, "_get_punkt_tokenizer", no_data)
    with pytest.raises(LookupError, match="punkt_tab"):
        _sentences.nltk_sentences("A. B.")


def test_split_summaries_equals_rouge_scores_on_the_news_pairs(tokenizer, corpus_pairs):
    """rouge-score's split_summaries=True (nltk.sent_tokenize) and rougekit's
    (nltk_sentences): the same scores on every pair."""
    rs_scorer = need("rouge_score.rouge_scorer")
    types = ["rouge1", "rougeL", "rougeLsum"]
    ours = RougeScorer(types, use_stemmer=True, split_summaries=True)
    theirs = rs_scorer.RougeScorer(types, use_stemmer=True, split_summaries=True)
    for pair in corpus_pairs(sweep(600, 150), 3):
        for reference in pair["references"]:
            assert_same_scores(ours.score(reference, pair["candidate"]),
                               theirs.score(reference, pair["candidate"]))


def test_the_backend_splits(tokenizer):
    text = "(Sent one.) Sent two! “Three?” he said. Four..."
    params = tokenizer._params
    spans = _backend.punkt.sentence_spans(text, params.abbrev_types, params.collocations,
                                          params.sent_starters, params.ortho_context)
    assert [text[s:e] for s, e in spans] == nltk.sent_tokenize(text)
    with pytest.raises(TypeError, match="text must be a str, not bytes"):
        _backend.punkt.sentence_spans(b"a", set(), set(), set(), {})
