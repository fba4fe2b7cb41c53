"""``rougekit.rouge155`` from Python: its numbers are the CLI's and the script's.

- ``Rouge155.score_config`` renders the CLI's bytes, and its numbers equal
  the ones the real script prints (parsed with ``==``);
- ``score_corpus`` on texts equals ``score_config`` on the same files, and
  ``score`` one evaluation's ``-d`` numbers;
- the token functions ``rouge_w`` and ``rouge_s`` count as the script does
  (its ``-t 1 -d`` lines print the counts);
- bad options and inputs raise ``ValueError``/``TypeError`` naming the
  keyword, ``FileNotFoundError`` naming the file.
"""
import importlib
import random
from array import array

import numpy as np
import pytest

import rougekit
from _helpers import x86_64_v3_loops
from _rouge155 import (
    items_to_evals,
    kernel_names,
    kernels,
    oracle,
    run_kit,
    run_perl,
    use_kernel,
    write_inputs,
)
from rougekit._counts import rouge155_pair_counts
from rougekit.rouge155 import (
    ConfigError,
    Options,
    Rouge155,
    lexicon,
    options,
    read_config,
    read_file_list,
)
from rougekit.rouge155 import _corpus as rouge155_corpus
from rougekit.rouge155 import _run as rouge155_run

pytestmark = [pytest.mark.kernel, pytest.mark.threads, pytest.mark.installed, pytest.mark.simd]

API_OPTIONS = [
    ("-n 4 -w 1.2 -2 4 -u -m -s -a -d",
     dict(max_n=4, weight=1.2, skip_distance=4, skip_unigrams=True, stem=True,
          remove_stopwords=True)),
    ("-n 2 -l 15 -f B -p 0.3 -c 90 -r 300 -2 -1 -U -a -d",
     dict(max_n=2, word_limit=15, formula="B", alpha=0.3, confidence=90, resamples=300,
          skip_distance=-1, skip_both=True)),
    ("-n 2 -b 60 -t 1 -w 1.5 -M -a -d",
     dict(max_n=2, byte_limit=60, counting_unit=1, weight=1.5, stem_models_only=True)),
    ("-n 1 -t 2 -x -2 3 -a -d", dict(max_n=1, counting_unit=2, rouge_l=False, skip_distance=3)),
]


def small_work_items(monkeypatch):
    """The work of a run cut into items of a few summaries, evaluations or
    resamples each (what a large corpus gets, so that Ctrl-C stops it soon)."""
    monkeypatch.setattr(rouge155_run, "ITEM_NS", 20_000)
    monkeypatch.setattr(rouge155_corpus, "READ_FILES", 7)
    monkeypatch.setattr(rouge155_corpus, "READ_BUDGET", 2000)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    items = oracle().gen_items(71, 30, allow_empty_refs=False)
    d = tmp_path_factory.mktemp("api")
    write_inputs(d, items_to_evals(items))
    return d, items


@pytest.mark.parametrize("flags,kwargs", API_OPTIONS, ids=[f for f, _ in API_OPTIONS])
@pytest.mark.parametrize("kernel", kernel_names())
def test_api_renders_the_cli_and_the_scripts_numbers(corpus, monkeypatch, flags, kwargs,
                                                     kernel):
    workdir, _ = corpus
    use_kernel(monkeypatch, kernel)
    # Threads even on this small corpus: files read in parts, measures on a
    # pool, resamples in parts.
    monkeypatch.setattr(rouge155_run, "THREAD_MIN_DOCS", 1)
    monkeypatch.setattr(rouge155_corpus, "SHARD_MIN_TEXTS", 10)
    small_work_items(monkeypatch)
    argv = flags.split() + ["config.xml"]
    perl = run_perl(workdir, argv)
    assert perl.returncode == 0, perl
    kit = run_kit(workdir, argv)
    monkeypatch.chdir(workdir)
    result = Rouge155(threads=3, **kwargs).score_config(read_config("config.xml"))
    assert result.render_bytes(per_document=True) == kit.stdout == perl.stdout
    assert Options(**kwargs).to_argv() == options.parse_argv(argv)[0].to_argv()
    # The numbers themselves, against the script's printed ones.
    parsed = oracle().parse_output(perl.stdout.decode("utf-8"))["systems"]["A"]
    for label, m in result["A"].measures.items():
        if kwargs.get("counting_unit") == 2:
            assert parsed["counts"][label] == {"M": int(m.model_count), "P": int(m.peer_count),
                                               "H": int(m.hits)}
            continue
        avg = parsed["averages"][label]
        assert (m.recall, m.precision, m.fmeasure) == (avg["R"], avg["P"], avg["F"])
        assert list(m.recall_interval) == avg["R_ci"]
        assert list(m.fmeasure_interval) == avg["F_ci"]
        if not kwargs.get("counting_unit"):
            per = parsed["per_eval"][label]
            assert {k.split(".")[0]: {"R": d.recall, "P": d.precision, "F": d.fmeasure}
                    for k, d in zip(per, [m.documents[k.split(".")[0]] for k in per])} == {
                        k.split(".")[0]: v for k, v in per.items()}


@pytest.mark.parametrize("kw", [
    dict(max_n=2, weight=1.2, skip_distance=4, skip_unigrams=True, stem=True),
    *[kwargs for _, kwargs in API_OPTIONS]], ids=lambda kw: " ".join(Options(**kw).to_argv()))
