"""RougeIndex: every F equals rouge-score's for the pair (query as target,
stored text as prediction), on corpus sentences, near-duplicates, long texts
and edge texts; rougeL, rouge1, rouge2; stemming on and off; bytes; custom
tokenizers; top_k/max order; threads; errors; pickles (what the index
stores, loaded by either backend, checked on load). Also the kernels
directly: the compiled TextIndex against its pure twin."""
import importlib
import os
import pickle
import pickletools
import threading
import types

import numpy as np
import pytest
from rouge_score import rouge_scorer as ref

import rougekit
from _helpers import EDGE_TEXTS, corpus_sentences, near_duplicate_texts, sweep
from rougekit import RougeIndex
from rougekit._core import _dedup_filter_py, _text_index_py

pytestmark = [pytest.mark.backend, pytest.mark.kernel, pytest.mark.threads]

TYPES = ["rougeL", "rouge1", "rouge2"]


@pytest.fixture(scope="module")
def sentences(corpus_pairs):
    return corpus_sentences(corpus_pairs(60, 7))


@pytest.fixture(scope="module")
def texts(sentences):
    """Short near-duplicates, texts of 100 to 200 tokens (more than one
    64-bit word of LCS bits), texts with newlines, and edge texts."""
    short = near_duplicate_texts(sentences, 150, seed=3)
    long = [" ".join(sentences[i:i + 8]) for i in range(0, 48, 8)]
    multi = ["\n".join(sentences[i:i + 3]) for i in range(100, 112, 3)]
    return short + long + multi + EDGE_TEXTS


def queries(texts):
    edited = [t.replace("the", "a").upper() for t in texts[1:60:11]]
    return (texts[::sweep(13, 13, sanitized=39)] + edited + EDGE_TEXTS[:4]
            + ["the", "The cat sat on the mat."])


def reference_f(rouge_type, use_stemmer, query, texts, tokenizer=None):
    scorer = ref.RougeScorer([rouge_type], use_stemmer=use_stemmer, tokenizer=tokenizer)
    return [scorer.score(query, t)[rouge_type].fmeasure for t in texts]


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("rouge_type", TYPES)
def test_scores_equal_rouge_score(texts, rouge_type, stem):
    index = RougeIndex(texts, rouge_type=rouge_type, use_stemmer=stem)
    assert len(index) == len(texts)
    for q in queries(texts):
        got = index.scores(q)
        assert isinstance(got, np.ndarray) and got.dtype == np.float64
        want = reference_f(rouge_type, stem, q, texts)
        assert got.tolist() == want, f"query {q!r}"


@pytest.mark.parametrize("rouge_type", ["rouge3", "rouge9"])
def test_scores_higher_n(texts, rouge_type):
    index = RougeIndex(texts, rouge_type=rouge_type)
    for q in queries(texts)[:12]:
        assert index.scores(q).tolist() == reference_f(rouge_type, False, q, texts)


def test_added_one_by_one_equals_built_at_once(texts):
    whole = RougeIndex(texts, use_stemmer=True)
    grown = RougeIndex(use_stemmer=True)
    for i, t in enumerate(texts):
        assert grown.add(t) == i
        if i % 40 == 0:   # queries in between: the vocabulary grows meanwhile
            assert grown.scores(t).tolist() == whole.scores(t)[:i + 1].tolist()
    for q in queries(texts):
        assert grown.scores(q).tolist() == whole.scores(q).tolist()


def test_top_k_and_max_order(texts):
    index = RougeIndex(texts)
    for q in queries(texts):
        f = reference_f("rougeL", False, q, texts)
        order = sorted(range(len(texts)), key=lambda i: (-f[i], i))
        for k in (0, 1, 3, 17, len(texts), len(texts) + 5):
            assert index.top_k(q, k) == [(i, f[i]) for i in order[:k]]
        best = index.max(q)
        assert best == (order[0], f[order[0]])
        assert type(best[0]) is int and type(best[1]) is float


