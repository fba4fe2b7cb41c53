"""Bad input: clear TypeErrors and ValueErrors, never a crash, hang or a
silent wrong number; odd strings score exactly as rouge-score scores them.

Known gaps are ``xfail(strict=True)``: when one is fixed, the xfail turns
into an XPASS failure and the marker must be removed.
"""

import pytest
from rouge_score import rouge_scorer as ref_rouge_scorer

from rougekit import corpus, evaluator, rouge_scorer, scoring, tokenize, tokenizers, word_tokenizers
from rougekit import token_metrics as tm

pytestmark = [pytest.mark.backend, pytest.mark.kernel]

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
BAD_TEXTS = [None, 1, 1.5, ["a", "b"], ("a",), object(), {"a": 1}]


def _raises(exc, func, *words):
    """func() raises exc, and its message contains every word."""
    with pytest.raises(exc) as info:
        func()
    msg = str(info.value)
    for w in words:
        assert w in msg, f"{w!r} not in message {msg!r}"
    return info.value


@pytest.fixture(params=[False, True], ids=["plain", "stem"])
def scorer(request):
    return rouge_scorer.RougeScorer(TYPES, use_stemmer=request.param)


# --- RougeScorer (the drop-in API) -------------------------------------------

@pytest.mark.parametrize("bad", BAD_TEXTS, ids=lambda b: type(b).__name__)
def test_score_wrong_text_type(scorer, bad):
    name = type(bad).__name__
    _raises(TypeError, lambda: scorer.score(bad, "a b"), "target", name)
    _raises(TypeError, lambda: scorer.score("a b", bad), "prediction", name)
    _raises(TypeError, lambda: scorer.score_multi([bad], "a b"), "target", name)
    _raises(TypeError, lambda: scorer.score_batch(["a", bad], ["a", "b"]), name)
    _raises(TypeError, lambda: scorer.score_batch(["a"] * 100 + [bad], ["a"] * 101,
                                                  threads=4), name)
    _raises(TypeError, lambda: scorer.score_multi_batch([["a", bad]], ["a"]), name)


@pytest.mark.parametrize("types, exc, words", [
    (5, TypeError, ["rouge_types", "int"]),
    ([1], TypeError, ["rouge_types", "int"]),
    ([None], TypeError, ["rouge_types", "NoneType"]),
    ([["rouge1"]], TypeError, ["rouge_types", "list"]),
])
def test_rouge_types(types, exc, words):
    _raises(exc, lambda: rouge_scorer.RougeScorer(types), *words)


@pytest.mark.parametrize("types, words", [
    (["rouge0"], ["rouge0"]),
    (["rouge10"], ["rouge10", "rouge1 to rouge9"]),
    (["rougeX"], ["rougeX", "rougeL"]),
    (["rouge1", "rougel"], ["rougel"]),
    ("rouge1", ["valid"]),
])
def test_unknown_rouge_types_raise_when_scoring(types, words):
    # As rouge-score (its own tests pin it): the scorer is built, and every
    # way of computing a score raises ValueError naming the type.
    scorer = rouge_scorer.RougeScorer(types)
    _raises(ValueError, lambda: scorer.score("a b", "a b"), *words)
    _raises(ValueError, lambda: scorer.score(b"a b", "a b"), *words)
    _raises(ValueError, lambda: scorer.score_multi(["a b"], "a b"), *words)
    _raises(ValueError, lambda: scorer.score_batch(["a b"], ["a b"]), *words)
    _raises(ValueError, lambda: scorer.score_multi_batch([["a b"]], ["a b"]), *words)


def test_tokenizer_without_tokenize():
    _raises(TypeError, lambda: rouge_scorer.RougeScorer(["rouge1"], tokenizer=1),
            "tokenizer", "int")


