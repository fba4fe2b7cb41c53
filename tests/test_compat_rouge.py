"""rougekit.compat.rouge gives pltrdy's rouge 1.0.1 results and exceptions.

Every number is compared with ``==`` (on the repr: types, key order and every
digit) against the real ``rouge`` 1.0.1, run here on the same texts: random
texts, edge texts, the shared news pairs, every option of ``Rouge`` and of
``get_scores``, the ``rouge_score`` module's functions, ``FilesRouge`` and the
``rouge`` command (``rougekit compat rouge``). Where rouge raises, the same
exception type and message. Where it hits Python's recursion limit (a
sentence of about 1,000 words), rougekit's number is checked against a
straightforward computation (``_compat.pltrdy_lcs_words``) and, at 5,000
words, against numbers known in closed form. ``install_as("rouge")`` runs
code written for rouge unchanged (in fresh interpreters, as tests/test_shim.py).
"""
import json
import random
import subprocess
import sys
import textwrap
import zlib

import pytest
import rouge as real
import rouge.rouge_score as real_rouge_score

from _compat import (
    ALL_METRICS,
    CALL_PARAMS,
    config_params,
    get_scores_mismatches,
    outcome,
    packages_f,
    pltrdy_lcs_words,
    random_batches,
    random_text,
    require_recorded_files,
)
from _helpers import child_env, first_mismatches, sweep
from rougekit.compat import rouge as ours
from rougekit.compat.rouge import rouge_score as our_rouge_score

pytestmark = pytest.mark.backend


# Rouge's arguments: each option and each kind of value at least once.
CONFIGS = {
    "defaults": {},
    "every-metric": {"metrics": ALL_METRICS},
    "rouge-l-upper-case": {"metrics": ["ROUGE-L"]},
    "repeated-metrics": {"metrics": ["rouge-2", "rouge-l", "rouge-2"]},
    "no-metric": {"metrics": []},
    "stats-f": {"stats": ["f"]},
    "stats-upper-p-r": {"stats": ["P", "r"]},
    "no-stat": {"stats": []},
    "lengths": {"return_lengths": True, "metrics": ALL_METRICS},
    "raw": {"raw_results": True, "metrics": ALL_METRICS},
    "not-exclusive": {"exclusive": False, "metrics": ALL_METRICS},
    "not-exclusive-raw-lengths": {"exclusive": False, "raw_results": True,
                                  "return_lengths": True},
}
CONFIG_PARAMS = config_params(CONFIGS)

WORDS = ["the", "cat", "sat", "on", "mat", "a", "the", "cat", "dog", "Dog", "x", "",
         "é", "l'été", "1,000"]
BREAKS = [" ", " ", " ", "  ", ". ", ".", " . ", "\n", "\t", "...", ",", " ! "]

EDGE_TEXTS = ["", " ", "   ", ".", "...", ". . .", "!!!", ",;:?!", "\t\n", "x",
              "the the the the", "the. the. the.", "a  b", "a . . b", "a.b.c",
              "the cat sat on the mat.", "The cat. the CAT", "café  é\u00a0e",
              "one two three. three two one. one", "a b a b a b\nb a b a"]


@pytest.fixture(scope="module", autouse=True)
def real_rouge_is_pltrdys():
    require_recorded_files("rouge", ("rouge/", "bin/"))


def _both(call):
    """call(module with Rouge, FilesRouge, rouge_score) on rougekit and on rouge."""
    return outcome(lambda: call(ours, our_rouge_score)), outcome(lambda: call(real, real_rouge_score))


def _text(rng):
    return random_text(rng, WORDS, BREAKS)


@pytest.mark.parametrize("avg,ignore_empty", CALL_PARAMS)
@pytest.mark.parametrize("config", CONFIG_PARAMS)
def test_get_scores_equals_rouge_on_random_texts(config, avg, ignore_empty):
    seed = zlib.crc32(repr((config, avg, ignore_empty)).encode())
    batches = random_batches(seed, sweep(120, 40), _text)
    failures = get_scores_mismatches(_both, config, batches, "rouge",
                                     avg=avg, ignore_empty=ignore_empty)
    assert not failures, "\n".join(failures[:3])