@pytest.mark.parametrize("kernel", kernel_names())
@pytest.mark.parametrize("threads", [1, 3])
def test_score_corpus_equals_config_and_score_equals_a_document(corpus, monkeypatch, kernel,
                                                                kw, threads):
    """score_corpus reads texts in one call when no option cuts or stems
    summaries one by one (-l, -b, -M), else through a configuration: both
    equal score_config on the same files. Texts as str, as bytes, and as a
    single reference not in a list give the same numbers. With the
    thresholds and the work items made small for this corpus, the
    evaluations are scored in many shards (on threads=3 at once), each with
    token ids of its own, and resampled in many parts."""
    workdir, items = corpus
    use_kernel(monkeypatch, kernel)
    monkeypatch.setattr(rouge155_corpus, "SHARD_MIN_TEXTS", 10)
    monkeypatch.setattr(rouge155_run, "THREAD_MIN_DOCS", 1)
    small_work_items(monkeypatch)
    scorer_ = Rouge155(threads=threads, **kw)
    candidates = [it["candidate"] for it in items]
    references = [it["references"] for it in items]
    from_texts = scorer_.score_corpus(candidates, references)
    as_bytes = scorer_.score_corpus(
        [c.encode("utf-8") if i % 2 else c for i, c in enumerate(candidates)],
        [[r.encode("utf-8") for r in refs] if i % 3 else
         (refs[0] if len(refs) == 1 else refs) for i, refs in enumerate(references)])
    monkeypatch.chdir(workdir)
    from_files = Rouge155(threads=1, **kw).score_config(read_config("config.xml"))
    assert from_texts.render(per_document=True) == from_files.render(per_document=True)
    assert as_bytes.render(per_document=True) == from_files.render(per_document=True)
    assert from_texts.signature == from_files.signature
    for i in (0, 7, 19):
        single = scorer_.score(items[i]["candidate"], items[i]["references"])
        assert single == {label: m.documents[str(i + 1)]
                          for label, m in from_files["A"].measures.items()}


def _score_in_child(kw, candidates, references):
    return Rouge155(threads=3, **kw).score_corpus(candidates, references).render()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_worker_threads_are_kept_and_forked_children_start_their_own(corpus, monkeypatch):
    """Runs hand their work to the process's one pool of worker threads
    (rougekit._workers), which keeps them between calls. A child forked
    after a threaded run has none of the parent's threads: its pool starts
    afresh and gives the parent's numbers (without the at-fork reset its
    tasks would wait forever; the timeout turns that into a failure)."""
    import multiprocessing
    import threading

    workdir, items = corpus
    monkeypatch.setattr(rouge155_corpus, "SHARD_MIN_TEXTS", 10)
    monkeypatch.setattr(rouge155_run, "THREAD_MIN_DOCS", 1)
    kw = dict(max_n=2, stem=True, skip_distance=4, skip_unigrams=True)
    candidates = [it["candidate"] for it in items]
    references = [it["references"] for it in items]
    expected = Rouge155(threads=1, **kw).score_corpus(candidates, references).render()
    assert Rouge155(threads=3, **kw).score_corpus(candidates, references).render() == expected
    names = lambda: {t.name for t in threading.enumerate()  # noqa: E731
                     if t.name.startswith("rougekit-worker")}
    kept = names()
    assert len(kept) >= 3
    assert Rouge155(threads=3, **kw).score_corpus(candidates, references).render() == expected
    Rouge155(threads=2, **kw).score_corpus(candidates, references)
    assert names() == kept                  # the same threads again
    with multiprocessing.get_context("fork").Pool(1) as pool:
        child = pool.apply_async(_score_in_child, (kw, candidates, references))
        assert child.get(timeout=120) == expected


def test_instance_order_of_many_evaluations():
    """score_corpus orders its instances "1.A", "2.A", ... as the script's sort
    of the keys as strings does, computed from the numbers (IDs crossing each
    power of ten)."""
    for n in [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 12345]:
        expected = sorted(range(n), key=lambda i: "%d.A" % (i + 1))
        assert rouge155_run.numeral_order(n).tolist() == expected, n


def test_file_list_api_equals_cli(corpus, tmp_path, monkeypatch):
    _, items = corpus
    write_inputs(tmp_path, items_to_evals(items), fmt="ISI", file_list=True)
    kit = run_kit(tmp_path, ["-n", "2", "-d", "-z", "ISI", "config.lst", "S1"])
    monkeypatch.chdir(tmp_path)
    result = Rouge155(max_n=2).score_config(read_file_list("config.lst", "ISI", "S1"))
    assert result.render_bytes(per_document=True) == kit.stdout


# --- the token functions, against the script's counts ------------------------------------

def _pairs(seed, count):
    rng = random.Random(seed)
    vocab = ["w%d" % i for i in range(8)]
    pairs = []
    for _ in range(count):
        cand = [rng.choice(vocab) for _ in range(rng.randint(0, 12))]
        ref = [rng.choice(vocab) for _ in range(rng.randint(1, 12))]
        pairs.append((cand, ref))
    pairs += [(["a", "b", "c", "d"], ["a", "b", "x", "c", "d"]), (["a"], ["a"]),
              (["b", "a"], ["a", "b"]), (["x", "y"], ["x", "y"])]
    return pairs


@pytest.mark.parametrize("flags,kind,params", [
    ("-x -w 1.2", "W", dict(weight=1.2)),
    ("-x -w 2", "W", dict(weight=2.0)),
    ("-x -2 4", "S", dict(skip_distance=4.0)),
    ("-x -2 1 -u", "S", dict(skip_distance=1.0, skip_unigrams=True)),
    ("-x -2 -1 -u", "S", dict(skip_distance=-1.0, skip_unigrams=True)),
])
@pytest.mark.parametrize("kernel", kernel_names())
def test_token_functions_count_as_the_script(tmp_path, monkeypatch, flags, kind, params,
                                             kernel):
    use_kernel(monkeypatch, kernel)
    pairs = _pairs(81, 60)
    evals = [{"id": str(i + 1), "peers": {"A": " ".join(c)}, "models": [" ".join(r)]}
             for i, (c, r) in enumerate(pairs)]
    write_inputs(tmp_path, evals)
    counts = run_perl(tmp_path, flags.split() + ["-t", "1", "-d", "-a", "config.xml"])
    rounded = run_perl(tmp_path, flags.split() + ["-d", "-a", "config.xml"])
    parsed_counts = [line.split() for line in counts.stdout.decode().splitlines()
                     if " Eval " in line]
    parsed_scores = oracle().parse_output(rounded.stdout.decode())["systems"]["A"]["per_eval"]
    (label, per_eval), = parsed_scores.items()
    assert len(parsed_counts) == len(pairs)
    fmt = "%.15g" if kind == "W" else "%d"
    for fields in parsed_counts:
        i = int(fields[3].split(".")[0]) - 1
        cand, ref = pairs[i]
        hits, ref_total, cand_total = rouge155_pair_counts(kind, ref, cand, **params)
        assert [fields[4], fields[5], fields[6]] == ["R:" + fmt % ref_total,
                                                      "P:" + fmt % cand_total,
                                                      "F:" + fmt % hits], (cand, ref)
        if kind == "W":
            score = rougekit.rouge_w(cand, ref, params["weight"])
        else:
            d = params["skip_distance"]
            score = rougekit.rouge_s(cand, ref, None if d < 0 else d,
                                     unigrams=params.get("skip_unigrams", False))
        script = per_eval["%d.A" % (i + 1)]
        if not cand:
            assert tuple(score) == (0.0, 0.0, 0.0)
            continue
        assert ("%.5f" % score.recall, "%.5f" % score.precision) == (
            "%.5f" % script["R"], "%.5f" % script["P"]), (cand, ref)