def test_batch_arguments(scorer):
    _raises(ValueError, lambda: scorer.score_batch(["a"], ["a", "b"]), "1 and 2")
    _raises(ValueError, lambda: scorer.score_multi_batch([["a"]], ["a", "b"]), "1 and 2")
    _raises(TypeError, lambda: scorer.score_batch(None, ["a"]), "targets", "NoneType")
    _raises(TypeError, lambda: scorer.score_batch(["a"], 3), "predictions", "int")
    _raises(TypeError, lambda: scorer.score_batch("ab", "ab"), "targets", "str")
    _raises(TypeError, lambda: scorer.score_multi_batch(None, ["a"]), "targets_list", "NoneType")
    _raises(TypeError, lambda: scorer.score_multi_batch([None], ["a"]), "targets_list[0]", "NoneType")
    _raises(TypeError, lambda: scorer.score_multi_batch(["ab"], ["a"]), "targets_list[0]", "str")
    _raises(ValueError, lambda: scorer.score_multi_batch([[]], ["a"]), "targets_list[0]")
    for bad, exc in ((0, ValueError), (-1, ValueError), (1.5, TypeError), ("2", TypeError),
                     (True, TypeError)):
        _raises(exc, lambda: scorer.score_batch(["a"], ["a"], threads=bad), "threads")
    assert scorer.score_batch([], []) == []


def test_score_multi_arguments(scorer):
    _raises(ValueError, lambda: scorer.score_multi([], "a"), "targets")
    _raises(TypeError, lambda: scorer.score_multi("ab", "a"), "targets", "str")


def test_score_multi_none_names_argument(scorer):
    _raises(TypeError, lambda: scorer.score_multi(None, "a"), "targets", "NoneType")


# --- odd strings: exactly rouge-score's scores, or its exception type --------

ODD = [
    "\ud800", "a\ud800b c", "\udc80\udcff abc", "a\x00b c\x00", "\x00",
    "x\x01\x02\x1b[0m y\x7f", "\u0130stanbul \u0130\u0130", "\u01c5 \u00df stra\u00dfe \ufb01ne",
    "a" * 100000, "abc" * 33334 + " abc", "running" * 14286,
    "\u65e5\u672c\u8a9e text \u0440\u0443\u0441\u0441\u043a\u0438\u0439 \u0663\u0664 \u0661\u0662",
    "\u216b \u00bd \u00b2 \u2460", "a\u2028b\u2029c\x85d\re\nf\n\ng", "\U0001F600 emoji",
    "running\u00a0jumps", "A\u0307 K\u212a", " \t\n ", "", "\n\n\n",
    b"caf\xc3\xa9 running dogs", b"a\x00b", b"RUNNING Dogs\nsecond LINE",
]
PARTNERS = ["a b c", "abc running dogs jumps", ""]


def _outcome(scorer, target, prediction):
    try:
        return scorer.score(target, prediction)
    except Exception as exc:  # the exception type is part of the contract
        return type(exc)


def _same(ours, theirs):
    if isinstance(theirs, type):
        return ours is theirs
    if isinstance(ours, type) or list(ours) != list(theirs):
        return False
    return all(tuple(map(type, ours[k])) == tuple(map(type, theirs[k]))
               and ours[k] == theirs[k] for k in theirs)


@pytest.mark.parametrize("types", [TYPES, ["rougeLsum"]], ids=["all", "lsum-only"])
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stem"])
@pytest.mark.parametrize("odd", ODD, ids=lambda s: repr(s)[:24])
def test_odd_strings_match_rouge_score(odd, stem, types):
    kit = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    ref = ref_rouge_scorer.RougeScorer(types, use_stemmer=stem)
    partners = PARTNERS + [odd]
    if isinstance(odd, bytes):
        partners += [p.encode() for p in PARTNERS]
    for other in partners:
        for t, p in ((odd, other), (other, odd)):
            theirs = _outcome(ref, t, p)
            assert _same(_outcome(kit, t, p), theirs), (t[:40], p[:40])
            try:
                batch = kit.score_batch([t] * 3, [p] * 3, threads=2)[1]
            except Exception as exc:
                batch = type(exc)
            assert _same(batch, theirs), (t[:40], p[:40])