def test_top_k_many_ties():
    index = RougeIndex(["a b", "c d", "a b", "e", "a b", "c d"] * 3)
    f = index.scores("a b").tolist()
    order = sorted(range(len(f)), key=lambda i: (-f[i], i))
    for k in range(len(f) + 1):
        assert index.top_k("a b", k) == [(i, f[i]) for i in order[:k]]


def test_bytes_texts_and_queries():
    texts = ["The Cat sat.", "İstanbul kelvin", "caf\u00e9 au lait", "", "running dogs"]
    raw = [t.encode("utf-8") for t in texts]
    for stem in (False, True):
        index = RougeIndex(raw, use_stemmer=stem)
        for q in raw + [b"the cat", "İSTANBUL \u212aELVIN".encode()]:
            assert index.scores(q).tolist() == reference_f("rougeL", stem, q, raw)
        # str and bytes of the same text need not tokenize alike (bytes are
        # lowercased ASCII-only, as in rouge-score):
        mixed = RougeIndex(texts + raw, use_stemmer=stem)
        q = "İstanbul the cat"
        assert mixed.scores(q).tolist() == reference_f("rougeL", stem, q, texts + raw)


class Whitespace:
    """Case-sensitive tokens split on whitespace, punctuation kept."""

    def tokenize(self, text):
        return text.split()


class WordLengths:
    """Hashable non-str tokens: the length of each word."""

    def tokenize(self, text):
        return [len(w) for w in text.split()]


@pytest.mark.parametrize("tokenizer", [Whitespace(), WordLengths()], ids=["words", "ints"])
@pytest.mark.parametrize("rouge_type", ["rougeL", "rouge2"])
def test_custom_tokenizer(texts, tokenizer, rouge_type):
    index = RougeIndex(texts, rouge_type=rouge_type, tokenizer=tokenizer)
    for q in queries(texts)[:15] + ["never seen tokens here"]:
        want = reference_f(rouge_type, False, q, texts, tokenizer=tokenizer)
        assert index.scores(q).tolist() == want


def test_default_tokenizer_object_is_the_default(texts):
    tok = rougekit.tokenizers.DefaultTokenizer(use_stemmer=True)
    index = RougeIndex(texts, tokenizer=tok)
    assert index.use_stemmer is True
    q = texts[4]
    assert index.scores(q).tolist() == reference_f("rougeL", True, q, texts)


def test_threads_give_the_same_scores(sentences):
    many = near_duplicate_texts(sentences, 7000, seed=11)
    serial = RougeIndex(many, threads=1)
    parallel = RougeIndex(many, threads=3)
    scorer = ref.RougeScorer(["rougeL"])
    for q in many[:400:50]:
        got = parallel.scores(q)
        assert got.tolist() == serial.scores(q).tolist()
        for i in range(0, len(many), 97):
            assert got[i] == scorer.score(q, many[i])["rougeL"].fmeasure


@pytest.mark.parametrize("threads", [1, 3])
def test_work_in_short_kernel_calls_gives_the_same_scores(sentences, monkeypatch, threads):
    """A large index stores and scores in many short kernel calls on the
    worker threads (so that a Ctrl-C stops it soon): the same numbers as
    one call, whatever the texts' lengths, with the default tokenizer and a
    custom one."""
    import rougekit.index as index_module
    many = near_duplicate_texts(sentences, 500, seed=12)
    many[7] = " ".join(many[:40])                 # a text longer than a chunk
    tok = _Whitespace()
    whole = [RougeIndex(many, threads=1), RougeIndex(many, "rouge2", tokenizer=tok)]
    monkeypatch.setattr(index_module, "_SCORE_BUDGET", 600)
    monkeypatch.setattr(index_module, "_ADD_BUDGET", 3000)
    monkeypatch.setattr(index_module, "_PARALLEL_TEXTS", 10)
    chunked = [RougeIndex(many[:200], threads=threads),
               RougeIndex(many[:200], "rouge2", tokenizer=tok, threads=threads)]
    for index in chunked:
        index.extend(many[200:])
    for a, b in zip(whole, chunked):
        assert len(b) == len(many)
        for q in many[:100:10] + [many[7]]:
            assert b.scores(q).tolist() == a.scores(q).tolist()
            assert b.top_k(q, 5) == a.top_k(q, 5)


