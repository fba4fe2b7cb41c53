"""deduplicate makes exactly the decisions of the Self-Instruct / Alpaca loop
over rouge-score: corpus sentences and near-duplicates, empty and
punctuation-only texts, long texts; rougeL, rouge1, rouge2; stemming on and
off; thresholds that are exact F values of pairs (ties with <=) and the
floats next to them; ``against``; custom tokenizers; threads. The compiled
Dedup kernel against its pure twin, block by block."""
import importlib
import math
import os
import types

import numpy as np
import pytest
from rouge_score import rouge_scorer as ref

from _helpers import EDGE_TEXTS, corpus_sentences, near_duplicate_texts, sweep
from rougekit import ScoringOptions, deduplicate
from rougekit._core import _dedup_filter_py, _text_index_py
from rougekit.index import _run_dedup

pytestmark = [pytest.mark.backend, pytest.mark.kernel, pytest.mark.threads]


class AlpacaLoop:
    """Alpaca's filter: texts tokenized once by rouge-score's tokenizer, a
    new text scored against each kept one (and each of ``against``) with
    rouge-score's ``_score_lcs`` (or ``_score_ngrams``), new text as the
    target; kept when no F exceeds the threshold. F of a pair is memoized,
    so many thresholds cost one pass of rouge-score."""

    def __init__(self, texts, against, rouge_type, use_stemmer, tokenizer=None):
        scorer = ref.RougeScorer([rouge_type], use_stemmer=use_stemmer, tokenizer=tokenizer)
        self.tokens = [scorer._tokenizer.tokenize(t) for t in list(against) + list(texts)]
        self.first = len(against)
        self.n = None if rouge_type == "rougeL" else int(rouge_type[5:])
        if self.n:
            self.grams = [ref._create_ngrams(t, self.n) for t in self.tokens]
        self.memo = {}
        self.ties = 0

    def f(self, new, old):
        key = (new, old)
        if key not in self.memo:
            if self.n is None:
                score = ref._score_lcs(self.tokens[new], self.tokens[old])
            else:
                score = ref._score_ngrams(self.grams[new], self.grams[old])
            self.memo[key] = score.fmeasure
        return self.memo[key]

    def kept(self, threshold):
        pool, kept = list(range(self.first)), []
        for i in range(self.first, len(self.tokens)):
            scores = [self.f(i, p) for p in pool]
            self.ties += sum(s == threshold for s in scores)
            if not scores or max(scores) <= threshold:
                kept.append(i - self.first)
                pool.append(i)
        return kept


def self_instruct_loop(texts, against, threshold, rouge_type="rougeL", use_stemmer=False):
    """Self-Instruct's filter: ``scorer.score(new, existing)`` on raw texts."""
    scorer = ref.RougeScorer([rouge_type], use_stemmer=use_stemmer)
    pool, kept = list(against), []
    for i, t in enumerate(texts):
        scores = [scorer.score(t, p)[rouge_type].fmeasure for p in pool]
        if not scores or max(scores) <= threshold:
            kept.append(i)
            pool.append(t)
    return kept


@pytest.fixture(scope="module")
def sentences(corpus_pairs):
    return corpus_sentences(corpus_pairs(80, 21))