@pytest.mark.parametrize("bad", [b"\xff\xfe", b"\xed\xa0\x80", b"ok \xc3", b"\x80abc"])
def test_bytes_not_utf8_raise_as_rouge_score(bad):
    for types in (TYPES, ["rougeLsum"], ["rouge1"]):
        kit = rouge_scorer.RougeScorer(types)
        ref = ref_rouge_scorer.RougeScorer(types)
        for t, p in ((bad, "a"), ("a", bad), (bad, bad)):
            theirs = _outcome(ref, t, p)
            assert isinstance(theirs, type) and issubclass(theirs, Exception)
            assert _outcome(kit, t, p) is theirs


class _ListTokens:
    """A custom tokenizer whose tokens are unhashable lists."""

    def tokenize(self, text):
        return [[w] for w in text.split()]


def test_unhashable_tokens_custom_tokenizer_as_rouge_score():
    # rouge-score's LCS only compares tokens with ==: rougeL works on lists.
    kit = rouge_scorer.RougeScorer(["rougeL"], tokenizer=_ListTokens())
    ref = ref_rouge_scorer.RougeScorer(["rougeL"], tokenizer=_ListTokens())
    for t, p in (("a b c d", "b d a"), ("x y", "x y"), ("", "a")):
        assert _same(kit.score(t, p), ref.score(t, p))


def test_unhashable_tokens_rouge_n_raises_as_rouge_score():
    ref = ref_rouge_scorer.RougeScorer(["rouge1"], tokenizer=_ListTokens())
    assert _outcome(ref, "a b", "a") is TypeError
    kit = rouge_scorer.RougeScorer(["rouge1"], tokenizer=_ListTokens())
    assert _outcome(kit, "a b", "a") is TypeError


# --- token-level functions ----------------------------------------------------

TOKEN_FUNCS = {
    "rouge1": tm.rouge1, "rouge2": tm.rouge2, "rouge_l": tm.rouge_l,
    "overlap": tm.overlap, "lcs": tm.lcs,
    "rouge_n3": lambda a, b: tm.rouge_n(a, b, 3),
}


@pytest.mark.parametrize("name", TOKEN_FUNCS)
@pytest.mark.parametrize("bad", [None, 5, 2.5, "a b", b"a b", object()],
                         ids=lambda b: type(b).__name__)
def test_token_functions_wrong_type(name, bad):
    func = TOKEN_FUNCS[name]
    tname = type(bad).__name__
    _raises(TypeError, lambda: func(bad, ["a"]), tname)
    _raises(TypeError, lambda: func(["a"], bad), tname)


@pytest.mark.parametrize("n, exc", [(0, ValueError), (-1, ValueError), (1.0, TypeError),
                                    (None, TypeError), (True, TypeError), ("2", TypeError)])
def test_rouge_n_bad_n(n, exc):
    _raises(exc, lambda: tm.rouge_n(["a"], ["a"], n), "n")


def test_rouge_n_huge_n_scores_zero():
    assert tm.rouge_n(["a"], ["a"], 10 ** 30) == (0.0, 0.0, 0.0)


def test_rouge_n_n_beyond_length_scores_zero():
    assert tm.rouge_n(["a", "b"], ["a", "b"], 2 ** 40) == (0.0, 0.0, 0.0)


def test_rouge_lsum_arguments():
    _raises(ValueError, lambda: tm.rouge_lsum([["a"]], [["a"]], mode="x"),
            "best-match", "union")
    _raises(TypeError, lambda: tm.rouge_lsum(None, [["a"]]), "candidate_sentences", "NoneType")
    _raises(TypeError, lambda: tm.rouge_lsum([["a"]], 3), "reference_sentences", "int")
    _raises(TypeError, lambda: tm.rouge_lsum(["ab"], [["a"]]), "candidate_sentences[0]", "str")
    _raises(TypeError, lambda: tm.rouge_lsum([None], [["a"]]), "candidate_sentences[0]")