def test_token_functions_edge_cases():
    assert rougekit.rouge_w([], ["a"]) == (0.0, 0.0, 0.0)
    assert rougekit.rouge_w(["a"], []) == (0.0, 0.0, 0.0)
    p, r, f = rougekit.rouge_w(list("abcd"), list("abcd"), weight=1.0)
    assert (p, r, f) == (1.0, 1.0, 1.0)
    assert rougekit.rouge_s(["a"], ["a"], 4, unigrams=True) == (0.0, 0.0, 0.0)
    assert rougekit.rouge_s([1, 2, 3], [1, 2, 3], None) == (1.0, 1.0, 1.0)
    with pytest.raises(TypeError, match="candidate"):
        rougekit.rouge_s("abc", ["a"])
    with pytest.raises(ValueError, match="weight"):
        rougekit.rouge_w(["a"], ["a"], weight=0)
    with pytest.raises(TypeError, match="skip_distance"):
        rougekit.rouge_s(["a"], ["a"], "4")
    with pytest.raises(TypeError):
        rougekit.rouge_s([["unhashable"]], ["a"])


@pytest.mark.parametrize("kernel", kernel_names())
@pytest.mark.parametrize("table", [0, 1])
def test_token_corpus_extend_equals_one_corpus(monkeypatch, tmp_path, kernel, table):
    """Texts tokenized in parts (corpora of their own, made with
    ``empty_copy`` and joined with ``extend``) give the arrays and spans of
    one corpus reading them all: ids are translated, new strings numbered in
    order of first appearance. ``add_files`` reads files as ``add_texts``
    reads their bytes."""
    kernel_module = use_kernel(monkeypatch, kernel)
    items = oracle().gen_items(5, 40, allow_empty_refs=True)
    texts = [t.encode("utf-8") for it in items for t in [it["candidate"], *it["references"]]]
    texts[3:3] = [b"", b"\n\n", b"-- !!", "Caf\u00e9s said\n\nmice".encode("utf-8")]
    prototype = kernel_module.TokenCorpus(lexicon.stopwords(), lexicon.exceptions())
    whole = prototype.empty_copy()
    expected = whole.add_texts(texts, table)
    joined = prototype.empty_copy()
    spans = [joined.add_texts(texts[:50], table)]
    for lo, hi in [(50, 51), (51, 51), (51, 90), (90, len(texts))]:
        part = prototype.empty_copy()
        part_spans = part.add_texts(texts[lo:hi], table)
        spans.append(part_spans + joined.extend(part))
    assert (np.concatenate(spans) == expected).all()
    assert all((a == b).all() for a, b in zip(joined.arrays(), whole.arrays()))
    assert joined.vocab_size() == whole.vocab_size()
    paths = []
    for k, text in enumerate(texts):
        paths.append(tmp_path / ("%d.txt" % k))
        paths[-1].write_bytes(text)
    from_files = prototype.empty_copy()
    assert (from_files.add_files(paths, table) == expected).all()
    assert all((a == b).all() for a, b in zip(from_files.arrays(), whole.arrays()))
    with pytest.raises(ValueError, match="itself"):
        joined.extend(joined)
    with pytest.raises(ValueError, match="has text"):
        joined.empty_copy()
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        prototype.empty_copy().add_files([paths[0], tmp_path / "missing.txt"], table)
    with pytest.raises(IsADirectoryError):
        prototype.empty_copy().add_files([tmp_path], table)


@pytest.mark.parametrize("kernel", kernel_names())
@pytest.mark.parametrize("table", [0, 1])
def test_token_corpus_reads_str_and_bytes(monkeypatch, kernel, table):
    kernel_module = use_kernel(monkeypatch, kernel)

    def corpus():
        return kernel_module.TokenCorpus(lexicon.stopwords(), lexicon.exceptions())

    with pytest.raises(TypeError, match=r"texts\[1\] must be str or bytes, not int"):
        corpus().add_texts([b"a", 3], table)
    # str is read as its UTF-8 bytes (lone surrogates as surrogateescape
    # writes them); bytearray as bytes.
    as_str = corpus()
    as_str.add_texts(["Caf\u00e9 said", "x\udcff y", bytearray(b"a b")], table)
    as_bytes = corpus()
    as_bytes.add_texts(["Caf\u00e9 said".encode(), b"x\xff y", b"a b"], table)
    assert all((a == b).all() for a, b in zip(as_str.arrays(), as_bytes.arrays()))
    # Strings of 1, 2 and 4 bytes a character (read in place, not encoded) give
    # the tokens of their UTF-8 bytes.
    rng = random.Random(table)
    alphabet = "aZ9 \n-'\u00e9\u00ff\u2014\u201cK\U0001F600\udc80\udcff"
    strings = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(60)))
               for _ in range(300)]
    strings += ["\u00e9" * 70 + "ab", "\u2014x\u2014y" * 30, "\U0001F600said geese"]
    from_str, from_bytes = corpus(), corpus()
    spans = from_str.add_texts(strings, table)
    assert (spans == from_bytes.add_texts(
        [t.encode("utf-8", "surrogateescape") for t in strings], table)).all()
    assert all((a == b).all() for a, b in zip(from_str.arrays(), from_bytes.arrays()))
    for bad in ["x \ud800 y", "\U0001F600 \udc00"]:      # as encoding them would
        with pytest.raises(UnicodeEncodeError):
            corpus().add_texts(["fine", bad], table)


