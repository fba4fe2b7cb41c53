"""lang=: XL-Sum's multilingual ROUGE, checked against multilingual-rouge itself.

multilingual-rouge (XL-Sum's scorer on PyPI) runs here offline for every
language but two cases, which are run with the same inputs it lacks:

- its Snowball stemmers need NLTK's ``stopwords`` data, which cannot be
  downloaded here: the tests write stopword lists of their own into an NLTK
  data folder that both scorers read (``nltk_stopwords`` fixture);
- its Bengali stemmer's rules file is missing from its wheel: the tests hand
  its stemmer class (``RafiStemmer``) rougekit's copy of the file.

Japanese is compared with fugashi's unidic-lite dictionary, the one that
installs from PyPI. Parity tests compare every Score with ``==``; the
segmenter extras are skipped (with the reason) when not installed, and
.ci/run installs them.
"""
import io
import os
import pickle
import random
import subprocess
import sys
import warnings

import pytest

import rougekit
from _helpers import forget_nltk_stopwords, sweep
from rougekit import rouge_scorer
from rougekit.lang import LANGUAGES, LangTokenizer, get_language, resolve_lang, segmenters
from rougekit.lang.normalize import default_segment, words
from rougekit.lang.stemmers import SNOWBALL_LANGUAGES, BengaliStemmer, hindi_stem

pytestmark = pytest.mark.installed

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
RULES = os.path.join(os.path.dirname(rougekit.__file__), "lang", "data", "bengali_common.rules")

SAMPLES = {
    "english": "The quick brown foxes were jumping over the lazy dogs while running quickly "
               "and happily. Their owners had been watching these animals.",
    "french": "Les enfants mangeaient des pommes délicieuses pendant que nous étions à "
              "l'école. Elles avaient été heureuses.",
    "german": "Die Kinder spielten fröhlich im großen Garten, während ihre Eltern arbeiteten. "
              "Welche Bücher haben sie gelesen?",
    "spanish": "Los niños comían manzanas deliciosas mientras nosotros estudiábamos en la "
               "biblioteca. Ellas estaban contentas.",
    "portuguese": "As crianças estavam comendo maçãs deliciosas enquanto nós trabalhávamos. "
                  "Elas estavam felizes.",
    "italian": "I bambini mangiavano mele deliziose mentre noi lavoravamo nella biblioteca. "
               "Erano felicissimi.",
    "dutch": "De kinderen speelden vrolijk in de grote tuinen terwijl hun ouders werkten. "
             "Zij hebben gelezen.",
    "danish": "Børnene legede glade i de store haver, mens deres forældre arbejdede. "
              "Hvilke bøger har de læst?",
    "swedish": "Barnen lekte glatt i de stora trädgårdarna medan deras föräldrar arbetade. "
               "Vilka böcker har de läst?",
    "norwegian": "Barna lekte glade i de store hagene mens foreldrene deres arbeidet. "
                 "Hvilke bøker har de lest?",
    "finnish": "Lapset leikkivät iloisesti suurissa puutarhoissa, kun heidän vanhempansa "
               "työskentelivät. Kirjoja luettiin.",
    "hungarian": "A gyerekek vidáman játszottak a nagy kertekben, miközben szüleik dolgoztak. "
                 "Könyveket olvastak.",
    "romanian": "Copiii se jucau veseli în grădinile mari, în timp ce părinții lor lucrau. "
                "Cărțile erau frumoase.",
    "russian": "Дети весело играли в больших садах, пока их родители работали. "
               "Какие книги они прочитали?",
    "arabic": "كان الأطفال يلعبون بسعادة في الحدائق الكبيرة بينما كان آباؤهم يعملون. "
              "والمعلمون يكتبون الدروس",
    "hindi": "लड़कियाँ स्कूल जाती हैं और वे पढ़ाई करती हैं। लड़कों ने खेल खेला। "
             "हम जाएंगे, तुम आओगे, वे पढ़ेंगी।",
    "bengali": "তোমার সাথে দেখা হ\u09dfে ভালো লাগলো। আমরা বাড়িতে যাচ্ছিলাম এবং তারা "
               "খেলছিল। হ\u09af\u09bcেছিল, করেছিলেন, রহিমেরগুলোর, হেসেছিলেন।",
    "turkish": "Kitapları okuyorum, kitaplar çok güzeldi. Evlerimizde büyük bahçeler var. "
               "Öğrencilerin sınavları bitti.",
    "chinese": "我爱北京天安门，天安门上太阳升。伟大领袖毛主席，指引我们向前进。2024年，"
               "人工智能发展迅速！",
    "japanese": "東京へ行きます。明日は雨が降るでしょう。私は日本語を勉強しています。"
                "コンピューターが好きです。",
    "thai": "สวัสดีครับ ผมชื่อสมชาย วันนี้อากาศดีมาก ผมไปโรงเรียนทุกวัน",
    "burmese": "မြန်မာ စာ ကို လေ့လာ ပါ။ နေကောင်း လား။ ကျွန်တော် ကျောင်း သွား မယ်။ "
               "သင်္ဘော မင်္ဂလာပါ",
    "korean": "나는 학교에 갑니다. 오늘 날씨가 좋아요! 2024년 3월",
    "amharic": "ሰላም ልጆች ትምህርት ቤት ሄዱ። መምህሩ አስተማረ",
    "tamil": "நான் பள்ளிக்குச் செல்கிறேன். அவர்கள் விளையாடினார்கள்",
    "urdu": "میں اسکول جاتا ہوں۔ وہ کتابیں پڑھتے ہیں",
    "persian": "من به مدرسه می\u200cروم. آنها کتاب می\u200cخوانند",
    "vietnamese": "Tôi đi học mỗi ngày. Hôm nay trời đẹp quá!",
    "other": "abc123 x²y ₹5 中文 ̀ ▁ ￭ ￨ ÀÉÎ — «quoted» 3.14 ½ Ⅻ",
}