@pytest.mark.parametrize("beta", [-1, -0.5, -1e-300, float("nan"), float("inf"),
                                  float("-inf")])
def test_fbeta_bad_beta(beta):
    _raises(ValueError, lambda: tm.fbeta(0.5, 0.5, beta), "beta", ">= 0")


@pytest.mark.parametrize("beta", [None, "1", [1], True])
def test_fbeta_beta_type(beta):
    _raises(TypeError, lambda: tm.fbeta(0.5, 0.5, beta), "beta", type(beta).__name__)


@pytest.mark.parametrize("func", [tm.f1, lambda p, r: tm.fbeta(p, r, 2.0)],
                         ids=["f1", "fbeta"])
def test_f1_wrong_type_names_argument(func):
    _raises(TypeError, lambda: func(None, 0.5), "precision", "NoneType")
    _raises(TypeError, lambda: func(0.5, "x"), "recall", "str")


@pytest.mark.parametrize("p, r", [(-1.0, 0.5), (2.0, 0.5), (0.5, float("nan"))])
def test_f1_value_outside_unit_interval(p, r):
    _raises(ValueError, lambda: tm.f1(p, r), "[0, 1]")


# --- scoring ------------------------------------------------------------------

@pytest.mark.parametrize("ci", [-0.1, 1.5, -1e-9, 1 + 1e-9])
def test_bootstrap_confidence_outside_unit_interval(ci):
    _raises(ValueError, lambda: scoring.BootstrapAggregator(ci), "[0, 1]")


def test_bootstrap_n_samples():
    _raises(ValueError, lambda: scoring.BootstrapAggregator(0.95, 0), "n_samples")
    _raises(ValueError, lambda: scoring.BootstrapAggregator(0.95, -3), "n_samples")


def test_bootstrap_confidence_nan():
    _raises(ValueError, lambda: scoring.BootstrapAggregator(float("nan")), "[0, 1]")


@pytest.mark.parametrize("call", [
    lambda: scoring.BootstrapAggregator(None),
    lambda: scoring.BootstrapAggregator(0.95, None),
    lambda: scoring.BootstrapAggregator(0.95, 1.5),
    lambda: scoring.BootstrapAggregator().add_scores(None),
], ids=["ci-None", "n-None", "n-float", "add-None"])
def test_bootstrap_wrong_types(call):
    exc = _raises(TypeError, call)
    assert any(w in str(exc) for w in ("confidence_interval", "n_samples", "scores"))


# --- evaluator ----------------------------------------------------------------

def test_evaluator_arguments():
    for bad in (None, 1.5):
        _raises(TypeError, lambda: evaluator.rouge_1_score(bad, "a"), "reference",
                type(bad).__name__)
        _raises(TypeError, lambda: evaluator.rouge_1_score("a", bad), "candidate",
                type(bad).__name__)
    _raises(ValueError, lambda: evaluator.RougeScoreEvaluator("rouge7"), "rouge_type", "ROUGE1")
    _raises(TypeError, lambda: evaluator.RougeScoreEvaluator(None), "rouge_type", "NoneType")
    _raises(ValueError, lambda: evaluator.RougeScoreEvaluator("rouge1", "xx"), "measure")
    _raises(TypeError, lambda: evaluator.RougeScoreEvaluator("rouge1", 1), "measure", "int")
    _raises(ValueError, lambda: evaluator.RougeScoreEvaluator(tokenizer="nope"), "nope")
    _raises(TypeError, lambda: evaluator.RougeScoreEvaluator(tokenizer=1), "tokenizer")
    ev = evaluator.RougeScoreEvaluator()
    _raises(KeyError, lambda: ev.evaluate({}), "answer")
    _raises(TypeError, lambda: ev.evaluate({"answer": 1, "groundTruth": "a"}), "answer", "int")
    _raises(TypeError, lambda: ev.evaluate({"answer": "a", "groundTruth": None}),
            "groundTruth", "NoneType")