class _Whitespace:
    def tokenize(self, text):
        return text.lower().split()


def test_one_index_shared_by_threads(texts):
    index = RougeIndex(texts[:50])
    expected = {q: reference_f("rougeL", False, q, texts) for q in texts[:8]}
    errors = []

    def query_many():
        try:
            for _ in range(20):
                for q, want in expected.items():
                    got = index.scores(q).tolist()
                    assert got == want[:len(got)]
        except BaseException as exc:  # reported below
            errors.append(exc)

    def add_rest():
        for t in texts[50:]:
            index.add(t)

    workers = [threading.Thread(target=query_many) for _ in range(3)]
    workers.append(threading.Thread(target=add_rest))
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors[0]
    assert len(index) == len(texts)


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="rougeLsum"):
        RougeIndex(rouge_type="rougeLsum")
    with pytest.raises(ValueError, match="rouge_type: unknown rouge type 'rougeX'"):
        RougeIndex(rouge_type="rougeX")
    with pytest.raises(TypeError, match="rouge_type must be a str"):
        RougeIndex(rouge_type=1)
    with pytest.raises(TypeError, match="tokenizer must be a name .* or an object with a "
                                        "tokenize"):
        RougeIndex(tokenizer=object())
    with pytest.raises(ValueError, match="threads must be >= 1"):
        RougeIndex(threads=0)
    index = RougeIndex(["a b"])
    with pytest.raises(TypeError, match="text must be str or bytes, not NoneType"):
        index.add(None)
    with pytest.raises(TypeError, match=r"texts\[2\] must be str or bytes, not int"):
        index.extend(["c", "d", 3])
    assert len(index) == 1                      # nothing of the failed call added
    with pytest.raises(TypeError, match="texts must be a list of texts, not a single str"):
        index.extend("abc")
    with pytest.raises(TypeError, match="query must be str or bytes, not list"):
        index.scores(["a"])
    with pytest.raises(ValueError, match="k must be >= 0"):
        index.top_k("a", -1)
    with pytest.raises(TypeError, match="k must be an int, not float"):
        index.top_k("a", 1.0)
    with pytest.raises(ValueError, match="empty RougeIndex"):
        RougeIndex().max("a")
    with pytest.raises(UnicodeDecodeError):
        index.add(b"\xff\xfe")
    assert len(index) == 1


def test_unhashable_custom_tokens_add_nothing():
    class Lists:
        def tokenize(self, text):
            return [[w] for w in text.split()]

    index = RougeIndex(tokenizer=Lists())
    with pytest.raises(TypeError, match="unhashable"):
        index.extend(["a b", "c"])
    assert len(index) == 0


def test_empty_index_and_empty_query():
    index = RougeIndex()
    assert index.scores("a b").tolist() == []
    assert index.top_k("a b", 3) == []
    index.extend(["", "a b", "!!"])
    assert index.scores("").tolist() == [0.0, 0.0, 0.0]
    assert index.scores("a").tolist() == reference_f("rougeL", False, "a", ["", "a b", "!!"])
    assert repr(index) == "RougeIndex(3 texts, rouge_type='rougeL', use_stemmer=False)"


# --- the kernels directly: compiled against pure -----------------------------------

def _kernels():
    """The text index and de-duplication kernels, pure then compiled: each
    a namespace with TextIndex and Dedup."""
    kernels = [types.SimpleNamespace(name="pure", TextIndex=_text_index_py.TextIndex,
                                     Dedup=_dedup_filter_py.Dedup)]
    try:
        text_index = importlib.import_module("rougekit._core._text_index")
        dedup_filter = importlib.import_module("rougekit._core._dedup_filter")
    except ImportError as exc:
        if os.environ.get("ROUGEKIT_REQUIRE_EXTENSIONS", "") not in ("", "0"):
            pytest.fail(f"compiled core required but not importable: {exc}")
    else:
        kernels.append(types.SimpleNamespace(name="compiled", TextIndex=text_index.TextIndex,
                                             Dedup=dedup_filter.Dedup))
    return kernels