def _shuffled_texts(lang, n, seed):
    """n random texts from the language's sample words: re-ordered, with
    punctuation, newlines, digits and case changes between them."""
    rng = random.Random(seed)
    vocab = SAMPLES[lang].replace("\n", " ").split()
    seps = [" ", " ", " ", ", ", ". ", "\n", "! ", " - ", "  ", "\t", "。", "، "]
    out = []
    for _ in range(n):
        k = rng.randint(0, 18)
        parts = []
        for _ in range(k):
            w = rng.choice(vocab)
            if rng.random() < 0.1:
                w = w.upper()
            if rng.random() < 0.05:
                w = str(rng.randint(0, 3000))
            parts.append(w + rng.choice(seps))
        out.append("".join(parts))
    return out


# --- the reference ------------------------------------------------------------------

@pytest.fixture(scope="session")
def mr():
    return pytest.importorskip(
        "multilingual_rouge.rouge_scorer",
        reason="multilingual-rouge (XL-Sum's scorer) is not installed (.ci/run installs it)")


@pytest.fixture(scope="session")
def nltk_stopwords(tmp_path_factory):
    """An NLTK data folder with a stopword list per Snowball language made
    from the sample's words of more than 3 letters (every other one), so that
    "leave stopwords unstemmed" decides tokens; both scorers read it."""
    nltk = pytest.importorskip("nltk", reason="nltk is not installed (rougekit[stemmers])")
    root = tmp_path_factory.mktemp("nltk_data")
    folder = root / "corpora" / "stopwords"
    folder.mkdir(parents=True)
    for lang in SNOWBALL_LANGUAGES:
        ws = [w for w in words(SAMPLES[lang].lower()) if len(w) > 3][::2]
        (folder / lang).write_text("\n".join(ws) + "\n", encoding="utf-8")
    nltk.data.path.insert(0, str(root))
    forget_nltk_stopwords()
    yield root
    nltk.data.path.remove(str(root))
    forget_nltk_stopwords()


