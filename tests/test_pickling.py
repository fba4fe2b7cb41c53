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
import pickletools
from concurrent.futures import ProcessPoolExecutor
from unittest import mock

import pytest
from rouge_score import rouge_scorer as ref_rouge_scorer

from _helpers import assert_same_scores
from rougekit import _backend, porter, rouge_scorer, scoring, tokenizers, word_tokenizers

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


# --- pickles made before the kernels took the design card's names ------------
# Made by the installed build of main before the rename (kernels named
# rougekit._core.porter_c / porter_py) with
#     objs = {"scorer": rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True),
#             "tokenizer": tokenizers.DefaultTokenizer(use_stemmer=True),
#             "named": word_tokenizers.get_tokenizer("rouge-score+porter"),
#             "porter": porter.PorterStemmer()}
#     base64.b64encode(pickle.dumps(objs, protocol=P))
# on the compiled backend with protocol 4 (their stem caches name
# rougekit._core.porter_c.StemCache) and on the pure one with protocol 2
# (rougekit._core.porter_py.StemCache; both name rougekit._core.porter_py.PorterStemmer).
OLD_PICKLES = {
    "compiled, protocol 4": (
    "gASV2gIAAAAAAAB9lCiMBnNjb3JlcpSMFXJvdWdla2l0LnJvdWdlX3Njb3JlcpSMC1JvdWdlU2NvcmVylJOUKYGU"
    "fZQojAtyb3VnZV90eXBlc5RdlCiMBnJvdWdlMZSMCXJvdWdlTHN1bZRljAZfdHlwZXOUXZQoaAlLAYaUaApK/v//"
    "/4aUZYwLX3R5cGVfZXJyb3KUTowPX3NlbnRlbmNlX3NwbGl0lIwHbmV3bGluZZSMCl90b2tlbml6ZXKUjBNyb3Vn"
    "ZWtpdC50b2tlbml6ZXJzlIwQRGVmYXVsdFRva2VuaXplcpSTlCmBlH2UKIwIX3N0ZW1tZXKUjBdyb3VnZWtpdC5f"
    "Y29yZS5wb3J0ZXJfY5SMCVN0ZW1DYWNoZZSTlClSlIwIX2xldHRlcnOUjBFyb3VnZWtpdC5fbGV0dGVyc5SMC0xl"
    "dHRlckNoZWNrlJOUKYGUTn2UjARkb25llIlzhpRidWKMEF9zcGxpdF9zdW1tYXJpZXOUiYwKX2xzdW1fb25seZSJ"
    "jAlfaGFzX2xzdW2UiIwPX2xpbmVzX3RvX2NoZWNrlE3oA4wFX2tleXOUXZQoaAloCmWMBl9raW5kc5RdlChLAUr+"
    "////ZYwNX2xldHRlcl9jaGVja5RoIYwMX3VzZV9zdGVtbWVylIh1YowJdG9rZW5pemVylGgVKYGUfZQoaBhoGylS"
    "lGgdaCApgZROfZRoI4lzhpRidWKMBW5hbWVklIwYcm91Z2VraXQud29yZF90b2tlbml6ZXJzlIwTUm91Z2VTY29y"
    "ZVRva2VuaXplcpSTlCmBlH2UKGgYaBspUpRoHWggKYGUTn2UaCOJc4aUYowLdXNlX3N0ZW1tZXKUiIwEbmFtZZSM"
    "EnJvdWdlLXNjb3JlK3BvcnRlcpR1YowGcG9ydGVylIwYcm91Z2VraXQuX2NvcmUucG9ydGVyX3B5lIwNUG9ydGVy"
    "U3RlbW1lcpSTlCmBlHUu"),
    "pure, protocol 2": (
    "gAJ9cQAoWAYAAABzY29yZXJxAWNyb3VnZWtpdC5yb3VnZV9zY29yZXIKUm91Z2VTY29yZXIKcQIpgXEDfXEEKFgL"
    "AAAAcm91Z2VfdHlwZXNxBV1xBihYBgAAAHJvdWdlMXEHWAkAAAByb3VnZUxzdW1xCGVYBgAAAF90eXBlc3EJXXEK"
    "KGgHSwGGcQtoCEr+////hnEMZVgLAAAAX3R5cGVfZXJyb3JxDU5YDwAAAF9zZW50ZW5jZV9zcGxpdHEOWAcAAABu"
    "ZXdsaW5lcQ9YCgAAAF90b2tlbml6ZXJxEGNyb3VnZWtpdC50b2tlbml6ZXJzCkRlZmF1bHRUb2tlbml6ZXIKcREp"
    "gXESfXETKFgIAAAAX3N0ZW1tZXJxFGNyb3VnZWtpdC5fY29yZS5wb3J0ZXJfcHkKU3RlbUNhY2hlCnEVKVJxFlgI"
    "AAAAX2xldHRlcnNxF2Nyb3VnZWtpdC5fbGV0dGVycwpMZXR0ZXJDaGVjawpxGCmBcRlOfXEaWAQAAABkb25lcRuJ"
    "c4ZxHGJ1YlgQAAAAX3NwbGl0X3N1bW1hcmllc3EdiVgKAAAAX2xzdW1fb25seXEeiVgJAAAAX2hhc19sc3VtcR+I"
    "WA8AAABfbGluZXNfdG9fY2hlY2txIE3oA1gFAAAAX2tleXNxIV1xIihoB2gIZVgGAAAAX2tpbmRzcSNdcSQoSwFK"
    "/v///2VYDQAAAF9sZXR0ZXJfY2hlY2txJWgZWAwAAABfdXNlX3N0ZW1tZXJxJoh1YlgJAAAAdG9rZW5pemVycSdo"
    "ESmBcSh9cSkoaBRoFSlScSpoF2gYKYFxK059cSxoG4lzhnEtYnViWAUAAABuYW1lZHEuY3JvdWdla2l0LndvcmRf"
    "dG9rZW5pemVycwpSb3VnZVNjb3JlVG9rZW5pemVyCnEvKYFxMH1xMShoFGgVKVJxMmgXaBgpgXEzTn1xNGgbiXOG"
    "cTViWAsAAAB1c2Vfc3RlbW1lcnE2iFgEAAAAbmFtZXE3WBIAAAByb3VnZS1zY29yZStwb3J0ZXJxOHViWAYAAABw"
    "b3J0ZXJxOWNyb3VnZWtpdC5fY29yZS5wb3J0ZXJfcHkKUG9ydGVyU3RlbW1lcgpxOimBcTt1Lg=="),
}