# The kernel (_core/_pltrdy_counts) splits words on whitespace and compares
# them in C: every kind of whitespace str.split() knows, non-ASCII, astral and
# lone-surrogate words; and sentences past its LCS's one-word path (64 words).
UNICODE_WORDS = ["a", "b", "a", "é", "我", "𝕏", "\ud800", "x", ""]
UNICODE_BREAKS = [" ", "  ", "\t", "\xa0", "\u3000", "\x1c", "\x85", "\u2028", ". ", "."]


@pytest.mark.parametrize("config", [CONFIGS[k] for k in ("every-metric", "not-exclusive",
                                                         "lengths")],
                         ids=["every-metric", "not-exclusive", "lengths"])
def test_get_scores_equals_rouge_on_any_whitespace_and_long_sentences(config):
    rng = random.Random(zlib.crc32(repr(config).encode()))
    batches = random_batches(rng.randint(0, 9999), sweep(60, 20),
                             lambda r: random_text(r, UNICODE_WORDS, UNICODE_BREAKS))
    for _ in range(sweep(6, 2)):
        long_text = ". ".join(" ".join(rng.choice("abcdef") for _ in range(rng.randint(65, 180)))
                              for _ in range(rng.randint(1, 3)))
        batches.append(([long_text], [long_text[::-1]]))
    failures = get_scores_mismatches(_both, config, batches, "rouge")
    assert not failures, "\n".join(failures[:3])


@pytest.mark.parametrize("config", [CONFIGS[k] for k in
                                    ("defaults", "raw", "not-exclusive", "lengths")],
                         ids=["defaults", "raw", "not-exclusive", "lengths"])
def test_get_scores_equals_rouge_on_edge_texts(config):
    failures = []
    for hyp in EDGE_TEXTS:
        for ref in EDGE_TEXTS:
            for avg in (False, True):
                mine, theirs = _both(lambda m, _: m.Rouge(**config).get_scores(hyp, ref, avg=avg))
                if mine != theirs:
                    failures.append(f"{hyp!r} / {ref!r} avg={avg}: {mine} != {theirs}")
    assert not failures, "\n".join(failures[:5])


def test_get_scores_equals_rouge_on_the_shared_news_pairs(corpus_pairs):
    pairs = corpus_pairs(sweep(400, 120), 21)

    def check(pair):
        hyp, ref = pair["candidate"], pair["references"][0]
        for config in ({}, {"exclusive": False, "return_lengths": True}):
            mine, theirs = _both(lambda m, _: m.Rouge(**config).get_scores(hyp, ref))
            if theirs[0] == "RecursionError":
                assert mine[0] == "ok"
            else:
                assert mine == theirs, f"{config}: {mine} != {theirs}"

    failures = first_mismatches(pairs, check)
    assert not failures, "\n\n".join(failures)
    hyps = [p["candidate"] for p in pairs[:50]]
    refs = [p["references"][0] for p in pairs[:50]]
    mine, theirs = _both(lambda m, _: m.Rouge().get_scores(hyps, refs, avg=True))
    assert mine == theirs


# --- errors -----------------------------------------------------------------------