def _parity(ref, ours, pairs):
    for target, prediction in pairs:
        expected = ref.score(target, prediction)
        got = ours.score(target, prediction)
        assert list(got) == TYPES
        for t in TYPES:
            assert tuple(got[t]) == tuple(expected[t]), (t, target, prediction)
    batch = ours.score_batch([t for t, _ in pairs], [p for _, p in pairs])
    assert batch == [ours.score(t, p) for t, p in pairs]


def _pairs(lang, n=25, seed=0):
    texts = _shuffled_texts(lang, 2 * n, seed)
    sample = SAMPLES[lang]
    return [(sample, sample[: len(sample) // 2]), ("", sample), (sample, "")] + \
        list(zip(texts[::2], texts[1::2]))


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


NEED = {"chinese": "jieba", "japanese": "fugashi", "thai": "pythainlp",
        "turkish": "TurkishStemmer"}


def _need(lang, stem=False):
    module = NEED.get(lang)
    if module and (lang != "turkish" or stem):
        pytest.importorskip(module, reason=f"{module} is not installed (its rougekit extra)")
    if lang == "japanese":
        pytest.importorskip("unidic_lite", reason="unidic-lite is not installed (rougekit[ja])")
        try:
            import unidic  # noqa: F401
        except ImportError:
            pass
        else:
            pytest.skip("the full unidic package is installed: multilingual-rouge's fugashi "
                        "would use it, rougekit uses unidic-lite")


PLAIN = sorted(set(SAMPLES) - {"bengali"})


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("lang", PLAIN)
def test_parity_with_multilingual_rouge(mr, nltk_stopwords, lang, use_stemmer):
    _need(lang, use_stemmer)
    ref = _quiet(mr.RougeScorer, TYPES, use_stemmer=use_stemmer, lang=lang)
    ours = _quiet(rouge_scorer.RougeScorer, TYPES, use_stemmer=use_stemmer, lang=lang)
    _quiet(_parity, ref, ours, _pairs(lang))


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["nostem", "stem"])
def test_parity_bengali_with_the_rules_file_handed_over(mr, use_stemmer):
    from multilingual_rouge.bengali_stemmer import RafiStemmer
    with open(RULES, encoding="utf-8") as f:
        rafi = RafiStemmer(io.StringIO(f.read()))
    ref = _quiet(mr.RougeScorer, TYPES, use_stemmer=use_stemmer, lang="bengali",
                 callable_stemmer=rafi.stem_word)
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer, lang="bengali")
    _quiet(_parity, ref, ours, _pairs("bengali"))


@pytest.mark.parametrize("alias", ["bangla", "turkce", "chinese_simplified",
                                   "chinese_traditional", "mundo"])
def test_aliases(mr, nltk_stopwords, alias):
    lang = resolve_lang(alias)
    _need(lang)
    ref = _quiet(mr.RougeScorer, TYPES, lang=alias)
    ours = _quiet(rouge_scorer.RougeScorer, TYPES, lang=alias)
    _quiet(_parity, ref, ours, _pairs(lang, n=5))


# --- the parts, against the reference's parts ----------------------------------------

def _reference_default(text):
    from multilingual_rouge.tokenizers import BasicTokenizer, whitespace_tokenize
    pyonmttok = pytest.importorskip("pyonmttok", reason="pyonmttok is not installed")
    bt = BasicTokenizer()
    onmt = pyonmttok.Tokenizer("aggressive")
    cleaned = " ".join(bt(text.strip()))
    return whitespace_tokenize(bt.tokenize_chinese_chars(" ".join(onmt.tokenize(cleaned)[0])))


def test_cleaning_and_default_segmentation_random(mr):
    from multilingual_rouge.tokenizers import BasicTokenizer
    bt = BasicTokenizer()
    rng = random.Random(1)
    pools = ["abcXYZ019 ", "\u0301\u0308\u093f\u094d", "²½Ⅷ٣", "$€©+<>^`|~",
             ".,;:!?-_()[]{}\"'«»。、「」",
             "\t\n\r\x00\x0b\x0c\x1c\x85\u2028\u2029\u00a0\u3000\u200b\u200c\u200d\ufeff"
             "\ufffd\u00ad", "中文字日本語かなカナ한국어", "привет", "हिन्दीভাষা",
             "\u2581\uffed\uffe8％＃：", "ꯀꯁ𝔸𝟙\U0002a700"]
    for _ in range(4000):
        text = "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(0, 30))).lower()
        assert words(text) == bt(text.strip()), text
        assert default_segment(" ".join(words(text))) == _reference_default(text), text


def test_default_segmentation_every_code_point(mr):
    """Every code point, alone and beside letters, numbers, marks and CJK.
    (About 100 s; the code under test is Python on both backends, so the
    compiled run alone does it.)"""
    if rougekit.BACKEND == "pure":
        pytest.skip("the same Python code as on the compiled backend, where it runs")
    contexts = ("{c}", "a{c}", "1{c}a", "{c}{c}1", "中{c}", "\u0301{c}")
    step = 2000
    # A quick run: the alphabets below U+3000 whole, then every ninth block.
    every = sweep(1, 9)
    for lo in range(0, sys.maxunicode + 1, step):
        if lo >= 0x3000 and lo // step % every:
            continue
        chars = [chr(cp) for cp in range(lo, min(lo + step, sys.maxunicode + 1))
                 if not 0xD800 <= cp <= 0xDFFF]
        for ctx in contexts:
            text = " ".join(ctx.format(c=c) for c in chars).lower()
            assert default_segment(" ".join(words(text))) == _reference_default(text), \
                (hex(lo), ctx)


def test_burmese_rule_random(mr):
    from multilingual_rouge.tokenizers import BurmeseTokenizer
    ref = BurmeseTokenizer()
    rng = random.Random(2)
    pool = [chr(c) for c in range(0x1000, 0x10A0)] + [" ", "\u200c", "a", "\u1037\u103a"]
    for _ in range(5000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 25)))
        assert segmenters.burmese(text) == ref(text), text


