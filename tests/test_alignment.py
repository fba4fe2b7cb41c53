"""The alignment kernel (``_alignment``, what ``explain`` shows for rougeL and
rougeLsum): both sides' positions equal rouge-score's own table walk.

rouge-score's ``_backtrack_norec`` returns the reference positions only; the
candidate positions it walks through are read here from rouge-score's walk
itself: the candidate's tokens are wrapped in ``Probe`` objects that record
their position each time the walk's ``ref[i - 1] == can[j - 1]`` finds them
equal (a diagonal step), so both sides come from one run of its function on
its own ``_lcs_table``. rougeLsum's come from its ``lcs_ind`` per candidate
sentence, its ``_find_union`` and the Counter clipping of its
``_summary_level_lcs`` (whose hit count is checked against the Score it
returns). Both twins, with every row kept and with checkpoints, with the
match masks precomputed and made per row; random pairs on small alphabets
(ties), lengths around the 64-bit words, repeated tokens, empty sides and
sentences, single tokens, several sentences. Then ``explain`` on texts, both
sides, on the backend in use; and a 20,000-token pair in bounded memory.
"""
import collections
import functools
import json
import os
import random
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs

from _helpers import SANITIZED, child_env, compiled_kernel, examples, sweep
from rougekit._core import _alignment_py
from rougekit.rouge_scorer import RougeScorer

pytestmark = [pytest.mark.kernel, pytest.mark.backend,
              pytest.mark.filterwarnings("ignore::rougekit.RougekitWarning")]


def _compiled():
    return compiled_kernel("_alignment")


@pytest.fixture(params=["compiled", "pure"])
def core(request):
    return _compiled() if request.param == "compiled" else _alignment_py


#: (full_table_words, dense_budget_words) of each storage mode.
LIMITS = {"every-row": (1 << 20, 1 << 20), "checkpointed": (0, 1 << 20),
          "masks-per-row": (1 << 20, 0), "checkpointed-masks-per-row": (0, 0),
          "few-masks": (0, 3)}


@pytest.fixture(params=list(LIMITS))
def limits(request, core):
    old = core._set_limits(*LIMITS[request.param])
    yield request.param
    core._set_limits(*old)


# --- rouge-score's walk, both sides ---------------------------------------------------

class Probe:
    """A candidate token that records its position when the walk finds it
    equal to a reference token."""

    __hash__ = None

    def __init__(self, token, position, found):
        self.token, self.position, self.found = token, position, found

    def __eq__(self, other):
        if self.token == other:
            self.found.append(self.position)
            return True
        return False


def rouge_score_walk(ref, can):
    """(ref positions, can positions) of rouge-score's ``_backtrack_norec``
    on its ``_lcs_table(ref, can)``."""
    if not ref or not can:
        return [], []
    found = []
    probes = [Probe(t, j, found) for j, t in enumerate(can)]
    at_ref = rs._backtrack_norec(rs._lcs_table(ref, can), ref, probes)
    assert at_ref == rs.lcs_ind(ref, can)
    return at_ref, found[::-1]


def rouge_score_summary(refs, cands):
    """rougeLsum's hits with their positions (sentences laid end to end), as
    rouge-score's ``_summary_level_lcs`` counts them: per reference sentence
    the union of ``lcs_ind`` over the candidate sentences (``_find_union``),
    each position counted while its token is left on both sides; a hit's
    partner is its partner in the first candidate sentence whose LCS holds it."""
    m, n = sum(map(len, refs)), sum(map(len, cands))
    if not m or not n:
        return [], []
    left_r = collections.Counter(t for r in refs for t in r)
    left_c = collections.Counter(t for c in cands for t in c)
    at_ref, at_can, ref_start = [], [], 0
    for r in refs:
        partner, can_start = {}, 0
        for c in cands:
            for i, j in zip(*rouge_score_walk(r, c)):
                partner.setdefault(i, can_start + j)
            can_start += len(c)
        union = rs._find_union([rs.lcs_ind(r, c) if r and c else [] for c in cands])
        assert sorted(partner) == union
        for i in union:
            if left_c[r[i]] > 0 and left_r[r[i]] > 0:
                left_c[r[i]] -= 1
                left_r[r[i]] -= 1
                at_ref.append(ref_start + i)
                at_can.append(partner[i])
        ref_start += len(r)
    score = rs._summary_level_lcs(refs, cands)
    assert (score.precision, score.recall) == (len(at_ref) / n, len(at_ref) / m)
    return at_ref, at_can