ERRORS = {
    "empty-hypothesis": lambda m: m.Rouge().get_scores("", "the cat"),
    "empty-reference": lambda m: m.Rouge().get_scores("the cat", ""),
    "dots-only-hypothesis": lambda m: m.Rouge().get_scores("...", "the cat"),
    "empty-for-rouge-l-first": lambda m: m.Rouge(metrics=["rouge-l", "rouge-1"]).get_scores(
        "", "the cat"),
    "empty-in-a-batch": lambda m: m.Rouge().get_scores(["a", ""], ["a", "b"]),
    "empty-with-avg": lambda m: m.Rouge().get_scores(["a", "a"], ["a", "."], avg=True),
    "unknown-metric": lambda m: m.Rouge(metrics=["rouge-6"]),
    "unknown-metric-name": lambda m: m.Rouge(metrics=["rougeL"]),
    "unknown-stat": lambda m: m.Rouge(stats=["x"]),
    "list-and-tuple": lambda m: m.Rouge().get_scores(["a"], ("a",)),
    "unequal-lengths": lambda m: m.Rouge().get_scores(["a", "b"], ["a"]),
    "ignore-empty-leaves-nothing": lambda m: m.Rouge().get_scores(
        ["", "a"], ["a", ""], ignore_empty=True),
    "ignore-empty-keeps-dots": lambda m: m.Rouge().get_scores(
        ["...", "a"], ["a", "a"], ignore_empty=True),
    "raw-results-with-avg": lambda m: m.Rouge(raw_results=True).get_scores(["a"], ["a"],
                                                                           avg=True),
    "avg-of-nothing": lambda m: m.Rouge().get_scores([], [], avg=True),
    "none-text": lambda m: m.Rouge().get_scores([None], ["a"]),
    "none-with-ignore-empty": lambda m: m.Rouge().get_scores([None], ["a"], ignore_empty=True),
    "string-and-list": lambda m: m.Rouge().get_scores("a", ["a"]),
    "metrics-not-strings": lambda m: m.Rouge(metrics=[1]),
}


@pytest.mark.parametrize("call", list(ERRORS.values()), ids=list(ERRORS))
def test_rouge_raises_what_rouge_raises(call):
    mine, theirs = _both(lambda m, _: call(m))
    assert theirs[0] != "ok", "not an error case any more"
    assert mine == theirs


def test_nothing_to_score_is_empty_not_an_error():
    for avg in (False, True):
        mine, theirs = _both(lambda m, _: m.Rouge(metrics=[]).get_scores([], [], avg=avg))
        assert mine == theirs
    mine, theirs = _both(lambda m, _: m.Rouge().get_scores([], []))
    assert mine == theirs == ("ok", "[]")


# --- the rouge_score module ---------------------------------------------------------

def _sentence_lists(seed, count):
    """(hypothesis, reference) sentence lists: as rouge's Rouge makes them
    (split on ".", whitespace collapsed), and raw ones (doubled spaces, "")."""
    out = []
    for hyps, refs in random_batches(seed, count, _text, empty_rate=0.02):
        out.append(([" ".join(s.split()) for s in hyps[0].split(".") if s],
                    [" ".join(s.split()) for s in refs[0].split(".") if s]))
        out.append((hyps, refs))
    return out


def _contents(ngrams):
    """An Ngrams' n-grams: sorted when a set, in order when a list."""
    return sorted(ngrams._ngrams) if ngrams.exclusive else ngrams._ngrams