def _hindi_words(n, seed):
    from rougekit.lang.stemmers import _HINDI_SUFFIXES
    rng = random.Random(seed)
    bases = words(SAMPLES["hindi"]) + ["क", "कि", "लड़क", "जा", "पढ़"]
    suffixes = [s for group in _HINDI_SUFFIXES.values() for s in group] + [""]
    return [rng.choice(bases) + rng.choice(suffixes) + rng.choice(suffixes) for _ in range(n)]


def test_hindi_stemmer(mr):
    from multilingual_rouge.stemmers import HindiStemmer
    ref = HindiStemmer()
    for w in _hindi_words(3000, 3):
        assert hindi_stem(w) == ref(w), w


def test_bengali_stemmer(mr):
    from multilingual_rouge.bengali_stemmer import RafiStemmer
    with open(RULES, encoding="utf-8") as f:
        rules = f.read()
    ref = RafiStemmer(io.StringIO(rules))
    ours = BengaliStemmer()
    assert (ours.groups, ours.replace) == (ref.groups, ref.replace_rules)
    rng = random.Random(4)
    suffixes = [s for g in ref.groups for s in g] + [v for v in ref.replace_rules.values()]
    bases = words(SAMPLES["bengali"]) + ["া", "ে", "ক", "কর", "হেস", ""]
    for _ in range(5000):
        w = rng.choice(bases) + rng.choice(suffixes) + rng.choice(suffixes + [""])
        assert ours.stem(w) == ref.stem_word(w), w