@pytest.mark.skipif("compiled" not in kernel_names(), reason="the compiled kernel is not built")
@pytest.mark.parametrize("v3", [True, False], ids=["x86-64-v3", "baseline"])
@pytest.mark.parametrize("table", [0, 1])
def test_compiled_token_corpus_equals_the_pure_one(table, v3):
    """The compiled tokenizer (16 bytes at a time, 64 a step by its AVX2 or
    SSE2 loop, words from a bitmap by its BMI1 or portable loop) gives the
    pure one's ids on random bytes: every byte class, runs across 64-byte
    words of the bitmap, lines of every length, NUL and 0xFF."""
    # (the compiled kernel classifies through the text path's tokenizer)
    with x86_64_v3_loops(importlib.import_module("rougekit._core._tokenizer"), v3):
        _check_token_corpus_equals_the_pure_one(table)


def _check_token_corpus_equals_the_pure_one(table):
    rng = random.Random(5)
    alphabet = b"aAbBzZ09 \n\t\r-'.,\x80\xc3\xa9\xff\x00Il"
    texts = [bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 300)))
             for _ in range(2000)]
    texts += [b"x" * k for k in range(200)]
    texts += [b"ab" * 40 + b"\n" + b"Q" * 70, b"said Mice\n\nGEESE " * 50, b"\n" * 65]
    # newlines on either side of each 64-byte word boundary, lines of no token
    texts += [b"w" * k + b"\n" + b". " * k + b"\n" + b"v" * (130 - k) for k in range(60, 70)]
    corpora = [kernels(name).TokenCorpus(lexicon.stopwords(), lexicon.exceptions())
               for name in ("compiled", "pure")]
    spans = [tc.add_texts(texts, table) for tc in corpora]
    assert (spans[0] == spans[1]).all()
    assert all((a == b).all() for a, b in zip(corpora[0].arrays(), corpora[1].arrays()))
    assert corpora[0].vocab_size() == corpora[1].vocab_size()
    joined = [tc.add_sentences(texts[:300], table, joined=True) for tc in corpora]
    assert joined[0] == joined[1]
    assert all((a == b).all() for a, b in zip(corpora[0].arrays(), corpora[1].arrays()))
    # The same words under the other table (stemmed or not) in the same corpus.
    spans = [tc.add_texts(texts[:500] + [b"said Mice\n\nGEESE running"], 1 - table)
             for tc in corpora]
    assert (spans[0] == spans[1]).all()
    assert all((a == b).all() for a, b in zip(corpora[0].arrays(), corpora[1].arrays()))


@pytest.mark.skipif("compiled" not in kernel_names(), reason="the compiled kernel is not built")
def test_compiled_kernel_checks_every_index():
    """The compiled score_evals reads its arrays without bounds checks, so a
    Corpus and a Jobs check every index when they are made, and score_evals
    that the jobs' documents are the corpus's: a bad one is a ValueError
    naming it, never a read out of bounds. Their arrays are copies that
    cannot be made writeable, so nothing changes them after the checks."""
    k = kernels("compiled")
    tc = k.TokenCorpus()
    spans = tc.add_texts([b"a b c", b"a b", b"b c d"], 0).astype(np.int32)
    tokens, starts, ends = tc.arrays()
    corpus = [tokens, starts, ends, spans[:, 2].copy(), spans[:, 0].copy(),
              spans[:, 1].copy(), tc.vocab_size()]
    jobs = [np.array([0], np.int32), np.array([0], np.int32), np.array([0, 2], np.int64),
            np.array([1, 2], np.int32), np.array([1, 2], np.int32)]
    for kind in k.METRICS:
        out, bad = k.score_evals(kind, k.Corpus(*corpus), k.Jobs(*jobs), n=2)
        assert out.shape == (1, 6) and bad == -1
    for where, index, value, message in [
            (corpus, 0, -1, r"tokens\[1\] = -1 is outside \[0, 4\)"),
            (corpus, 0, 4, r"tokens\[1\] = 4 is outside"),
            (corpus, 3, 9, r"doc_ngram\[1\] = 9 is outside"),
            (jobs, 3, 3, r"model_seq\[1\] = 3 is outside \[0, 3\)"),
            (jobs, 0, -5, r"peer_seq\[1\]|job arrays")]:
        broken = list(where)
        array = broken[index].copy()
        if len(array) < 2:
            array = np.append(array, array[:1])
        array[1] = value
        broken[index] = array
        args = (broken, jobs) if where is corpus else (corpus, broken)
        with pytest.raises(ValueError, match=message):
            k.score_evals("N", k.Corpus(*args[0]), k.Jobs(*args[1]), n=1)
    checked = k.Corpus(*corpus)
    corpus[0][:] = 99                       # the caller's arrays: not the corpus's
    assert checked.tokens.max() < checked.vocab
    for array in (checked.tokens, checked.doc_ngram, k.Jobs(*jobs).model_off):
        assert isinstance(array.base, bytes)            # immutable storage
        with pytest.raises(ValueError):
            array.flags.writeable = True


def _small_corpus(kernel):
    tc = kernel.TokenCorpus()
    spans = tc.add_texts([b"a b c", b"a b", b"b c d"], 0).astype(np.int32)
    tokens, starts, ends = tc.arrays()
    corpus = [tokens, starts, ends, spans[:, 2].copy(), spans[:, 0].copy(),
              spans[:, 1].copy(), tc.vocab_size()]
    jobs = [np.array([0], np.int32), np.array([0], np.int32), np.array([0, 2], np.int64),
            np.array([1, 2], np.int32), np.array([1, 2], np.int32)]
    return corpus, jobs


def _broken(parts, index, value):
    parts = list(parts)
    if index == 6:
        parts[6] = value
    else:
        array = parts[index].copy()
        if len(array) < 2:
            array = np.append(array, array[:1])
        array[1] = value
        parts[index] = array
    return tuple(parts)


def _evals(where, index, value, metric="N", **params):
    def call(k):
        corpus, jobs = _small_corpus(k)
        if where == "corpus":
            corpus = _broken(corpus, index, value)
        elif where == "jobs":
            jobs = _broken(jobs, index, value)
        return k.score_evals(metric, k.Corpus(*corpus), k.Jobs(*jobs), **params)
    return call