@pytest.mark.parametrize("exclusive", [True, False], ids=["exclusive", "not-exclusive"])
def test_rouge_score_functions_equal_rouges(exclusive):
    failures = []
    for hyp, ref in _sentence_lists(5 + exclusive, sweep(300, 100)):
        calls = {
            **{f"rouge_n-{n}-raw={raw}":
               (lambda rs, n=n, raw=raw: rs.rouge_n(hyp, ref, n, raw_results=raw,
                                                     exclusive=exclusive))
               for n in (1, 2, 3, 5) for raw in (False, True)},
            "rouge_l_summary_level": lambda rs: rs.rouge_l_summary_level(
                hyp, ref, exclusive=exclusive),
            "rouge_l_summary_level-raw": lambda rs: rs.rouge_l_summary_level(
                hyp, ref, raw_results=True, exclusive=exclusive),
            "_recon_lcs": lambda rs: _contents(rs._recon_lcs(
                " ".join(ref).split(" "), " ".join(hyp).split(" "), exclusive)),
            "_len_lcs": lambda rs: rs._len_lcs(" ".join(ref).split(" "),
                                               " ".join(hyp).split(" ")),
            "_lcs": lambda rs: rs._lcs(hyp, ref),
            "_union_lcs": lambda rs: [(count, _contents(union)) for count, union in
                                      [rs._union_lcs(hyp, ref[0] if ref else "",
                                                     exclusive=exclusive)]],
            "_get_word_ngrams": lambda rs: _contents(rs._get_word_ngrams(2, hyp, exclusive)),
            "_split_into_words": lambda rs: rs._split_into_words(hyp),
            "multi_rouge_n": lambda rs: rs.multi_rouge_n(
                [hyp, ref, hyp], [(0, 1), (1, 0), (2, 2), (0, 2)], n=2, exclusive=exclusive),
        }
        for name, call in calls.items():
            mine, theirs = _both(lambda _, rs: call(rs))
            if mine != theirs:
                failures.append(f"{name} {hyp!r} / {ref!r}: {mine} != {theirs}")
    assert not failures, "\n".join(failures[:5])


def test_rouge_score_helpers_equal_rouges():
    for counts in [(0, 0, 0), (5, 5, 4), (3, 0, 0), (0, 4, 0), (7, 3, 3), (1, 1, 1)]:
        mine, theirs = _both(lambda _, rs: rs.f_r_p_rouge_n(*counts))
        assert mine == theirs
    for a, b in [(["x", "x", "y"], ["x", "z", "x", "x"]), ([], ["a"]), (["a", "b"], ["b", "a"])]:
        for exclusive in (True, False):
            def ngrams(_, rs):
                first, second = rs.Ngrams(a, exclusive), rs.Ngrams(b, exclusive)
                first.add("new")
                return (len(first), _contents(first.intersection(second)),
                        _contents(first.union(second, second)), first.exclusive)
            mine, theirs = _both(ngrams)
            assert mine == theirs


def test_rouge_score_module_has_rouges_names():
    imported = {"six", "itertools", "deepcopy", "absolute_import", "division",
                "print_function", "unicode_literals"}
    theirs = {n for n in dir(real_rouge_score) if not n.startswith("__")} - imported
    assert theirs <= set(dir(our_rouge_score))
    assert set(dir(real.rouge.Rouge)) - set(dir(ours.Rouge)) == set()
    assert ours.Rouge.AVAILABLE_METRICS.keys() == real.Rouge.AVAILABLE_METRICS.keys()
    for name in ("DEFAULT_METRICS", "DEFAULT_STATS", "AVAILABLE_STATS"):
        assert getattr(ours.Rouge, name) == getattr(real.Rouge, name)
    assert ours.__version__ == real.__version__ == "1.0.1"


def test_available_metrics_functions_equal_rouges():
    hyp, ref = ["the cat sat", "on the mat"], ["the cat", "sat on the mat mat"]
    for name in real.Rouge.AVAILABLE_METRICS:
        for kw in ({}, {"raw_results": True}, {"exclusive": False}):
            mine, theirs = _both(lambda m, _: m.Rouge.AVAILABLE_METRICS[name](hyp, ref, **kw))
            assert mine == theirs


def test_f_adds_rouges_epsilon():
    mine, theirs = _both(lambda m, _: m.Rouge().get_scores("the cat is on the mat",
                                                           "the cat sat on the mat"))
    assert mine == theirs
    assert ours.Rouge().get_scores("the cat is on the mat", "the cat sat on the mat")[0][
        "rouge-1"] == {"r": 0.8, "p": 0.8, "f": 0.7999999950000002}


# --- long texts: no RecursionError ----------------------------------------------------

def _long_text(seed, n, vocabulary=200):
    import random
    rng = random.Random(seed)
    return " ".join(f"w{rng.randrange(vocabulary)}" for _ in range(n))