# Suffixes that each Snowball stemmer takes off, to make words that exercise it.
SNOWBALL_SUFFIXES = {
    "english": ["ing", "ed", "ies", "ational", "fulness", "ly", "ness", "ment"],
    "french": ["ements", "ations", "issement", "euses", "ité", "aient", "ions", "ées"],
    "german": ["ungen", "heit", "keit", "lich", "isch", "ern", "est", "en"],
    "spanish": ["aciones", "amientos", "mente", "idades", "ábamos", "ando", "iendo", "es"],
    "portuguese": ["ações", "amentos", "mente", "idades", "ávamos", "ando", "endo", "ões"],
    "italian": ["azioni", "amenti", "mente", "ità", "avamo", "ando", "endo", "issimo"],
    "dutch": ["heden", "ingen", "lijk", "baar", "end", "ende", "en", "s"],
    "danish": ["erendes", "hedens", "ethed", "elig", "ende", "erne", "ene", "s"],
    "swedish": ["heterna", "arnas", "ande", "ernas", "ade", "are", "ast", "or"],
    "norwegian": ["hetenes", "endes", "ende", "ene", "ert", "ets", "het", "er"],
    "finnish": ["issa", "ssa", "lla", "ksi", "nsa", "mme", "hän", "inen"],
    "hungarian": ["okban", "ekben", "ából", "ért", "nak", "nek", "ság", "ként"],
    "romanian": ["ațiilor", "ătoare", "itate", "ilor", "ului", "ește", "ează", "uri"],
    "russian": ["ами", "ями", "ость", "ировать", "ующий", "ешь", "ого", "ыми"],
    "arabic": ["ون", "ات", "ين", "ها", "كم", "هما", "ية", "وا"],
}


@pytest.mark.parametrize("lang", SNOWBALL_LANGUAGES)
def test_snowball_stems_equal_nltk(nltk_stopwords, lang):
    """Each Snowball language's stems, as XL-Sum takes them (tokens longer
    than 3 characters, NLTK's stopwords left alone), against NLTK's
    SnowballStemmer itself; and with stem_stopwords against the plain one."""
    from nltk.stem.snowball import SnowballStemmer
    base = words(SAMPLES[lang].lower())
    rng = random.Random(5)
    vocab = base + [w + s for w in base for s in SNOWBALL_SUFFIXES[lang]] + \
        [rng.choice(base)[: rng.randint(1, 6)] + rng.choice(SNOWBALL_SUFFIXES[lang])
         for _ in range(300)]
    for stem_stopwords in (False, True):
        reference = SnowballStemmer(lang, ignore_stopwords=not stem_stopwords)
        assert bool(reference.stopwords) != stem_stopwords
        tok = LangTokenizer(lang, use_stemmer=True, stem_stopwords=stem_stopwords)
        for w in vocab:
            expected = reference.stem(w) if len(w) > 3 else w
            assert tok.stem_words([w]) == ([expected] if expected else []), w
        assert tok.stopwords.startswith("nltk(") != stem_stopwords


def test_turkish_stemmer_is_turkishstemmer():
    TurkishStemmer = pytest.importorskip("TurkishStemmer", reason="TurkishStemmer is not "
                                         "installed (rougekit[stemmers])").TurkishStemmer
    ref = TurkishStemmer()
    tok = LangTokenizer("turkish", use_stemmer=True)
    for w in words(SAMPLES["turkish"].lower()):
        assert tok.stem_words([w]) == [ref.stem(w) if len(w) > 3 else w]


# --- segmenters (skipped when their extra is missing) -----------------------------------

@pytest.mark.parametrize("lang,text,expected", [
    ("chinese", "我爱北京天安门", ["我", "爱", "北京", "天安门"]),
    ("japanese", "東京へ行きます", ["東京", "へ", "行き", "ます"]),
    ("thai", "สวัสดีครับ", ["สวัสดี", "ครับ"]),
    ("burmese", "မြန်မာ စာ", ["မြန်", "မာ", "စာ"]),
])
def test_segmenters(lang, text, expected):
    _need(lang)
    assert LangTokenizer(lang).tokenize(text) == expected