@pytest.fixture(params=_kernels(), ids=lambda k: k.name)
def kernel(request):
    return request.param


@pytest.mark.parametrize("kind", [-1, 1, 2, 4])
def test_kernel_twins_agree(texts, kind):
    mods = _kernels()
    if len(mods) < 2:
        pytest.skip("compiled core not built")
    outs, counts = [], []
    for mod in mods:
        ix = mod.TextIndex(kind, True, True)
        ix.add_texts(texts[:100])
        ix.set_query_text(texts[3])
        ix.add_texts(texts[100:])     # texts added after the query was set
        out = np.full(len(texts), -1.0)
        ix.score_range(5, len(texts) - 2, out)
        outs.append(out.tolist())
        counts.append([ix.count(i) for i in range(len(texts))])
    assert outs[0] == outs[1]
    assert outs[0][:5] == [-1.0] * 5 and outs[0][-2:] == [-1.0] * 2
    assert counts[0] == counts[1]


def test_sparse_masks_path(texts):
    _text_index = pytest.importorskip("rougekit._core._text_index")
    old = _text_index._set_mask_budget(0)      # every query compared pair by pair
    try:
        ix = _text_index.TextIndex(-1, False, True)
        ix.add_texts(texts)
        for q in queries(texts):
            ix.set_query_text(q)
            out = np.empty(len(texts))
            ix.score_range(0, len(texts), out)
            assert out.tolist() == reference_f("rougeL", False, q, texts)
    finally:
        _text_index._set_mask_budget(old)


def test_kernel_argument_errors(kernel):
    with pytest.raises(ValueError, match="kind must be"):
        kernel.TextIndex(0, False, True)
    ix = kernel.TextIndex(-1, False, True)
    ix.add_texts(["a b", "c"])
    with pytest.raises(ValueError, match="lo <= hi"):
        ix.score_range(1, 0, np.empty(2))
    with pytest.raises(ValueError, match="lo <= hi"):
        ix.score_range(0, 3, np.empty(3))
    with pytest.raises(ValueError, match="out has 1 items"):
        ix.score_range(0, 2, np.empty(1))
    with pytest.raises(TypeError, match=r"texts\[1\] must be str"):
        ix.add_texts(["x", b"y"])
    assert len(ix) == 2
    with pytest.raises(ValueError, match="takes token lists|tokenizes texts itself"):
        ix.add_token_lists([["a"]])
    with pytest.raises(ValueError, match="takes token lists|tokenizes texts itself"):
        ix.set_query_tokens(["a"])
    with pytest.raises(IndexError):
        ix.count(2)


def test_kernel_is_read_only_while_a_dedup_holds_it(kernel):
    ix = kernel.TextIndex(-1, False, True)
    ix.add_texts(["a b c", "a b d"])
    dedup = kernel.Dedup(ix, 0, 0.5, 1)
    with pytest.raises(RuntimeError, match="cannot change now"):
        ix.add_texts(["e"])
    with pytest.raises(RuntimeError, match="cannot change now"):
        ix.set_query_text("a")
    out = np.empty(2)
    ix.score_range(0, 2, out)               # reading is fine
    dedup.close()
    ix.add_texts(["e"])
    assert len(ix) == 3
    with pytest.raises(ValueError, match="closed"):
        dedup.probe(0, 1, 0, np.zeros(3, np.uint8))


# --- pickles: what the index stores, not its texts ------------------------------------