def test_a_sentence_of_1500_words_scores_where_rouge_recurses_too_deep():
    hyp, ref = _long_text(1, 1500), _long_text(2, 1400)
    assert _both(lambda m, _: m.Rouge().get_scores(hyp, ref))[1][0] == "RecursionError"
    for exclusive in (True, False):
        scores = ours.Rouge(exclusive=exclusive, metrics=["rouge-l"]).get_scores(hyp, ref)
        hyp_words, ref_words = hyp.split(), ref.split()
        lcs = pltrdy_lcs_words(ref_words, hyp_words)
        if exclusive:
            hits, m, n = len(set(lcs)), len(set(ref_words)), len(set(hyp_words))
        else:
            hits, m, n = len(lcs), len(ref_words), len(hyp_words)
        r, p = hits / m, hits / n
        assert scores == [{"rouge-l": {"r": r, "p": p, "f": packages_f(p, r)}}]


def test_several_long_sentences_take_rouges_union_of_lcs():
    # three sentences each side: the union over the nine pairs, each LCS the
    # one rouge's backtrack picks (which words it holds matters for the set)
    hyp = ". ".join(_long_text(s, 1100, 30) for s in (3, 4, 5))
    ref = ". ".join(_long_text(s, 1000, 30) for s in (6, 7, 8))
    scores = ours.Rouge(metrics=["rouge-l"], raw_results=True).get_scores(hyp, ref)
    union = set()
    for r in ref.split(". "):
        for h in hyp.split(". "):
            union.update(pltrdy_lcs_words(r.split(), h.split()))
    assert scores == [{"rouge-l": {"hyp": len(set(hyp.replace(". ", " ").split())),
                                   "ref": len(set(ref.replace(". ", " ").split())),
                                   "overlap": len(union)}}]


def test_texts_of_5000_words_score():
    words = [f"w{i}" for i in range(5000)]
    same = " ".join(words)
    reversed_ = " ".join(reversed(words))
    # the same text: every word on the LCS; reversed: one word on it
    assert ours.Rouge().get_scores(same, same)[0]["rouge-l"] == {
        "r": 1.0, "p": 1.0, "f": packages_f(1.0, 1.0)}
    one = 1 / 5000
    assert ours.Rouge().get_scores(reversed_, same)[0]["rouge-l"] == {
        "r": one, "p": one, "f": packages_f(one, one)}
    random_long = ours.Rouge(exclusive=False).get_scores(_long_text(9, 5000), _long_text(10, 5000))
    assert 0 < random_long[0]["rouge-l"]["f"] < 1


# --- FilesRouge and the command line ----------------------------------------------

def _write(path, text):
    path.write_bytes(text.encode("utf-8"))
    return str(path)


FILES = {
    "newline-at-end": ("the cat sat. on the mat\nhello world\n",
                       "the cat is on the mat\nhello there world\n"),
    "no-newline-at-end": ("the cat sat\nhello world", "the cat\nhello there world"),
    "crlf": ("the cat sat\r\nhello world\r\n", "the cat\r\nhello world\r\n"),
    "empty-lines": ("the cat\n\nx\n", "\nthe cat\nx\n"),
}


@pytest.mark.parametrize("hyp_text,ref_text", list(FILES.values()), ids=list(FILES))
def test_files_rouge_equals_rouges(tmp_path, hyp_text, ref_text):
    hyp, ref = _write(tmp_path / "hyp.txt", hyp_text), _write(tmp_path / "ref.txt", ref_text)
    for avg in (False, True):
        for ignore_empty in (False, True):
            for config in ({}, {"metrics": ["rouge-l"], "stats": ["f"]}):
                mine, theirs = _both(lambda m, _: m.FilesRouge(**config).get_scores(
                    hyp, ref, avg=avg, ignore_empty=ignore_empty))
                assert mine == theirs