def test_segmenter_spaces_are_tokens_as_in_xlsum():
    # jieba and pythainlp return the spaces between the cleaned words as
    # tokens; XL-Sum keeps them, and so do we.
    _need("chinese")
    assert LangTokenizer("chinese").tokenize("北京，上海") == ["北京", " ", "上海"]


def test_rougelsum_sentences_are_not_segmented_as_in_xlsum():
    _need("chinese")
    tok = LangTokenizer("chinese")
    assert tok.sentence_tokens("我爱北京，天安门") == ["我爱北京", "天安门"]


@pytest.mark.parametrize("lang,module,extra", [
    ("chinese", "jieba", "zh"), ("japanese", "fugashi", "ja"), ("thai", "pythainlp", "th")])
def test_missing_segmenter_names_the_extra(monkeypatch, lang, module, extra):
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.setitem(sys.modules, name, None)    # import fails
    monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setattr(segmenters, "_loaded", {})
    with pytest.raises(ImportError) as info:
        LangTokenizer(lang)
    message = str(info.value)
    assert "\n" not in message and f"rougekit[{extra}]" in message


@pytest.mark.parametrize("lang,module", [("french", "nltk"), ("turkish", "TurkishStemmer")])
def test_missing_stemmer_names_the_extra(monkeypatch, lang, module):
    monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setitem(sys.modules, "nltk.stem.snowball", None)
    with pytest.raises(ImportError) as info:
        LangTokenizer(lang, use_stemmer=True)
    assert "\n" not in str(info.value) and "rougekit[stemmers]" in str(info.value)


def test_missing_stopwords_data_is_one_line():
    pytest.importorskip("nltk", reason="nltk is not installed")
    code = ("from rougekit.lang import LangTokenizer\n"
            "try:\n    LangTokenizer('french', use_stemmer=True)\n"
            "except LookupError as e:\n    print('LOOKUP', e)\n"
            "else:\n    print('FOUND')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, NLTK_DATA=os.devnull)).stdout
    if out.startswith("FOUND"):
        pytest.skip("NLTK's stopwords data is installed here")
    assert out.startswith("LOOKUP") and out.count("\n") == 1
    assert "nltk.downloader stopwords" in out and "stem_stopwords=True" in out


# --- options and errors ------------------------------------------------------------------

def test_language_table():
    assert len([name for name in LANGUAGES if name not in
                ("bangla", "turkce", "chinese_simplified", "chinese_traditional", "mundo")]) \
        == 44 + 9 + 1   # XL-Sum's 45 (its two Chinese as one), 9 more Snowball, other
    assert get_language("bangla").name == "bengali"
    with pytest.raises(ValueError, match="unknown lang 'klingon'; valid: amharic"):
        resolve_lang("klingon")
    with pytest.raises(TypeError, match="lang must be a language name"):
        resolve_lang(3)


def test_option_conflicts():
    with pytest.raises(ValueError, match="give lang= or tokenizer=, not both"):
        rouge_scorer.RougeScorer(["rouge1"], lang="hindi",
                                 tokenizer=rougekit.word_tokenizers.WhitespaceTokenizer())
    with pytest.raises(ValueError, match="give lang= or tokenizer=, not both"):
        rougekit.score_corpus(["a"], ["a"], lang="hindi", tokenizer="unicode")
    with pytest.raises(ValueError, match="stem_stopwords=True applies only with lang="):
        rouge_scorer.RougeScorer(["rouge1"], stem_stopwords=True)
    with pytest.raises(TypeError, match="target must be str or bytes"):
        rouge_scorer.RougeScorer(["rouge1"], lang="hindi").score(3, "a")


def test_no_stemmer_warns_and_changes_nothing():
    with pytest.warns(rougekit.TokenizationWarning, match="lang='korean' has no stemmer"):
        stemmed = rouge_scorer.RougeScorer(TYPES, use_stemmer=True, lang="korean")
    plain = rouge_scorer.RougeScorer(TYPES, lang="korean")
    for t, p in _pairs("korean", n=5):
        assert stemmed.score(t, p) == plain.score(t, p)


def test_bytes_as_xlsum(mr):
    # XL-Sum lowercases bytes (ASCII only) and decodes them dropping invalid
    # sequences; whole-text tokens only (sentences are decoded strictly).
    from multilingual_rouge import tokenization_wrapper
    reference = mr.MultiTokenizer("russian")
    tok = LangTokenizer("russian")
    for text in ("Привет Мир ABC".encode(), b"ABC \xff def"):
        assert tok.tokenize(text) == tokenization_wrapper.tokenize(text, None, reference)
    assert tok.tokenize("Привет Мир ABC".encode()) == ["Привет", "Мир", "abc"]


def test_pickle_a_lang_scorer():
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True, lang="hindi")
    again = pickle.loads(pickle.dumps(scorer))
    for t, p in _pairs("hindi", n=5):
        assert again.score(t, p) == scorer.score(t, p)