class CountingWords:
    """Whitespace tokens, counting every call (to see a pickle load without
    tokenizing)."""

    calls = 0

    def tokenize(self, text):
        CountingWords.calls += 1
        return text.lower().split()


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
@pytest.mark.parametrize("rouge_type,request_", [
    ("rougeL", {}), ("rougeL", {"use_stemmer": True}), ("rouge1", {"use_stemmer": True}),
    ("rouge2", {}), ("rouge3", {"use_stemmer": True}), ("rougeL", {"tokenizer": Whitespace()}),
    ("rouge2", {"tokenizer": WordLengths()}),
], ids=["L", "L-stem", "1-stem", "2", "3-stem", "L-words", "2-ints"])
def test_a_pickled_index_scores_as_the_original(texts, rouge_type, request_, protocol):
    index = RougeIndex(texts[:150], rouge_type=rouge_type, **request_)
    index.scores("a query first: the vocabulary grows")
    data = pickle.dumps(index, protocol=protocol)
    assert not {m for m in _modules_named(data) if m.startswith("rougekit._core")}
    loaded = pickle.loads(data)
    assert type(loaded) is RougeIndex and repr(loaded) == repr(index)
    assert loaded.options.signature() == index.options.signature()
    assert loaded.rouge_type == rouge_type and loaded.use_stemmer == index.use_stemmer
    for q in queries(texts):
        assert loaded.scores(q).tolist() == index.scores(q).tolist(), q
        assert loaded.max(q) == index.max(q)
    # both go on storing texts alike (ids, vocabulary and n-grams continue)
    index.extend(texts[150:])
    loaded.extend(texts[150:])
    for q in queries(texts)[:10]:
        assert loaded.scores(q).tolist() == index.scores(q).tolist()
    assert pickle.loads(pickle.dumps(loaded)).scores(texts[3]).tolist() == \
        index.scores(texts[3]).tolist()


def test_a_pickle_loads_without_tokenizing_and_keeps_the_threads_asked_for(texts):
    index = RougeIndex(texts, tokenizer=CountingWords(), threads=1)
    calls = CountingWords.calls
    loaded = pickle.loads(pickle.dumps(index))
    assert CountingWords.calls == calls
    assert loaded.scores(texts[0]).tolist() == index.scores(texts[0]).tolist()
    assert index.__getstate__()["threads"] == 1
    # threads=None (all cores) stays "all cores" of the machine that loads it
    assert RougeIndex(texts[:3]).__getstate__()["threads"] is None


def test_a_damaged_pickle_is_refused():
    state = RougeIndex(["a b", "b c"], rouge_type="rouge2").__getstate__()
    for damaged, match in (
            ({**state, "version": 99}, "not a RougeIndex pickle of this version"),
            ({**state, "options": None}, "no ScoringOptions"),
            ({**state, "options": RougeIndex(rouge_type="rouge3").options},
             "stored with other options"),
            ({**state, "kernel": {**state["kernel"], "offsets": np.array([0, 5])}},
             "not a TextIndex state: offsets")):
        index = RougeIndex.__new__(RougeIndex)
        with pytest.raises(ValueError, match=match):
            index.__setstate__(damaged)


@pytest.mark.parametrize("kind", [-1, 1, 2, 4])
@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
def test_kernel_states_load_in_either_twin(texts, kind, stem):
    """A state made by one twin (a pickle made with one backend) rebuilds
    in the other: the same scores, and texts added afterwards too."""
    kernels = _kernels()
    built = []
    for mod in kernels:
        ix = mod.TextIndex(kind, stem, True)
        ix.add_texts(texts[:120])
        ix.set_query_text("words only queries have: zebra quagga")
        built.append(ix)
    rouge_type = "rougeL" if kind == -1 else f"rouge{kind}"
    want = {q: reference_f(rouge_type, stem, q, texts) for q in queries(texts)[:12]}
    for source in built:
        state = pickle.loads(pickle.dumps(source.to_state()))
        for mod in kernels:
            ix = mod.TextIndex.from_state(state)
            assert len(ix) == 120 and [ix.count(i) for i in range(120)] == \
                [source.count(i) for i in range(120)]
            ix.add_texts(texts[120:])
            for q, f in want.items():
                ix.set_query_text(q)
                out = np.empty(len(texts))
                ix.score_range(0, len(texts), out)
                assert out.tolist() == f, q


