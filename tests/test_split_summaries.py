"""rougeLsum with split_summaries=True.

rouge-score splits with ``nltk.sent_tokenize``, whose punkt model must be
downloaded (the parity test in test_parity_scorer.py runs where it is). Here
both libraries get the same stand-in splitter, which tests everything
rougekit does around the splitter on any machine, and the errors that say
what to install when nltk or its data is missing.
"""
import re
import sys

import pytest
from rouge_score import rouge_scorer as ref_rouge_scorer

from _helpers import assert_same_scores
from rougekit import rouge_scorer as kit_rouge_scorer

nltk = pytest.importorskip("nltk")


def fake_sent_tokenize(text):
    # Splits after . ! ? and keeps empty pieces, which rougeLsum must drop.
    return re.split(r"(?<=[.!?])\s*", text)


TEXTS = [
    ("The cat sat. The dog ran! Did it?", "The dog sat. A cat ran."),
    ("One sentence only", "One. Two. Three."),
    ("", "Something here."),
    ("...", "!!"),
    ("Repeated words. Repeated words. Words.", "Words repeated. Words."),
    ("Line one.\nLine two.", "Line two.\nLine one."),
]


@pytest.mark.parametrize("use_stemmer", [False, True])
@pytest.mark.parametrize("target,prediction", TEXTS)
def test_same_scores_with_same_splitter(monkeypatch, target, prediction, use_stemmer):
    monkeypatch.setattr(nltk, "sent_tokenize", fake_sent_tokenize)
    types = ["rouge1", "rougeLsum"]
    ours = kit_rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer, split_summaries=True)
    theirs = ref_rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer, split_summaries=True)
    assert_same_scores(ours.score(target, prediction), theirs.score(target, prediction))
    lsum_only = kit_rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    ref_only = ref_rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    assert_same_scores(lsum_only.score(target, prediction), ref_only.score(target, prediction))


def test_splitter_changes_the_score(monkeypatch):
    # Guards the test above: the splitter is really used.
    monkeypatch.setattr(nltk, "sent_tokenize", fake_sent_tokenize)
    split = kit_rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    plain = kit_rouge_scorer.RougeScorer(["rougeLsum"])
    target, prediction = "a b. c d.", "c d. a b."
    assert split.score(target, prediction) != plain.score(target, prediction)


def test_missing_punkt_data_says_what_to_download(monkeypatch):
    def no_data(text):
        raise LookupError("Resource punkt_tab not found.")
    monkeypatch.setattr(nltk, "sent_tokenize", no_data)
    # As rouge-score: the splitter is needed only when a rougeLsum score is computed.
    scorer = kit_rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], split_summaries=True)
    with pytest.raises(LookupError, match=r"nltk\.downloader punkt_tab"):
        scorer.score("a. b.", "a. b.")
    plain = kit_rouge_scorer.RougeScorer(["rouge1", "rougeL"], split_summaries=True)
    assert plain.score("a. b.", "a. b.")["rougeL"].fmeasure == 1.0


def test_missing_nltk_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "nltk", None)
    scorer = kit_rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True)
    with pytest.raises(ImportError, match=r"pip install 'rougekit\[nltk\]'"):
        scorer.score("a", "a")
    # rouge1 and rougeL never split sentences: no nltk needed.
    other = kit_rouge_scorer.RougeScorer(["rouge1", "rougeL"], split_summaries=True)
    assert other.score("a", "a")["rouge1"].fmeasure == 1.0
    # Without split_summaries nltk is never needed.
    assert kit_rouge_scorer.RougeScorer(["rougeLsum"]).score("a", "a")["rougeLsum"].fmeasure == 1.0