MEANS = np.linspace(0, 1, 60).reshape(3, 20)

# Each call on both kernels: the same result, or the same exception (and, for
# a ValueError, the same message).
TWIN_CALLS = {
    **{f"round5({x!r})": (lambda k, x=x: k.round5(x))
       for x in (2 / 3, 0.123455, 5e-6, -0.5, 1e300, -1e300, float("nan"), float("inf"))},
    **{f"raw_tokens({t!r})": (lambda k, t=t: k.raw_tokens(t))
       for t in (b"Well-known: 4:00pm \xc3\xa9", b"", None, "text", bytearray(b"a b"))},
    **{f"bootstrap(resamples={r!r}, confidence={c!r})":
       (lambda k, r=r, c=c: k.bootstrap(MEANS.T.copy(), r, c))
       for r, c in ((20, 95), (20.5, 90), (0, 95), (-1, 95), (float("nan"), 95),
                    (20, 101), (20, -1), (20, float("nan")))},
    **{f"summarize_resamples(resamples={r!r}, confidence={c!r})":
       (lambda k, r=r, c=c: k.summarize_resamples(MEANS, r, c))
       for r, c in ((20, 95), (20, 0), (20, 100), (19, 95), (0, 95), (20, float("nan")))},
    "summarize_resamples(1-d)": lambda k: k.summarize_resamples(MEANS[0], 0, 95),
    "resample_means(lanes=4)": lambda k: k.resample_means(MEANS.T, 20, 0, 5, lanes=4),
    **{f"score_evals({where}[{index}][1] = {value})": _evals(where, index, value)
       for where, index, value in [
           ("corpus", 0, -1), ("corpus", 0, 4), ("corpus", 1, 7), ("corpus", 2, 99),
           ("corpus", 3, 9), ("corpus", 4, -1), ("corpus", 5, 10), ("corpus", 6, 0),
           ("corpus", 6, 2), ("jobs", 0, -5), ("jobs", 1, 5), ("jobs", 2, 9),
           ("jobs", 3, 3), ("jobs", 4, -1)]},
    **{f"score_evals({metric}, {params})": _evals(None, 0, 0, metric, **params)
       for metric, params in [
           ("N", dict(n=0)), ("N", dict(n=2)), ("X", {}), ("W", dict(weight=0)),
           ("W", dict(weight=float("nan"))), ("W", dict(weight=1.5)),
           ("S", dict(skip_distance=float("nan"))), ("S", dict(skip_distance=float("inf"))),
           ("S", dict(skip_distance=0.5, skip_unigrams=True)), ("L", dict(all_n=True)),
           ("N", dict(n=65, all_n=True)), ("N", dict(n=3, all_n=True))]},
    "TokenCorpus.add_text(None)": lambda k: k.TokenCorpus().add_text(None, 0),
    "TokenCorpus.add_text(table=2)": lambda k: k.TokenCorpus().add_text(b"a", 2),
    "TokenCorpus.add_sentences([str])": lambda k: k.TokenCorpus().add_sentences(["a b"], 0),
    "TokenCorpus.add_sentences([bytearray])":
        lambda k: k.TokenCorpus().add_sentences([bytearray(b"a b")], 0),
    "TokenCorpus.add_span(2, 1)": lambda k: k.TokenCorpus().add_span(2, 1),
    "TokenCorpus.extend(5)": lambda k: k.TokenCorpus().extend(5),
    "TokenCorpus.extend(None)": lambda k: k.TokenCorpus().extend(None),
    **{f"lcs_hits{args!r}": (lambda k, args=args: k.lcs_hits(*args[:4], weight=args[4]))
       for args in [
           ([[0, 1, 2]], [[0, 2], [1]], [0, 1, 2], [0, 2], None),
           ([[0, 1, 2], [2, 1]], [[0, 2], [1, 2]], [0, 1, 2, 2, 1], [0, 2, 1, 2], 1.5),
           ([[0, 1, 2]], [[0, 2]], [0, 1, 2], [0, 2], 0.0),
           ([[0, 1, 2]], [[0, 2]], [0, 1, 2], [0, 2], float("nan")),
           ([[0, -1]], [[0]], [0], [0], None), ([[0, 1.5]], [[0]], [0], [0], None),
           ([[0, 2**31]], [[0]], [0], [0], None), ([], [[0]], [], [0], None),
           ([], [], [], [], 1.2), ([[]], [[]], [], [], None)]},
    "Corpus(float tokens)": lambda k: k.Corpus([0.5], [0], [1], [0], [0], [1], 1),
    **{f"Corpus(tokens[{i}]={tokens!r})": (lambda k, tokens=tokens: _corpus_fields(
        k.Corpus(tokens, np.array([0, 1]), np.array([2, 2]), array("i", [0]),
                 np.array([0], np.uint8), np.array([2], np.int16), 4)))
       for i, tokens in enumerate([np.array([1, 3], np.int32), np.array([1, 3], np.int64),
                      np.array([1, 3], np.uint32), np.array([1, 2**31 + 5], np.uint32),
                      np.array([1, 3], np.float32), np.array([1, -3], np.int32),
                      np.array([[1, 3]], np.int32), np.array([1, 9, 3], np.int32)[::2],
                      array("i", [1, 3]), array("l", [1, 3]), [1, 3], (1, 3), b"\x01\x03"])},
    "Corpus(2-d tokens)": lambda k: k.Corpus([[0]], [0], [1], [0], [0], [1], 1),
    "Corpus(vocab=1.5)": lambda k: k.Corpus([0], [0], [1], [0], [0], [1], 1.5),
    "Jobs(model_off=[1, 1])": lambda k: k.Jobs([0], [0], [1, 1], [0], [0]),
    **{f"Jobs(peer_seq={peers!r})": (lambda k, peers=peers: (lambda j: (
        j.peer_seq.tolist(), j.model_off.tolist(), j.documents, j.models, len(j)))(
            k.Jobs(peers, peers, np.array([0, 1, 2]), np.array([4, 1], np.int32),
                   array("i", [4, 1]))))
       for peers in [np.array([0, 2], np.int32), np.array([0, -2], np.int32),
                     np.array([0, 2**31 - 1], np.int64), [0, 2], array("i", [3, 0])]},
    "Jobs(model_off=[0, 2, 1])": lambda k: k.Jobs([0, 0], [0, 0], [0, 2, 1], [0], [0]),
    "score_evals(corpus=tuple)": lambda k: k.score_evals("N", (), k.Jobs([], [], [0], [], [])),
    "score_evals(jobs=None)": lambda k: k.score_evals(
        "L", k.Corpus([], [], [], [], [], [], 1), None),
    "score_evals(no evaluations)": lambda k: k.score_evals(
        "W", k.Corpus([], [], [], [], [], [], 1), k.Jobs([], [], [0], [], [])),
}


