"""rougeLsum's sentences: sentence_split ("newline", "nltk", "sentencex") on
RougeScorer, score_corpus, compute and the CLI, and the warning when rougeLsum
gets several sentences on one line."""
import json
import subprocess
import sys
import warnings

import pytest
from rouge_score import rouge_scorer as rs_scorer

import rougekit
from rougekit import _pipeline, _sentences, rouge_scorer
from rougekit._sentences import check_sentence_split, looks_like_sentences

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TARGET = ("The cat sat on the mat. It was a sunny day! The dog barked at the cat. "
          "Everyone went home in 2021. Then it rained.")
PREDICTION = "A dog barked. The cat sat on a mat. It rained later that day."


def _caught(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [w for w in caught if issubclass(w.category, rougekit.SentenceSplitWarning)]


def _segments(text, iso="en"):
    sentencex = pytest.importorskip("sentencex", reason="sentencex is not installed "
                                    "(rougekit[sentences]; .ci/run installs it)")
    return [s for line in text.split("\n") for s in sentencex.segment(iso, line)]


# --- the rules ----------------------------------------------------------------------

def test_check_sentence_split():
    assert check_sentence_split(None) == "newline"
    assert check_sentence_split(None, split_summaries=True) == "nltk"
    assert check_sentence_split("sentencex") == "sentencex"
    with pytest.raises(ValueError, match="unknown sentence_split 'punkt'; valid: newline, "
                                         "nltk, sentencex"):
        check_sentence_split("punkt")
    with pytest.raises(ValueError, match="contradicts sentence_split='sentencex'"):
        rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True, sentence_split="sentencex")
    with pytest.raises(TypeError, match="sentence_split must be str"):
        rougekit.score_corpus(["a"], ["a"], sentence_split=1)


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_sentencex_equals_rouge_score_on_the_split_text(use_stemmer):
    """Each sentence on a line of its own: rouge-score's rougeLsum of the
    sentencex-split text; the other types are the plain text's."""
    _segments("x")  # skips without sentencex
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer, sentence_split="sentencex")
    reference = rs_scorer.RougeScorer(TYPES, use_stemmer)
    for target, prediction in [(TARGET, PREDICTION), (TARGET + "\n" + PREDICTION, PREDICTION),
                               ("", PREDICTION), ("One line only", "One. Two. Three.")]:
        got = scorer.score(target, prediction)
        split = reference.score("\n".join(_segments(target)), "\n".join(_segments(prediction)))
        plain = reference.score(target, prediction)
        assert got["rougeLsum"] == split["rougeLsum"]
        assert {t: got[t] for t in TYPES[:3]} == {t: plain[t] for t in TYPES[:3]}
    assert scorer.score(TARGET, PREDICTION)["rougeLsum"] != \
        reference.score(TARGET, PREDICTION)["rougeLsum"]


def test_sentencex_uses_the_lang_rules():
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], lang="hindi", sentence_split="sentencex")
    text = "यह एक वाक्य है। यह दूसरा है।"
    assert len(_segments(text, "hi")) == 2
    assert scorer._pairs.sentences(text, "text") == [
        scorer._tokenizer.sentence_tokens(s) for s in _segments(text, "hi")]


def test_nltk_is_split_summaries(punkt_data):
    ours = rouge_scorer.RougeScorer(TYPES, sentence_split="nltk")
    assert ours.score(TARGET, PREDICTION) == \
        rs_scorer.RougeScorer(TYPES, split_summaries=True).score(TARGET, PREDICTION)


def test_missing_sentencex_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentencex", None)
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], sentence_split="sentencex")
    with pytest.raises(ImportError) as info:
        scorer.score("a. B", "c")
    assert "\n" not in str(info.value) and "rougekit[sentences]" in str(info.value)