def dense(*seqs):
    ids = {}
    return [[ids.setdefault(t, len(ids)) for t in s] for s in seqs]


# --- random and tie-heavy pairs -------------------------------------------------------

# Lengths around the 64-bit word boundaries; alphabets small enough for ties.
LENGTHS = [0, 1, 2, 3, 31, 63, 64, 65, 127, 128, 129, 200]
ALPHABETS = [1, 2, 3, 5, 30]


def random_pairs(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        v = rng.choice(ALPHABETS)
        yield ([rng.randrange(v) for _ in range(rng.choice(LENGTHS))],
               [rng.randrange(v) for _ in range(rng.choice(LENGTHS))])


def random_sentences(rng, v):
    return [[rng.randrange(v) for _ in range(rng.choice([0, 1, 2, 3, 7, 20, 64, 65, 90]))]
            for _ in range(rng.randrange(0, 6))]


def test_lcs_alignment_is_rouge_scores_walk(core, limits):
    for a, b in random_pairs(1, sweep(400, 150, sanitized=60)):
        ia, ib = dense(a, b)
        assert core.lcs_alignment(ia, ib) == rouge_score_walk(a, b), (a, b)


@pytest.mark.parametrize("ref,can", [
    ("ab", "ba"), ("abcab", "bacba"), ("aaaa", "aa"), ("aa", "aaaa"), ("abab", "baba"),
    ("xyz", "abc"), ("a", "a"), ("a", "b"), ("a", ""), ("", "a"), ("", ""),
    ("abcabcabc", "cbacbacba"), ("aabb", "bbaa"), ("a" * 130, "a" * 70),
])
def test_lcs_ties(core, limits, ref, can):
    a, b = list(ref), list(can)
    ia, ib = dense(a, b)
    assert core.lcs_alignment(ia, ib) == rouge_score_walk(a, b)


def test_summary_alignment_is_rouge_scores_union(core, limits):
    rng = random.Random(2)
    for _ in range(sweep(300, 100, sanitized=40)):
        v = rng.choice(ALPHABETS)
        refs, cands = random_sentences(rng, v), random_sentences(rng, v)
        ids = dense(*refs, *cands)
        got = core.summary_lcs_alignment(ids[:len(refs)], ids[len(refs):])
        assert got == rouge_score_summary(refs, cands), (refs, cands)


@pytest.mark.parametrize("refs,cands", [
    (["abc", "ca"], ["ac", "bca"]),        # a position's partner: the first sentence
    (["aa", "a"], ["a", "a"]),             # clipping: tokens, not positions
    (["", "ab", ""], ["", "ba", ""]),      # empty sentences
    ([], ["a"]), (["a"], []), ([""], [""]),
    (["a"], ["a"]), (["a", "a", "a"], ["a"]), (["a"], ["a", "a", "a"]),
    (["abab", "baba"], ["ab", "ba", "abab"]),
])
def test_summary_ties(core, limits, refs, cands):
    refs, cands = [list(s) for s in refs], [list(s) for s in cands]
    ids = dense(*refs, *cands)
    assert core.summary_lcs_alignment(ids[:len(refs)], ids[len(refs):]) == \
        rouge_score_summary(refs, cands)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 3), max_size=150), st.lists(st.integers(0, 3), max_size=150))