def test_kernel_states_of_token_lists_load_in_either_twin():
    kernels = _kernels()
    lists = [[1, 2, 3], ["a", 1, (2, 3)], [], [2, 2, 3, 1]]
    for source_mod in kernels:
        source = source_mod.TextIndex(2, False, False)
        source.add_token_lists(lists)
        for mod in kernels:
            ix = mod.TextIndex.from_state(source.to_state())
            ix.set_query_tokens([2, 3, 1, "a", 1])
            out = np.empty(4)
            ix.score_range(0, 4, out)
            source.set_query_tokens([2, 3, 1, "a", 1])
            want = np.empty(4)
            source.score_range(0, 4, want)
            assert out.tolist() == want.tolist()


def _damaged_states(state):
    """(state, what the error says) for each way a state can be wrong."""
    units, offsets, grams = state["units"], state["offsets"], state["grams"]
    yield [], "a dict with the keys"
    yield {k: v for k, v in state.items() if k != "units"}, "a dict with the keys"
    yield {**state, "format": 2}, "format 2"
    yield {**state, "format": True}, "format True"
    yield {**state, "kind": 0}, "kind 0"
    yield {**state, "kind": -1}, "grams must be None"
    yield {**state, "use_stemmer": 1}, "must be bools"
    yield {**state, "tokens": tuple(state["tokens"])}, "tokens must be a list"
    yield {**state, "tokens": state["tokens"] + [state["tokens"][0]]}, "listed twice"
    yield {**state, "tokens": state["tokens"][:-1] + [b"x"]}, "must be str"
    yield {**state, "grams": grams.astype(np.int64)}, "grams must be a 2-d int32"
    yield {**state, "grams": grams[:, :1].copy()}, "grams must have 2 columns"
    yield {**state, "grams": np.concatenate([grams, grams[:1]])}, "an n-gram is listed twice"
    yield {**state, "grams": grams + len(state["tokens"])}, "grams has ids outside"
    yield {**state, "grams": grams - 1}, "grams has ids outside"
    yield {**state, "units": units.astype(np.int64)}, "units must be a 1-d int32"
    yield {**state, "units": units.tolist()}, "units must be a 1-d int32"
    yield {**state, "units": units + 1}, r"units has ids outside \[0, 2\)"
    yield {**state, "units": units - 1}, "units has ids outside"
    yield {**state, "offsets": offsets[::-1].copy()}, "offsets must rise"
    yield {**state, "offsets": offsets[:-1].copy()}, "offsets must rise"
    yield {**state, "offsets": offsets[:0].copy()}, "offsets must rise"
    yield {**state, "offsets": np.array([0, 3, 1, 4])}, "offsets must rise"
    yield {**state, "offsets": offsets.astype(np.int32)}, "offsets must be a 1-d int64"


def test_kernel_refuses_a_damaged_state(kernel):
    source = kernel.TextIndex(2, False, True)
    source.add_texts(["a b c", "b c", "a b"])
    state = source.to_state()
    assert len(state["grams"]) == 2 and state["units"].tolist() == [0, 1, 1, 0]
    for damaged, match in _damaged_states(state):
        with pytest.raises(ValueError, match="^not a TextIndex state: .*" + match):
            kernel.TextIndex.from_state(damaged)
    # arrays of the other byte order are read as the numbers they hold
    swapped = {**state, "units": state["units"].astype(">i4"),
               "offsets": state["offsets"].astype(">i8"), "grams": state["grams"].astype(">i4")}
    ix = kernel.TextIndex.from_state(swapped)
    ix.set_query_text("b c")
    out = np.empty(3)
    ix.score_range(0, 3, out)
    assert out.tolist() == reference_f("rouge2", False, "b c", ["a b c", "b c", "a b"])