def _corpus_fields(corpus):
    return (corpus.tokens.tolist(), corpus.seq_start.tolist(), corpus.seq_end.tolist(),
            corpus.doc_ngram.tolist(), corpus.doc_sent_lo.tolist(),
            corpus.doc_sent_hi.tolist(), corpus.vocab, corpus.documents, corpus.sequences,
            [a.dtype.name for a in (corpus.tokens, corpus.seq_start, corpus.doc_ngram)])


def _outcome(call, kernel):
    try:
        result = call(kernel)
    except Exception as exc:        # compared below: same type, same ValueError message
        return type(exc), str(exc) if isinstance(exc, ValueError) else None
    if isinstance(result, tuple):
        return tuple(np.asarray(x).tolist() if isinstance(x, np.ndarray) else x
                     for x in result)
    return np.asarray(result).tolist() if isinstance(result, np.ndarray) else result


@pytest.mark.skipif("compiled" not in kernel_names(), reason="the compiled kernel is not built")
@pytest.mark.parametrize("call", sorted(TWIN_CALLS))
def test_compiled_kernel_equals_the_specification_on_bad_and_edge_input(call):
    """The compiled kernel's results and errors are its pure twin's (the
    specification): every index checked in both, NaN options refused, numbers
    of any size rounded, bytes only where bytes are read."""
    got, expected = (_outcome(TWIN_CALLS[call], kernels("compiled")),
                     _outcome(TWIN_CALLS[call], kernels("pure")))
    assert repr(got) == repr(expected)