def test_compiled_equals_pure(a, b):
    compiled = _compiled()
    ia, ib = dense(a, b)
    for mode in ((1 << 20, 1 << 20), (0, 2)):
        old = compiled._set_limits(*mode), _alignment_py._set_limits(*mode)
        try:
            assert compiled.lcs_alignment(ia, ib) == _alignment_py.lcs_alignment(ia, ib)
            assert compiled.summary_lcs_alignment([ia[:40], ia[40:]], [ib[:70], ib[70:]]) == \
                _alignment_py.summary_lcs_alignment([ia[:40], ia[40:]], [ib[:70], ib[70:]])
        finally:
            compiled._set_limits(*old[0])
            _alignment_py._set_limits(*old[1])


@functools.cache
def long_pair(alphabet):
    """Two long sequences and rouge-score's walk of them, computed once (2
    million cells of Python each)."""
    rng = random.Random(5 + alphabet)
    a = [rng.randrange(alphabet) for _ in range(1500)]
    b = [rng.randrange(alphabet) for _ in range(1300)]
    return a, b, rouge_score_walk(a, b)


@pytest.mark.parametrize("alphabet", [3, 50])
def test_long_inputs(core, limits, alphabet):
    """Thousands of tokens: many words per row, several checkpoint blocks."""
    if SANITIZED and alphabet == 3:
        pytest.skip("one long pair is enough under the sanitizers")
    a, b, walk = long_pair(alphabet)
    assert core.lcs_alignment(a, b) == walk
    # one sentence each: the union is the LCS, which the clipping keeps whole
    assert core.summary_lcs_alignment([a], [b]) == walk


# --- what the kernels take ---------------------------------------------------------------

@pytest.mark.parametrize("bad,exc", [
    ([-1], ValueError), ([5], ValueError), ([0.5], TypeError), (["a"], TypeError),
    ([None], TypeError), ([2 ** 70], (OverflowError, ValueError)),
])
def test_bad_ids_raise(core, bad, exc):
    for call, name in ((lambda: core.lcs_alignment(bad, [0]), "ref"),
                       (lambda: core.lcs_alignment([0], bad), "can"),
                       (lambda: core.summary_lcs_alignment([bad], [[0]]), "refs"),
                       (lambda: core.summary_lcs_alignment([[0]], [bad]), "cands")):
        with pytest.raises(exc) as info:
            call()
        if exc is ValueError:
            assert str(info.value).startswith(f"{name}: token id")


def test_sequences_of_any_kind(core):
    assert core.lcs_alignment((0, 1, 2), iter([2, 1, 0, 1])) == \
        rouge_score_walk([0, 1, 2], [2, 1, 0, 1]) == ([0, 1], [2, 3])
    assert core.summary_lcs_alignment(iter([(0, 1)]), [iter([1, 0])]) == ([0], [1])
    assert core.lcs_alignment([], []) == ([], [])
    assert core.summary_lcs_alignment([], []) == ([], [])


def test_limits_must_not_be_negative(core):
    with pytest.raises(ValueError, match="must be >= 0"):
        core._set_limits(-1, 0)
    with pytest.raises(ValueError, match="must be >= 0"):
        core._set_limits(0, -1)


# --- explain: both sides, on texts --------------------------------------------------------

WORDS = ["a", "b", "c", "the", "cat", "cats", "running", "runs"]


@st.composite
def texts(draw):
    lines = draw(st.lists(st.lists(st.sampled_from(WORDS), max_size=12), max_size=5))
    return "\n".join(" ".join(line) for line in lines)


def positions(explanation):
    return ([m.target[0] for m in explanation.matches],
            [m.prediction[0] for m in explanation.matches])


def check_explain(target, prediction, use_stemmer):
    scorer = RougeScorer(["rougeL", "rougeLsum"], use_stemmer=use_stemmer)
    got = scorer.explain(target, prediction)
    scores = scorer.score(target, prediction)
    lcs, lsum = got["rougeL"], got["rougeLsum"]
    assert lcs.score == scores["rougeL"] and lsum.score == scores["rougeLsum"]
    t, p = ([tok.text for tok in toks] for toks in (lcs.target_tokens, lcs.prediction_tokens))
    assert positions(lcs) == rouge_score_walk(t, p)
    by_sentence = []
    for toks in (lsum.target_tokens, lsum.prediction_tokens):
        sentences = collections.defaultdict(list)
        for tok in toks:
            sentences[tok.sentence].append(tok.text)
        by_sentence.append(list(sentences.values()))
    assert positions(lsum) == rouge_score_summary(*by_sentence)