def test_evaluate_none_sample():
    _raises(TypeError, lambda: evaluator.RougeScoreEvaluator().evaluate(None), "NoneType")


# --- corpus -------------------------------------------------------------------

def test_corpus_arguments():
    sc = corpus.score_corpus
    for ci in (2, -1, 1.0001, float("nan")):
        _raises(ValueError, lambda: sc(["a"], ["a"], confidence=ci), "confidence", "[0, 1]")
    _raises(TypeError, lambda: sc(["a"], ["a"], confidence="x"), "confidence", "str")
    _raises(ValueError, lambda: sc(["a"], ["a", "b"]), "1", "2")
    _raises(ValueError, lambda: sc([], []), "candidates")
    _raises(ValueError, lambda: sc(["a"], [[]]), "references[0]")
    _raises(TypeError, lambda: sc("a", ["a"]), "candidates", "str")
    _raises(TypeError, lambda: sc(["a"], "a"), "references", "str")
    _raises(TypeError, lambda: sc([None], ["a"]), "candidates[0]", "NoneType")
    _raises(TypeError, lambda: sc(["a"], [None]), "references[0]", "NoneType")
    _raises(TypeError, lambda: sc(["a"], [["a", 1]]), "references[0][1]", "int")
    _raises(ValueError, lambda: sc(["a"], ["a"], rouge_types=["rouge0"]), "rouge0")
    _raises(ValueError, lambda: sc(["a"], ["a"], rouge_types=[]), "rouge_types")
    # rouge_types=None is the default (rougekit.DEFAULT_ROUGE_TYPES)
    assert list(sc(["a"], ["a"], rouge_types=None).scores) == ["rouge1", "rouge2", "rougeL",
                                                               "rougeLsum"]
    _raises(ValueError, lambda: sc(["a"], ["a"], multi_ref="x"), "max")
    _raises(TypeError, lambda: sc(["a"], ["a"], multi_ref=None), "multi_ref", "NoneType")
    _raises(ValueError, lambda: sc(["a"], ["a"], bootstrap=-1), "bootstrap")
    _raises(TypeError, lambda: sc(["a"], ["a"], bootstrap=1.5), "bootstrap", "float")
    _raises(ValueError, lambda: sc(["a"], ["a"], seed=-1), "seed")
    _raises(ValueError, lambda: sc(["a"], ["a"], tokenizer="nope"), "nope")
    _raises(ValueError, lambda: sc(["a"], ["a"], threads=0), "threads")


@pytest.mark.parametrize("bad", [None, 5])
def test_corpus_not_iterable_names_argument(bad):
    _raises(TypeError, lambda: corpus.score_corpus(bad, ["a"]), "candidates")
    _raises(TypeError, lambda: corpus.score_corpus(["a"], bad), "references")


def test_corpus_rouge_type_not_str():
    _raises(TypeError, lambda: corpus.score_corpus(["a"], ["a"], rouge_types=[1]), "int")


@pytest.mark.parametrize("threads, exc", [(0, ValueError), ("x", TypeError)])
def test_corpus_threads_checked_on_every_path(threads, exc):
    _raises(exc, lambda: corpus.score_corpus(["a"], ["a"], multi_ref="pooled",
                                             threads=threads), "threads")


# --- tokenizers ---------------------------------------------------------------

@pytest.mark.parametrize("bad", [None, 1, ["a"]], ids=lambda b: type(b).__name__)
def test_tokenizers_wrong_type(bad):
    name = type(bad).__name__
    _raises(TypeError, lambda: tokenize.tokenize(bad, None), name)
    _raises(TypeError, lambda: tokenizers.DefaultTokenizer().tokenize(bad), name)
    _raises(TypeError, lambda: tokenizers.DefaultTokenizer(True).tokenize(bad), name)
    _raises(TypeError, lambda: word_tokenizers.get_tokenizer(bad), "tokenizer")
    _raises(ValueError, lambda: word_tokenizers.get_tokenizer("nope"), "nope")