@pytest.mark.backend
@pytest.mark.parametrize("made_by", sorted(OLD_PICKLES))
def test_pickles_made_before_the_rename_load(made_by):
    objs = pickle.loads(base64.b64decode(OLD_PICKLES[made_by]))
    scorer, tokenizer, named = objs["scorer"], objs["tokenizer"], objs["named"]
    # The stem caches load as the kernel of the backend in use, whichever
    # backend made them, so the scorer keeps the engine.
    for stemming in (scorer._tokenizer, tokenizer, named):
        assert type(stemming._stemmer) is _backend.porter.StemCache
    assert type(objs["porter"]) is porter.PorterStemmer
    assert scorer._pairs.engine is not None
    ref = ref_rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    for text in POOL:
        assert_same_scores(scorer.score(INSTRUCTION, text), ref.score(INSTRUCTION, text))
    assert tokenizer.tokenize("Running cats") == named.tokenize("Running cats") == ["run", "cat"]
    assert objs["porter"].stem("Generalizations") == "gener"


def _modules_named(data):
    names, strings = set(), []
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("GLOBAL", "INST"):
            names.add(arg.split(" ")[0])
        elif op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            strings.append(arg)
        elif op.name == "STACK_GLOBAL":
            names.add(strings[-2])
    return names


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_pickles_name_no_kernel_module(protocol):
    # What a user pickles names public modules (and rougekit._letters), never
    # a kernel of rougekit._core, whose layout may change.
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    scorer.score(INSTRUCTION, POOL[0])
    objs = [scorer, scorer.score, tokenizers.DefaultTokenizer(use_stemmer=True),
            word_tokenizers.get_tokenizer("rouge-score+porter"), porter.PorterStemmer(),
            _backend.porter.StemCache(), scorer.score(INSTRUCTION, POOL[0])]
    for obj in objs:
        named = _modules_named(pickle.dumps(obj, protocol=protocol))
        assert not {m for m in named if m.startswith("rougekit._core")}, (obj, named)
        assert type(pickle.loads(pickle.dumps(obj, protocol=protocol))) is type(obj)
