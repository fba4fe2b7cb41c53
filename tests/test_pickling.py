"""``scorer.score`` and ``score_multi`` travel to other processes as rouge-score's do.

Real code sends bound methods of a scorer to worker processes
(``Pool.map(partial(scorer.score, inst), texts)`` in Self-Instruct,
``ProcessPoolExecutor.map``, ``joblib.Parallel``), and downstream tests patch
``RougeScorer.score`` on the class. Each result is compared with rouge-score's
with ``==``; the workers inherit the backend under test.
"""
import base64
import functools
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from unittest import mock

import pytest
from rouge_score import rouge_scorer as ref_rouge_scorer

from _helpers import assert_same_scores
from rougekit import rouge_scorer, scoring

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
INSTRUCTION = "Write a short poem about the sea.\nKeep it under ten lines."
POOL = ["Write a poem about the ocean.", "Summarize the article in two sentences.",
        "write a SHORT poem about the sea", "", "List five fruits.\nSort them.",
        "Écris un poème sur la mer."]


def _expected(use_stemmer):
    ref = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    return [ref.score(INSTRUCTION, text) for text in POOL]


def _check(results, use_stemmer):
    expected = _expected(use_stemmer)
    assert len(results) == len(expected)
    for got, want in zip(results, expected):
        assert_same_scores(got, want)


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_bound_methods_pickle(use_stemmer):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    scorer.score("warm", "the cache")
    score = pickle.loads(pickle.dumps(scorer.score))
    _check([score(INSTRUCTION, t) for t in POOL], use_stemmer)
    multi = pickle.loads(pickle.dumps(scorer.score_multi))
    ref = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    assert_same_scores(multi(POOL, INSTRUCTION), ref.score_multi(POOL, INSTRUCTION))
    partial = pickle.loads(pickle.dumps(functools.partial(scorer.score, INSTRUCTION)))
    _check([partial(t) for t in POOL], use_stemmer)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_multiprocessing_pool_with_partial(start_method):
    # Self-Instruct: Pool(n).map(partial(scorer.score, inst), pool_of_texts)
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    context = multiprocessing.get_context(start_method)
    with context.Pool(2) as pool:
        results = pool.map(functools.partial(scorer.score, INSTRUCTION), POOL)
    _check(results, True)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_process_pool_executor_map(start_method):
    scorer = rouge_scorer.RougeScorer(TYPES)
    context = multiprocessing.get_context(start_method)
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        results = list(pool.map(scorer.score, [INSTRUCTION] * len(POOL), POOL))
    _check(results, False)


def test_alpaca_style_private_helper_in_a_pool():
    # Alpaca: Pool(n).map(partial(rouge_scorer._score_lcs, new_tokens), all_tokens)
    tokenize = rouge_scorer.RougeScorer(["rougeL"])._tokenizer.tokenize
    new_tokens = tokenize(INSTRUCTION)
    all_tokens = [tokenize(t) for t in POOL]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(functools.partial(rouge_scorer._score_lcs, new_tokens), all_tokens)
    expected = [ref_rouge_scorer._score_lcs(new_tokens, t) for t in all_tokens]
    for got, want in zip(results, expected):
        assert_same_scores({"rougeL": got}, {"rougeL": want})


def test_joblib_parallel():
    joblib = pytest.importorskip("joblib")
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    results = joblib.Parallel(n_jobs=2)(joblib.delayed(scorer.score)(INSTRUCTION, t)
                                        for t in POOL)
    _check(results, True)


def test_cloudpickle():
    cloudpickle = pytest.importorskip("cloudpickle")
    scorer = rouge_scorer.RougeScorer(TYPES)
    score = pickle.loads(cloudpickle.dumps(scorer.score))
    _check([score(INSTRUCTION, t) for t in POOL], False)
    lam = pickle.loads(cloudpickle.dumps(lambda t: scorer.score(INSTRUCTION, t)))
    _check([lam(t) for t in POOL], False)


def test_patching_score_on_the_class_reaches_existing_scorers():
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    sentinel = {"rouge1": scoring.Score(0.25, 0.25, 0.25)}
    with mock.patch.object(rouge_scorer.RougeScorer, "score", return_value=sentinel) as patched:
        assert scorer.score("a", "b") is sentinel
        assert scorer.score_multi(["a", "c"], "b") == sentinel
    assert patched.call_count == 3
    assert scorer.score("a", "a")["rouge1"].fmeasure == 1.0


def test_score_is_not_an_instance_attribute():
    # What made the bound method unpicklable before: an engine method stored
    # on the instance.
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    assert "score" not in vars(scorer)
    assert scorer.score.__func__ is rouge_scorer.RougeScorer.score


# A RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True) pickled (protocol 2,
# after one score() call) by rougekit before its scoring moved to
# rougekit._pipeline: pickles keep loading across versions.
_PICKLED_BEFORE_THE_PIPELINE = base64.b64decode(
    "gAJjcm91Z2VraXQucm91Z2Vfc2NvcmVyClJvdWdlU2NvcmVyCnEAKYFxAX1xAihYCwAAAHJvdWdlX3R5cGVzcQNd"
    "cQQoWAYAAAByb3VnZTFxBVgJAAAAcm91Z2VMc3VtcQZlWAYAAABfdHlwZXNxB11xCChoBUsBhnEJaAZK/v///4Zx"
    "CmVYCwAAAF90eXBlX2Vycm9ycQtOWA8AAABfc2VudGVuY2Vfc3BsaXRxDFgHAAAAbmV3bGluZXENWAoAAABfdG9r"
    "ZW5pemVycQ5jcm91Z2VraXQudG9rZW5pemVycwpEZWZhdWx0VG9rZW5pemVyCnEPKYFxEH1xEShYCAAAAF9zdGVt"
    "bWVycRJjcm91Z2VraXQuX2NvcmUucG9ydGVyX2MKU3RlbUNhY2hlCnETKVJxFFgIAAAAX2xldHRlcnNxFWNyb3Vn"
    "ZWtpdC5fbGV0dGVycwpMZXR0ZXJDaGVjawpxFimBcRdOfXEYWAQAAABkb25lcRmJc4ZxGmJ1YlgQAAAAX3NwbGl0"
    "X3N1bW1hcmllc3EbiVgKAAAAX2xzdW1fb25seXEciVgJAAAAX2hhc19sc3VtcR2IWA8AAABfbGluZXNfdG9fY2hl"
    "Y2txHk3mA1gFAAAAX2tleXNxH11xIChoBWgGZVgGAAAAX2tpbmRzcSFdcSIoSwFK/v///2VYDQAAAF9sZXR0ZXJf"
    "Y2hlY2txI2gXWAwAAABfdXNlX3N0ZW1tZXJxJIh1Yi4=")


def test_scorer_pickled_by_an_earlier_version_loads():
    scorer = pickle.loads(_PICKLED_BEFORE_THE_PIPELINE)
    ref = ref_rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    for target, prediction in [("running dogs", "the dog runs"), ("a b\nc", "c\na b")]:
        assert scorer.score(target, prediction) == ref.score(target, prediction)
    # What this version pickles holds what the earlier versions' __setstate__
    # and score() read, so they load its pickles too.
    assert set(scorer.__getstate__()) >= {
        "rouge_types", "_tokenizer", "_split_summaries", "_types", "_type_error",
        "_sentence_split", "_lsum_only", "_has_lsum", "_lines_to_check"}