@pytest.fixture(scope="module")
def data(sentences):
    """(texts, against): near-duplicates with edge texts, long texts of 100
    to 200 tokens and edited copies of them; a pool of 25 texts."""
    # 200 near-duplicates (80 under the sanitizers, where rouge-score's loop,
    # not the kernel, took most of a minute of the step).
    n = sweep(200, 200, sanitized=80)
    texts = near_duplicate_texts(sentences, n, seed=5)
    long = [" ".join(sentences[i:i + 7]) for i in range(0, 21, 7)]
    long_copies = [t.replace(" the ", " a ", 3) for t in long]
    texts = texts[:n // 2] + long + texts[n // 2:] + long_copies + EDGE_TEXTS
    against = near_duplicate_texts(sentences[::-1], 25, seed=6)
    return texts, against


def exact_thresholds(loop, limit=60):
    """F values that pairs really have, and the floats on either side."""
    values = sorted({loop.f(i, j) for i in range(loop.first, loop.first + limit)
                     for j in range(i) if 0 < loop.f(i, j) < 1})
    picks = [values[k * (len(values) - 1) // 4] for k in range(5)]
    out = []
    for v in picks:
        out += [v, math.nextafter(v, 0.0), math.nextafter(v, 1.0)]
    return out


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge1", "rouge2"])
def test_equal_to_the_alpaca_loop(data, rouge_type, stem):
    texts, against = data
    for pool in ([], against):
        loop = AlpacaLoop(texts, pool, rouge_type, stem)
        thresholds = [0.0, 0.25, 0.5, 0.7, 0.9, 1.0] + exact_thresholds(loop)
        for thr in thresholds:
            got = deduplicate(texts, thr, rouge_type, against=pool, use_stemmer=stem)
            assert got == loop.kept(thr), f"threshold {thr!r}, against {len(pool)} texts"
        # Not a vacuous test: some decisions met a pair whose F is exactly
        # the threshold (kept, as <= keeps it).
        assert loop.ties > 0


def test_equal_to_the_self_instruct_loop(data):
    texts, against = data
    raw = [t.encode("utf-8") for t in texts[:70]]
    for thr in (0.5, 0.7):
        assert deduplicate(texts[:90], thr, against=against[:10]) == \
            self_instruct_loop(texts[:90], against[:10], thr)
        assert deduplicate(raw, thr) == self_instruct_loop(raw, [], thr)


class Whitespace:
    def tokenize(self, text):
        return text.split()


def test_custom_tokenizer(data):
    texts, against = data
    tok = Whitespace()
    loop = AlpacaLoop(texts, against, "rougeL", False, tokenizer=tok)
    for thr in (0.3, 0.7):
        assert deduplicate(texts, thr, against=against, tokenizer=tok) == loop.kept(thr)


@pytest.mark.parametrize("threads", [1, 2, 5])
def test_threads_do_not_change_decisions(sentences, threads):
    texts = near_duplicate_texts(sentences, 4000, seed=8)
    want = deduplicate(texts, 0.7, threads=1)
    assert deduplicate(texts, 0.7, threads=threads) == want
    assert len(want) < len(texts)


@pytest.mark.parametrize("threads", [1, 3])
def test_worker_threads_give_the_same_decisions(sentences, monkeypatch, threads):
    """Small input runs on the calling thread; larger input (here: made to
    look larger) tokenizes in short kernel calls, and probes and commits its
    blocks, on the worker threads: the same decisions."""
    import rougekit.index as index_module
    texts = near_duplicate_texts(sentences, 3000, seed=9)
    want = deduplicate(texts[500:], 0.7, against=texts[:500], threads=1)
    monkeypatch.setattr(index_module, "_ADD_BUDGET", 5000)
    assert deduplicate(texts[500:], 0.7, against=texts[:500], threads=threads) == want
    assert len(want) < len(texts) - 500


def test_sparse_masks_path(data):
    _text_index = pytest.importorskip("rougekit._core._text_index")
    _dedup_filter = pytest.importorskip("rougekit._core._dedup_filter")
    texts, against = data
    loop = AlpacaLoop(texts, against, "rougeL", False)
    old = _text_index._set_mask_budget(0)
    try:
        kernel = _text_index.TextIndex(-1, False, True)
        kernel.add_texts(against + texts)
        assert _blocks(_dedup_filter, kernel, len(against), 0.5, 1, 64) == loop.kept(0.5)
    finally:
        _text_index._set_mask_budget(old)


def test_thresholds_at_the_ends_of_zero_one(data):
    texts, against = data
    assert deduplicate(texts, 1.0) == list(range(len(texts)))
    assert deduplicate(texts, 1, against=against) == list(range(len(texts)))
    assert deduplicate([], 0.7) == []
    assert deduplicate(["", "", "!!"], 0.0) == [0, 1, 2]   # F of empty texts is 0
    assert deduplicate(["a", "a"], 0) == [0]               # an int threshold
    assert deduplicate(["a b", "c d", "a d"], 0.0) == [0, 1]


@pytest.mark.parametrize("threshold", [1.5, 7, 70, 1 + 2 ** -52, -0.5, -1e-300, math.inf,
                                       -math.inf])
def test_thresholds_outside_zero_one_are_refused(data, threshold):
    # No F lies outside [0, 1]: 70 (meant as 70%) kept every text, -0.5 one.
    texts, against = data
    with pytest.raises(ValueError, match=r"threshold must be in \[0, 1\]"):
        deduplicate(texts, threshold)
    with pytest.raises(ValueError, match=r"threshold must be in \[0, 1\]"):
        deduplicate(texts, threshold, against=against)


def test_errors():
    with pytest.raises(ValueError, match="threshold must be a number, not NaN"):
        deduplicate(["a"], math.nan)
    with pytest.raises(TypeError, match="threshold must be a number, not str"):
        deduplicate(["a"], "0.7")
    with pytest.raises(TypeError, match="threshold must be a number, not bool"):
        deduplicate(["a"], True)
    with pytest.raises(TypeError, match="texts must be a list of texts, not a single str"):
        deduplicate("abc")
    with pytest.raises(TypeError, match=r"texts\[1\] must be str or bytes, not NoneType"):
        deduplicate(["a", None])
    with pytest.raises(TypeError, match=r"against\[0\] must be str or bytes, not int"):
        deduplicate(["a"], against=[3])
    with pytest.raises(ValueError, match="rougeLsum"):
        deduplicate(["a"], rouge_type="rougeLsum")
    with pytest.raises(TypeError, match="progress must be True, False or None"):
        deduplicate(["a"], progress="yes")
    with pytest.raises(ValueError, match="threads must be >= 1"):
        deduplicate(["a"], threads=0)


def test_progress_line(capsys, sentences):
    texts = near_duplicate_texts(sentences, 300, seed=2)
    deduplicate(texts, progress=True)
    err = capsys.readouterr().err
    assert "deduplicate" in err and "kept" in err and "300/300 texts" in err
    assert err.endswith("\r\033[K")              # erased at the end
    deduplicate(texts, progress=False)
    deduplicate(texts)                           # stderr is not a terminal here
    assert capsys.readouterr().err == ""


def test_most_pairs_are_never_scored(sentences):
    texts = near_duplicate_texts(sentences, 3000, seed=4)
    kept, stats = _run_dedup(texts, 0.7, ScoringOptions(rouge_types=["rougeL"]), threads=1,
                             progress=False)
    pairs = sum(range(len(kept))) + (len(texts) - len(kept)) * len(kept)  # at least
    assert stats["verified"] <= stats["candidates"] <= stats["met"]
    assert stats["candidates"] < pairs / 50


# --- the kernels directly: compiled against pure, block by block -----------------

def _kernels():
    """The text index and de-duplication kernels, pure then compiled: each
    a namespace with TextIndex and Dedup."""
    kernels = [types.SimpleNamespace(TextIndex=_text_index_py.TextIndex,
                                     Dedup=_dedup_filter_py.Dedup)]
    try:
        text_index = importlib.import_module("rougekit._core._text_index")
        dedup_filter = importlib.import_module("rougekit._core._dedup_filter")
    except ImportError as exc:
        if os.environ.get("ROUGEKIT_REQUIRE_EXTENSIONS", "") not in ("", "0"):
            pytest.fail(f"compiled core required but not importable: {exc}")
    else:
        kernels.append(types.SimpleNamespace(TextIndex=text_index.TextIndex,
                                             Dedup=dedup_filter.Dedup))
    return kernels


def _blocks(mod, kernel, first, threshold, parts, block, stats=None):
    """The filter run with a fixed block size, parts probed in turn."""
    dedup = mod.Dedup(kernel, first, threshold, parts)
    flags = np.zeros(len(kernel), np.uint8)
    for lo in range(first, len(kernel), block):
        hi = min(lo + block, len(kernel))
        for part in reversed(range(parts)):
            dedup.probe(lo, hi, part, flags)
        dedup.commit(lo, hi, flags)
    if stats is not None:
        stats.append(dedup.stats())
    dedup.close()
    return [i - first for i in range(first, len(kernel)) if not flags[i]]


@pytest.mark.parametrize("kind", [-1, 1, 3])
def test_kernel_twins_agree(data, kind):
    mods = _kernels()
    if len(mods) < 2:
        pytest.skip("compiled core not built")
    texts, against = data
    for thr, parts, block in [(0.7, 1, 1), (0.5, 2, 7), (0.3, 3, 1000), (0.0, 2, 50)]:
        results, stats = [], []
        for mod in mods:
            kernel = mod.TextIndex(kind, False, True)
            kernel.add_texts(against + texts)
            results.append(_blocks(mod, kernel, len(against), thr, parts, block, stats))
        assert results[0] == results[1]
        assert stats[0] == stats[1]
    rt = "rougeL" if kind == -1 else f"rouge{kind}"
    assert results[0] == AlpacaLoop(texts, against, rt, False).kept(0.0)


def test_kernel_block_contract():
    for mod in _kernels():
        kernel = mod.TextIndex(-1, False, True)
        kernel.add_texts(["a b", "a b", "c"])
        with pytest.raises(ValueError, match="threshold must be >= 0"):
            mod.Dedup(kernel, 0, -0.1, 1)
        with pytest.raises(ValueError):
            mod.Dedup(kernel, 4, 0.5, 1)
        dedup = mod.Dedup(kernel, 1, 0.5, 2)
        flags = np.zeros(3, np.uint8)
        with pytest.raises(ValueError):
            dedup.probe(0, 2, 0, flags)           # before first
        with pytest.raises(ValueError, match="part must be in"):
            dedup.probe(1, 3, 2, flags)
        with pytest.raises(ValueError, match="flags has 2 items"):
            dedup.probe(1, 3, 0, np.zeros(2, np.uint8))
        dedup.probe(1, 1, 0, flags)               # an empty block
        assert dedup.commit(1, 1, flags) == 0
        dedup.probe(1, 3, 0, flags)
        dedup.probe(1, 3, 1, flags)
        assert dedup.commit(1, 3, flags) == 1
        assert flags.tolist()[1:] == [1, 0]
        dedup.close()