def test_corpus_compute_and_cli(tmp_path):
    _segments("x")
    cands = [PREDICTION, "Short one.", TARGET]
    refs = [[TARGET, "The cat sat. The dog ran."], ["Short two. Another."], [PREDICTION]]
    scorer = rouge_scorer.RougeScorer(TYPES, sentence_split="sentencex")
    expected = [scorer.score_multi(r, c) for c, r in zip(cands, refs)]
    for policy in ("max", "pooled"):
        result = rougekit.score_corpus(cands, refs, TYPES, sentence_split="sentencex",
                                       multi_ref=policy)
        assert "|split:sentencex-en(" in result.signature
        if policy == "max":
            assert result.per_item == expected
    result = rougekit.score_corpus(cands, refs, TYPES, sentence_split="sentencex")
    assert rougekit.compute(cands, refs, sentence_split="sentencex", use_aggregator=False) == \
        {t: [e[t].fmeasure for e in expected] for t in TYPES}
    (tmp_path / "c.txt").write_text("\n".join(cands) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(r[0] for r in refs) + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rougekit", "score", "--candidates",
                          str(tmp_path / "c.txt"), "--references", str(tmp_path / "r.txt"),
                          "--sentence-split", "sentencex", "--format", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    got = json.loads(out.stdout)
    direct = rougekit.score_corpus(cands, [r[0] for r in refs], TYPES,
                                   sentence_split="sentencex")
    assert got["signature"] == direct.signature
    assert {t: got["scores"][t]["fmeasure"] for t in TYPES} == direct.to_dict()


# --- the warning ---------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("The cat sat. It was happy.", True),
    ("It rained in 2021. Then it stopped.", True),
    ("我爱北京。天安门上太阳升", True),
    ("यह एक वाक्य है। यह दूसरा है", True),
    ("Dr. Smith arrived.", False),
    ("The U.S. Army marched.", False),
    ("One sentence only", False),
    ("The cat sat.\nIt was happy.", False),
    ("", False),
    (b"The cat sat. It was happy.", False),
    # only the first LOOKED_AT_CHARS characters are looked at
    ("The cat sat. It was happy." + " and so on" * 1000, True),
    ("and so on " * 1000 + "The cat sat. It was happy.", False),
    ("and so on " * 1000 + "我爱北京。天安门上太阳升", False),
    ("and so on " * 199 + "the cat. It", True),  # "It" starts at the 2,000th character
])
def test_looks_like_sentences(text, expected):
    assert looks_like_sentences(text) is expected


def test_warns_once_per_scorer_at_the_caller():
    scorer = rouge_scorer.RougeScorer(TYPES)
    got, caught = _caught(scorer.score, TARGET, PREDICTION)
    assert got == rs_scorer.RougeScorer(TYPES).score(TARGET, PREDICTION)
    assert len(caught) == 1 and caught[0].filename == __file__
    assert "sentence_split='sentencex'" in str(caught[0].message)
    _, caught = _caught(scorer.score, TARGET, PREDICTION)
    assert caught == []
    _, caught = _caught(rouge_scorer.RougeScorer(TYPES).score_batch, [TARGET] * 3,
                        [PREDICTION] * 3)
    assert len(caught) == 1 and caught[0].filename == __file__
    _, caught = _caught(rougekit.compute, [PREDICTION], [TARGET])
    assert len(caught) == 1 and caught[0].filename == __file__
    _, caught = _caught(rougekit.score_corpus, [PREDICTION], [TARGET], ["rougeLsum"],
                        multi_ref="pooled")
    assert len(caught) == 1 and caught[0].filename == __file__


@pytest.mark.parametrize("kwargs,target", [
    ({}, "The cat sat.\nIt was happy."),                    # has newlines
    ({}, "One sentence only"),
    ({"rouge_types": ["rouge1", "rougeL"]}, TARGET),        # no rougeLsum
    ({"sentence_split": "sentencex"}, TARGET),
])
def test_no_warning(kwargs, target):
    if kwargs.get("sentence_split") == "sentencex":
        _segments("x")
    scorer = rouge_scorer.RougeScorer(kwargs.pop("rouge_types", TYPES), **kwargs)
    _, caught = _caught(scorer.score, target, target)
    assert caught == []


def test_only_the_first_texts_are_checked(monkeypatch):
    monkeypatch.setattr(_pipeline, "CHECKED_TEXTS", 4)
    scorer = rouge_scorer.RougeScorer(TYPES)
    _, caught = _caught(scorer.score_batch, ["one", "two", TARGET], ["a", "b", "c"])
    assert caught == []          # the multi-sentence text was the fifth
    assert scorer._pairs.lines_to_check == 0
    assert _sentences.CHECKED_TEXTS == 1000