def test_files_rouge_raises_what_rouge_raises(tmp_path):
    hyp = _write(tmp_path / "hyp.txt", "a\nb\n")
    short = _write(tmp_path / "short.txt", "a\n")
    for args in [(hyp, str(tmp_path / "missing.txt")), (hyp, short)]:
        mine, theirs = _both(lambda m, _: m.FilesRouge().get_scores(*args))
        assert theirs[0] == "AssertionError"
        assert mine == theirs


def _command(args, ours_=True, cwd=None):
    if ours_:
        argv = [sys.executable, "-m", "rougekit", "compat", "rouge", *args]
    else:  # rouge's console script, which runs bin.rouge_cmd.main
        argv = [sys.executable, "-c", "import sys; sys.argv[0] = 'rouge'\n"
                "from bin.rouge_cmd import main; main()", *args]
    return subprocess.run(argv, capture_output=True, text=True, encoding="utf-8",
                          env=child_env(PYTHONIOENCODING="utf-8"), cwd=cwd)


COMMANDS = {
    "text": ["the cat is on the mat", "the cat sat on the mat"],
    "text-avg-metrics-stats": ["-a", "a b. c d", "a c d", "--metrics", "1", "l", "4",
                               "--stats", "f", "R"],
    "text-ignore-empty-unused": ["--ignore_empty", "x. y", "y x"],
    "file": ["-f", "{hyp}", "{ref}"],
    "file-avg-ignore-empty": ["-f", "-a", "--ignore_empty", "{gappy_hyp}", "{ref}",
                              "--metrics", "L", "2"],
    "file-ignore-empty": ["-f", "--ignore_empty", "{hyp}", "{gappy_hyp}", "--stats", "p"],
}


@pytest.mark.parametrize("args", list(COMMANDS.values()), ids=list(COMMANDS))
def test_compat_rouge_command_prints_what_rouge_prints(tmp_path, args):
    hyp = _write(tmp_path / "hyp.txt", "the cat sat. on the mat\nx y\nhello world\n")
    gappy_hyp = _write(tmp_path / "gappy.txt", "the cat sat. on the mat\n\nhello world\n")
    ref = _write(tmp_path / "ref.txt", "the cat is on the mat\nx\nhello there world\n")
    args = [a.format(hyp=hyp, ref=ref, gappy_hyp=gappy_hyp) for a in args]
    mine, theirs = _command(args), _command(args, ours_=False, cwd=tmp_path)
    assert (theirs.returncode, theirs.stderr) == (0, "")
    assert (mine.returncode, mine.stderr) == (0, "")
    assert mine.stdout == theirs.stdout


@pytest.mark.parametrize("args,message", [
    (["", "the cat"], "rougekit: error: Hypothesis is empty.\n"),
    (["-f", "missing.txt", "ref.txt"], "rougekit: error: missing.txt: no such file "
                                       "(with -f, HYPOTHESIS and REFERENCE are files)\n"),
    (["-f", "hyp.txt", "short.txt"], "rougekit: error: hyp.txt has 2 lines but short.txt "
                                     "has 1\n"),
    (["-f", "-a", "empty.txt", "empty.txt"], "rougekit: error: empty.txt has no lines: "
                                             "nothing to average\n"),
    (["-f", "--ignore_empty", "blank.txt", "hyp.txt"],
     "rougekit: error: no line pair is left to score: every one has an empty hypothesis "
     "or reference (--ignore_empty)\n"),
    (["-f", "latin1.txt", "latin1.txt"], "rougekit: error: latin1.txt line 1: not UTF-8 "
                                         "(invalid byte 0xe9 at offset 1)\n"),
], ids=["empty-hypothesis", "missing-file", "unequal-lines", "avg-of-no-lines",
        "nothing-left", "not-utf8"])