def test_stem_cache_is_per_tokenizer():
    tok = LangTokenizer("hindi", use_stemmer=True)
    tok.tokenize(SAMPLES["hindi"])
    assert tok._stems and LangTokenizer("hindi", use_stemmer=True)._stems == {}


# --- score_corpus, compute and the CLI take lang= ------------------------------------------

def test_corpus_compute_and_cli(mr, tmp_path):
    lang = "hindi"
    cands = _shuffled_texts(lang, 12, 7)
    refs = _shuffled_texts(lang, 12, 8)
    ref = _quiet(mr.RougeScorer, TYPES, use_stemmer=True, lang=lang)
    expected = [ref.score(r, c) for c, r in zip(cands, refs)]
    result = rougekit.score_corpus(cands, refs, TYPES, lang=lang, use_stemmer=True)
    for item, exp in zip(result.per_item, expected):
        assert {t: tuple(s) for t, s in item.items()} == \
            {t: tuple(float(x) for x in exp[t]) for t in TYPES}
    assert "|tok:xlsum|lang:hindi|stem:hindi|" in result.signature
    per_item = rougekit.compute(cands, refs, lang=lang, use_stemmer=True, use_aggregator=False)
    assert per_item == {t: [e[t].fmeasure for e in expected] for t in TYPES}
    (tmp_path / "c.txt").write_text("\n".join(c.replace("\n", " ") for c in cands) + "\n",
                                    encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(r.replace("\n", " ") for r in refs) + "\n",
                                    encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rougekit", "score", "--candidates",
                          str(tmp_path / "c.txt"), "--references", str(tmp_path / "r.txt"),
                          "--lang", lang, "--stemmer", "--format", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    import json
    got = json.loads(out.stdout)
    flat = rougekit.score_corpus([c.replace("\n", " ") for c in cands],
                                 [r.replace("\n", " ") for r in refs], TYPES, lang=lang,
                                 use_stemmer=True)
    assert got["signature"] == flat.signature
    assert {t: got["scores"][t]["fmeasure"] for t in TYPES} == flat.to_dict()


def test_score_frame_takes_lang_and_sentence_split():
    pd = pytest.importorskip("pandas", reason="pandas is not installed (rougekit's tables)")
    from rougekit.frames import column_names, score_frame
    cands, refs = _shuffled_texts("hindi", 6, 1), _shuffled_texts("hindi", 6, 2)
    df = pd.DataFrame({"candidate": cands, "references": refs})
    types = ["rouge1", "rougeLsum"]
    out = score_frame(df, types, lang="hindi", use_stemmer=True)
    expected = rougekit.score_corpus(cands, refs, types, lang="hindi", use_stemmer=True)
    name = column_names(["rouge1"])[2]
    assert list(out[name]) == [item["rouge1"].fmeasure for item in expected.per_item]