@pytest.mark.skipif("compiled" not in kernel_names(), reason="the compiled kernel is not built")
@pytest.mark.parametrize("weight", [None, 1.0, 1.2, 2.0])
def test_compiled_lcs_hits_equal_the_specification(weight):
    """ROUGE-L and ROUGE-W of one model against one peer, compiled (the
    bit-parallel marks, ROUGE-W's table filled row by row) and pure (the
    script's tables cell by cell): the same hits and base with ==, on
    sentences of a few words that repeat, empty ones, bags that are not the
    sentences (-M), and sentences longer than a machine word."""
    compiled, pure = kernels("compiled"), kernels("pure")
    rng = random.Random(31)

    def sentences(count, words):
        return [[rng.randrange(words) for _ in range(rng.choice([0, 1, 3, 8, 20, 70]))]
                for _ in range(count)]

    for _ in range(300):
        words = rng.choice([2, 4, 30])
        model, peer = sentences(rng.randint(0, 3), words), sentences(rng.randint(0, 3), words)
        model_bag = [t for s in model for t in s]
        peer_bag = [t for s in peer for t in s]
        if rng.random() < 0.3:
            rng.shuffle(model_bag)
            model_bag = model_bag[:len(model_bag) // 2]
        args = (model, peer, model_bag, peer_bag)
        assert compiled.lcs_hits(*args, weight=weight) == pure.lcs_hits(*args, weight=weight)


@pytest.mark.parametrize("kernel", kernel_names())
@pytest.mark.parametrize("best_model", [False, True])
def test_all_ngram_orders_at_once_equal_one_by_one(monkeypatch, kernel, best_model):
    """score_evals("N", n=k, all_n=True) gives ROUGE-1 .. ROUGE-k as k calls
    would, and as the pure kernel's n-gram Counters do: empty and one-token
    summaries, repeated words, a peer too large for the kernel's level
    tables, several models."""
    kernel_module = use_kernel(monkeypatch, kernel)
    rng = random.Random(23)
    words = ["a", "b", "c", "d", "e"]
    texts = []
    for _ in range(60):
        length = rng.choice([0, 1, 2, 3, 8, 30])
        texts.append(" ".join(rng.choice(words[:rng.randint(1, 5)]) for _ in range(length)))
    texts.append(" ".join("w%d" % k for k in range(1200)))      # u * T too large
    texts.append(" ".join("w%d" % (k % 900) for k in range(1500)))
    tc = kernel_module.TokenCorpus()
    spans = tc.add_texts(texts, 0).astype(np.int32)
    arrays = (*tc.arrays(), spans[:, 2], spans[:, 0], spans[:, 1], max(tc.vocab_size(), 1))
    peers, model_off, models = [], [0], []
    for e in range(len(texts)):
        peers.append(e)
        models.extend(rng.sample(range(len(texts)), rng.randint(1, 3)))
        model_off.append(len(models))
    job_arrays = (peers, peers, model_off, models, models)
    corpus, jobs = kernel_module.Corpus(*arrays), kernel_module.Jobs(*job_arrays)
    spec = kernels("pure")      # the specification: n-gram Counters
    spec_corpus, spec_jobs = spec.Corpus(*arrays), spec.Jobs(*job_arrays)
    for n in (1, 2, 5):
        together, bad = kernel_module.score_evals("N", corpus, jobs, n=n, all_n=True,
                                                  best_model=best_model, alpha=0.3)
        assert bad == -1 and together.shape == (n, len(texts), 6)
        for k in range(1, n + 1):
            alone, _ = kernel_module.score_evals("N", corpus, jobs, n=k, best_model=best_model,
                                                 alpha=0.3)
            expected, _ = spec.score_evals("N", spec_corpus, spec_jobs, n=k,
                                           best_model=best_model, alpha=0.3)
            assert (together[k - 1] == alone).all() and (alone == expected).all(), k
    # An order longer than any text: no grams, no error.
    huge, bad = kernel_module.score_evals("N", corpus, jobs, n=10**9, best_model=best_model)
    assert bad == -1 and (huge[:, 1] == 0).all() and (huge[:, 3:] == 0).all()
    with pytest.raises(ValueError, match="all_n"):
        kernel_module.score_evals("L", corpus, jobs, all_n=True)
    with pytest.raises(ValueError, match="all_n"):
        kernel_module.score_evals("N", corpus, jobs, n=65, all_n=True)


@pytest.mark.parametrize("token_counts", [False, True])
@pytest.mark.parametrize("resamples", [1, 7, 100.5])
def test_resamples_drawn_in_parts_equal_all_at_once(token_counts, resamples):
    """``bootstrap`` is ``resample_means`` then ``summarize_resamples``;
    resamples drawn in parts (as threads draw them) join into the same
    means, and the compiled kernel's equal the pure one's (the
    specification) with ==."""
    values = np.random.default_rng(3).integers(0, 40, size=(301, 9)).astype(float)
    values[:, 2] = np.minimum(values[:, 2], values[:, 0])      # hits <= counts
    count = int(np.ceil(resamples))
    results = []
    for k in map(kernels, kernel_names()):
        whole = k.resample_means(values, resamples, 0, count, token_counts=token_counts,
                                 alpha=0.3)
        assert whole.shape == (9, count)
        cuts = [0, count // 3, count // 3, count]
        parts = np.hstack([k.resample_means(values, resamples, a, b,
                                            token_counts=token_counts, alpha=0.3)
                           for a, b in zip(cuts, cuts[1:])])
        assert (parts == whole).all()
        summary = k.summarize_resamples(whole, resamples, 90)
        direct = k.bootstrap(values, resamples, 90, token_counts=token_counts, alpha=0.3)
        assert all((a == b).all() for a, b in zip(summary, direct))
        results.append((whole, summary))
        with pytest.raises(ValueError, match="out of range"):
            k.resample_means(values, resamples, 0, count + 1)
        with pytest.raises(ValueError, match="resamples"):
            k.summarize_resamples(whole[:, :-1], resamples, 90)
    for whole, summary in results[1:]:
        assert (whole == results[0][0]).all()
        assert all((a == b).all() for a, b in zip(summary, results[0][1]))


@pytest.mark.parametrize("token_counts", [False, True])
def test_every_summing_kernel_gives_the_specification_s_means(token_counts):
    """The compiled bootstrap sums 2, 4 (AVX2) or 8 (AVX-512) resamples at
    once, and with AVX-512 DQ draws eight generators in one vector, four
    steps ahead. Every kernel this CPU runs equals the pure kernel (the
    specification) with ==: instance counts that are and are not multiples
    of the lanes and of the four-step jump, resample ranges that start and
    end inside a group of lanes, columns across several blocks of eight."""
    if "compiled" not in kernel_names():
        pytest.skip("the compiled core is not built here")
    compiled, pure = kernels("compiled"), kernels("pure")
    widest = compiled._resample_lanes()
    assert widest in (2, 4, 8)
    rng = np.random.default_rng(11)
    lanes = [k for k in (2, 4, 8) if k <= widest]
    for n in (1, 2, 3, 4, 5, 9, 31, 64, 203):
        values = rng.integers(0, 40, size=(n, 21)).astype(float) / 7
        values[:, 2::3] = np.minimum(values[:, 2::3], values[:, 0::3])
        for first, last in ((0, 23), (3, 17), (5, 6), (9, 9)):
            expected = pure.resample_means(values, 23, first, last,
                                           token_counts=token_counts, alpha=0.4)
            for k in lanes:
                old = compiled._set_resample_lanes(k)
                try:
                    got = compiled.resample_means(values, 23, first, last,
                                                  token_counts=token_counts, alpha=0.4)
                finally:
                    compiled._set_resample_lanes(old)
                assert got.shape == expected.shape
                assert (got == expected).all(), (n, first, last, k)
    for bad in (1, 3, 16, widest * 2):
        with pytest.raises(ValueError, match="lanes"):
            compiled._set_resample_lanes(bad)


# --- options and errors -----------------------------------------------------------------

@pytest.mark.parametrize("kwargs,error,name", [
    (dict(max_n=-1), ValueError, "max_n"),
    (dict(max_n=1.5), TypeError, "max_n"),
    (dict(max_n=True), TypeError, "max_n"),
    (dict(weight=0), ValueError, "weight"),
    (dict(weight="1.2"), TypeError, "weight"),
    (dict(weight=float("nan")), ValueError, "weight"),
    (dict(word_limit=5, byte_limit=5), ValueError, "byte_limit"),
    (dict(formula="C"), ValueError, "formula"),
    (dict(alpha=1.5), ValueError, "alpha"),
    (dict(confidence=101), ValueError, "confidence"),
    (dict(resamples=0), ValueError, "resamples"),
    (dict(counting_unit=3), ValueError, "counting_unit"),
    (dict(stem="yes"), TypeError, "stem"),
    (dict(skip_distance=float("inf")), ValueError, "skip_distance"),
])
def test_bad_options_name_the_keyword(kwargs, error, name):
    with pytest.raises(error, match=name):
        Rouge155(**kwargs)
    with pytest.raises(TypeError, match="unexpected keyword"):
        Rouge155(n=2)


def test_bad_inputs(tmp_path, monkeypatch):
    scorer_ = Rouge155(max_n=1)
    with pytest.raises(TypeError, match="candidates"):
        scorer_.score_corpus("a text", ["a"])
    with pytest.raises(ValueError, match="references has 1"):
        scorer_.score_corpus(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        scorer_.score_corpus(["a"], [[]])
    for kw in ({}, {"word_limit": 5}):         # texts read at once, or one by one
        scorer_ = Rouge155(max_n=1, **kw)
        with pytest.raises(TypeError, match=r"references\[0\]\[0\] must be a str or bytes"):
            scorer_.score_corpus(["a"], [[3]])
        with pytest.raises(TypeError, match=r"candidates\[1\] must be a str or bytes, not None"):
            scorer_.score_corpus(["a", None], [["a"], ["b"]])
        with pytest.raises(TypeError, match=r"references\[2\]\[1\] must be a str or bytes"):
            scorer_.score_corpus(["a", "b", "c"], [["a"], "b", ("c", 1.5)])
    with pytest.raises(FileNotFoundError):
        read_config(tmp_path / "missing.xml")
    bad = tmp_path / "bad.xml"
    bad.write_text("<ROUGE-EVAL>\n<EVAL ID='1'>\n</ROUGE-EVAL>\n")
    with pytest.raises(ConfigError, match=r"bad.xml line 3"):
        read_config(bad)
    bad.write_text("<ROUGE-EVAL><EVAL><PEERS/></EVAL></ROUGE-EVAL>")
    with pytest.raises(ConfigError, match="no ID attribute"):
        read_config(bad)
    bad.write_text('<ROUGE-EVAL><EVAL ID="1"><INPUT-FORMAT TYPE="HTML"/></EVAL></ROUGE-EVAL>')
    with pytest.raises(ConfigError, match="unknown input type 'HTML'"):
        read_config(bad)
    bad.write_text('<ROUGE-EVAL><PEERS><P ID="A">x</P></PEERS></ROUGE-EVAL>')
    with pytest.raises(ConfigError, match="outside an <EVAL>"):
        read_config(bad)
    lst = tmp_path / "list.txt"
    lst.write_text("peer.txt model.txt\njust-one.txt\n")
    with pytest.raises(ConfigError, match="list.txt line 2"):
        read_file_list(lst)
    # Missing summaries, a format the script cannot read, ROUGE-W's death.
    write_inputs(tmp_path, [{"id": "1", "peers": {"A": "a b"}, "models": ["a", ""]}])
    monkeypatch.chdir(tmp_path)
    cfg = read_config("config.xml")
    with pytest.raises(ValueError, match=r"models/1.1.txt has no tokens"):
        Rouge155(weight=1.2).score_config(cfg)
    with pytest.raises(ValueError, match=r"summary references\[1\]\[1\] has no tokens"):
        Rouge155(weight=1.2).score_corpus(["a", "a b"], [["a"], ["a", "..."]])
    with pytest.raises(ValueError, match=r"summary references\[1\]\[1\] has no tokens"):  # -l
        Rouge155(weight=1.2, word_limit=5).score_corpus(["a", "a b"], [["a"], ["a", "..."]])
    # In the last of three shards, and in the first: the first in order is named.
    monkeypatch.setattr(rouge155_corpus, "SHARD_MIN_TEXTS", 1)
    monkeypatch.setattr(rouge155_run, "THREAD_MIN_DOCS", 1)
    cands, refs = ["a", "b", "c", "d", "e"], [["a"], ["b"], ["c"], ["d"], ["e", "x", "!"]]
    with pytest.raises(ValueError, match=r"summary references\[4\]\[2\] has no tokens"):
        Rouge155(weight=1.2, threads=3).score_corpus(cands, refs)
    refs[1] = ["-"]
    with pytest.raises(ValueError, match=r"summary references\[1\]\[0\] has no tokens"):
        Rouge155(weight=1.2, threads=3).score_corpus(cands, refs)
    (tmp_path / "models" / "1.1.txt").unlink()
    for threads in (1, 2):       # files read in one call, or in parts on threads
        with pytest.raises(FileNotFoundError, match="1.1.txt"):
            Rouge155(threads=threads).score_config(cfg)
    (tmp_path / "models" / "1.1.txt").mkdir()
    for kw in ({}, {"word_limit": 5}):
        with pytest.raises(FileNotFoundError, match=r"1.1.txt is a directory, not a summary"):
            Rouge155(**kw).score_config(cfg)
    (tmp_path / "models" / "1.1.txt").rmdir()
    cfg.evaluations[0].input_format = "SIMPLE"
    with pytest.raises(ValueError, match="unknown input format 'SIMPLE'"):
        Rouge155().score_config(cfg)


def test_result_objects(corpus, monkeypatch):
    workdir, _ = corpus
    monkeypatch.chdir(workdir)
    cfg = read_config("config.xml")
    cfg.evaluations[3].peers.clear()                 # evaluation 4 has no summary of A
    result = Rouge155(max_n=1, weight=1.2).score_config(cfg)
    assert result.missing == [("4", "A")]
    m = result["A"]["ROUGE-W-1.2"]
    assert len(m.documents) == len(cfg.evaluations) - 1 and "4" not in m.documents
    assert list(m.documents)[:3] == ["1", "10", "11"]           # the instances' order
    assert m.recall_interval.low <= m.recall <= m.recall_interval.high
    doc = m.documents["1"]
    assert doc.recall == float("%.5f" % doc.recall) and doc.hits > 0
    assert "ROUGE-W-1.2" in repr(m)
    assert str(result) == result.render()


def test_output_bytes_of_non_ascii_ids():
    """Perl prints a line whose characters are all below 256 one byte each,
    and any other line in UTF-8."""
    r = Rouge155(max_n=1).score_corpus(["a b"], [["a"]], system_id="\u00e9")
    assert r.render_bytes().splitlines()[1].startswith(b"\xe9 ROUGE-1")
    r = Rouge155(max_n=1).score_corpus(["a b"], [["a"]], system_id="\u65e5")
    assert r.render_bytes().splitlines()[1].startswith("\u65e5 ROUGE-1".encode("utf-8"))


def test_flags_are_read_as_the_command_line_and_the_flavor_read_them():
    from rougekit.rouge155 import Rouge155
    from rougekit.rouge155.options import parse_argv
    flags = "-n 4 -w 1.2 -2 4 -u -m -s -c 90 -r 50"
    assert Rouge155(flags=flags).options == parse_argv(flags.split())[0]
    assert Rouge155(flags=flags).options == Rouge155(
        max_n=4, weight=1.2, skip_distance=4, skip_unigrams=True, stem=True,
        remove_stopwords=True, confidence=90, resamples=50, weight_text="1.2",
        skip_text="4", confidence_text="90").options
    with pytest.raises(ValueError, match="not both: max_n"):
        Rouge155(flags="-n 2", max_n=2)
    with pytest.raises(ValueError, match="unknown option -q"):
        Rouge155(flags="-q")