def test_compat_rouge_command_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    _write(tmp_path / "hyp.txt", "a\nb\n")
    _write(tmp_path / "ref.txt", "a\nb\n")
    _write(tmp_path / "short.txt", "a\n")
    _write(tmp_path / "empty.txt", "")
    _write(tmp_path / "blank.txt", "\n\n")
    (tmp_path / "latin1.txt").write_bytes(b"a\xe9\n")
    proc = _command(args, cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", message)


def test_compat_rouge_command_usage_error_is_one_line():
    proc = _command(["--metrics", "7", "a", "b"])
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1 and "--metrics" in proc.stderr


# --- install_as("rouge") ------------------------------------------------------------

def run_json(code):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, encoding="utf-8", env=child_env(PYTHONIOENCODING="utf-8"))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


INSTALL = "import rougekit\nrougekit.install_as('rouge')\n"

# Code written for rouge 1.0.1, untouched: prints its results as JSON (reprs).
WORKLOAD = """
import json
import rouge
from rouge import Rouge, FilesRouge
from rouge.rouge_score import rouge_n, rouge_l_summary_level
import rouge.rouge as rouge_module

hyps = ["the cat is on the mat. it sat", "a b c", "x y. y x. x"]
refs = ["the cat sat on the mat", "a c b", "y x"]
out = {"module": Rouge.__module__, "version": rouge.__version__}
out["scores"] = repr(Rouge().get_scores(hyps, refs))
out["avg"] = repr(Rouge(metrics=["rouge-l", "rouge-4"], return_lengths=True)
                  .get_scores(hyps, refs, avg=True))
out["raw"] = repr(Rouge(raw_results=True, exclusive=False).get_scores(hyps[0], refs[0]))
out["functions"] = repr([rouge_n(["a b a"], ["a b"], 1), rouge_l_summary_level(["a b"], ["b a"])])
out["same_class"] = rouge_module.Rouge is Rouge
try:
    Rouge().get_scores("", "a")
except ValueError as exc:
    out["error"] = str(exc)
print(json.dumps(out))
"""


def test_install_as_rouge_runs_rouge_code_unchanged_with_rouges_numbers():
    mine = run_json(INSTALL + WORKLOAD)
    theirs = run_json(WORKLOAD)  # no shim: the real rouge
    assert mine.pop("module") == "rougekit.compat.rouge.rouge"
    assert theirs.pop("module") == "rouge.rouge"
    assert mine == theirs


def test_install_as_rouge_scores_5000_words_and_uninstall_restores_rouge():
    result = run_json(INSTALL + textwrap.dedent("""
        import json, sys
        import rougekit
        from rouge import Rouge
        text = " ".join("w%d" % i for i in range(5000))
        f = Rouge().get_scores(text, text)[0]["rouge-l"]["f"]
        installed = rougekit.shim.is_installed("rouge")
        rougekit.uninstall_as("rouge")
        import rouge
        real = rouge.Rouge.__module__
        rougekit.uninstall_as("rouge")  # harmless twice
        print(json.dumps([f, installed, real, rougekit.shim.is_installed("rouge")]))
    """))
    assert result == [packages_f(1.0, 1.0), True, "rouge.rouge", False]


def test_install_as_rouge_replaces_an_imported_rouge_with_a_warning_and_restores_it():
    result = run_json("""
        import json, sys, warnings
        import rouge.rouge_score
        real = sys.modules["rouge"]
        import rougekit
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rougekit.install_as("rouge")
        import rouge
        now = rouge.Rouge.__module__
        rougekit.uninstall_as("rouge")
        print(json.dumps([[str(w.message) for w in caught], now, sys.modules["rouge"] is real]))
    """)
    [message], now, restored = result
    assert "rouge was already imported" in message and "rouge.rouge_score" in message
    assert "rougekit.install_as('rouge')" in message
    assert now == "rougekit.compat.rouge.rouge"
    assert restored


def test_install_as_rejects_an_unknown_name():
    import rougekit
    with pytest.raises(ValueError, match="name must be one of 'rouge_score', 'rouge', "
                                         "'rouge_chinese'; got 'rouge-chinese'"):
        rougekit.install_as("rouge-chinese")