@settings(max_examples=examples(150), deadline=None)
@given(texts(), texts(), st.booleans())
def test_explain_is_rouge_scores_walk(target, prediction, use_stemmer):
    check_explain(target, prediction, use_stemmer)


@pytest.mark.parametrize("target,prediction", [
    ("", ""), ("a", ""), ("", "a"), ("a", "a"), ("a", "b"), ("a b", "b a"),
    ("a a a\na", "a\na a"), ("the cat\ncat the\nthe", "cat the the\nthe cat"),
    ("a b c\nc a", "a c\nb c a"), ("running runs\ncats", "runs running cat"),
    ("!!!\n\na b\n\n", "b\n\n\na"),
])
def test_explain_edge_cases(target, prediction):
    for use_stemmer in (False, True):
        check_explain(target, prediction, use_stemmer)
        check_explain(prediction, target, use_stemmer)


# --- a long pair, in bounded memory ------------------------------------------------------

# rouge-score's table of two 20,000-token texts takes gigabytes in Python
# (issue 44: explain was killed at 420 s and 3.0 GB); the kernel's rows take
# well under a megabyte, the explanation's tokens and matches tens of MB.
MEMORY_LIMIT_MB = 100
TIMEOUT_S = 600
_CHILD = textwrap.dedent(r"""
    import json, random, resource, sys
    if sys.argv[1] == "limit":    # a table of gigabytes fails fast, not the machine
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    rng = random.Random(44)
    words = ["w%d" % i for i in range(3000)]
    weights = [1.0 / (i + 1) for i in range(3000)]  # Zipf-like, as real text
    target = " ".join(rng.choices(words, weights, k=20000))
    prediction = " ".join(rng.choices(words, weights, k=20000))
    import rougekit
    rougekit.explain("warm up", "warm the explanation up", ["rougeL", "rougeLsum"])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    e = rougekit.explain(target, prediction, ["rougeL", "rougeLsum"])
    growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    from rougekit.rouge_scorer import RougeScorer
    score = RougeScorer(["rougeL", "rougeLsum"]).score(target, prediction)
    print(json.dumps({"backend": rougekit.BACKEND, "growth_mb": growth, "rss_mb": before / 1024,
                      "tokens": [len(e["rougeL"].target_tokens), len(e["rougeL"].prediction_tokens)],
                      "hits": [e[t].hits for t in ("rougeL", "rougeLsum")],
                      "same_scores": all(e[t].score == score[t] for t in score)}))
""")
# A tiny process between pytest and the measured child: a child inherits its
# parent's peak RSS across fork and exec (tests/test_huge_input.py).
_LAUNCHER = textwrap.dedent("""
    import subprocess, sys
    r = subprocess.run([sys.executable, "-c"] + sys.argv[1:], capture_output=True, text=True)
    sys.stdout.write(r.stdout); sys.stderr.write(r.stderr); sys.exit(r.returncode)
""")


@pytest.mark.skipif(os.environ.get("ROUGEKIT_SKIP_HUGE", "") not in ("", "0"),
                    reason="ROUGEKIT_SKIP_HUGE is set (as under the sanitizers)")
def test_explaining_two_20000_token_texts_takes_bounded_memory():
    import rougekit
    # (ASan reserves terabytes of address space: no limit on it there)
    limit = "none" if SANITIZED else "limit"
    proc = subprocess.run([sys.executable, "-c", _LAUNCHER, _CHILD, limit],
                          capture_output=True, text=True, env=child_env(), timeout=TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr[-2000:]
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["backend"] == rougekit.BACKEND
    assert r["tokens"] == [20000, 20000] and r["same_scores"], r
    # one sentence each: rougeLsum's union is the LCS
    assert r["hits"][0] == r["hits"][1] > 0, r
    assert r["growth_mb"] < MEMORY_LIMIT_MB, r
