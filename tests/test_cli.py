"""The ``rougekit`` command, run for real in a subprocess."""
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from rouge_score import rouge_scorer as ref
from rouge_score import scoring

from _helpers import run_cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


run = run_cli


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return p


def reference_means(cands, refs_per_item, use_stemmer=False):
    """rouge-score's per-item scores (its score_multi for several references),
    averaged as rougekit defines its means: the float nearest the exact mean."""
    scorer = ref.RougeScorer(TYPES, use_stemmer=use_stemmer)
    items = [scorer.score_multi(refs, cand) if len(refs) > 1 else scorer.score(refs[0], cand)
             for cand, refs in zip(cands, refs_per_item)]
    n = len(items)
    return {t: {field: float(sum(Fraction(getattr(s[t], field)) for s in items) / n)
                for field in ("precision", "recall", "fmeasure")}
            for t in TYPES}


def lines(path):
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def example_files():
    if not (EXAMPLES / "candidates.txt").exists():
        pytest.skip("examples/ not present (tests run outside the source tree)")
    return EXAMPLES / "candidates.txt", EXAMPLES / "references.txt", EXAMPLES / "references2.txt"


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
def test_json_equals_rouge_score_means(example_files, stem):
    cands, refs, _ = example_files
    args = ["score", "--candidates", cands, "--references", refs, "--format", "json"]
    proc = run(*args, *(["--stemmer"] if stem else []))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    expected = reference_means(lines(cands), [[r] for r in lines(refs)], stem)
    assert out["n_items"] == len(lines(cands))
    assert out["scores"] == expected


def test_multi_reference_uses_best_reference(example_files):
    cands, refs, refs2 = example_files
    proc = run("score", "--candidates", cands, "--references", refs,
               "--references", refs2, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    expected = reference_means(lines(cands), [list(p) for p in zip(lines(refs), lines(refs2))])
    assert json.loads(proc.stdout)["scores"] == expected


def test_table_output(example_files):
    cands, refs, _ = example_files
    proc = run("score", "--candidates", cands, "--references", refs)
    assert proc.returncode == 0, proc.stderr
    expected = reference_means(lines(cands), [[r] for r in lines(refs)])
    rows = {line.split()[0]: line.split()[1:] for line in proc.stdout.splitlines()[1:5]}
    for t in TYPES:
        assert rows[t] == [f"{expected[t][k]:.4f}" for k in ("precision", "recall", "fmeasure")]
    assert "20 items" in proc.stdout


def test_rouge_types_option(tmp_path):
    c = write(tmp_path, "c.txt", "the cat sat\n")
    r = write(tmp_path, "r.txt", "the cat sat down\n")
    proc = run("score", "--candidates", c, "--references", r,
               "--rouge-types", "rouge3,rougeL", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert list(json.loads(proc.stdout)["scores"]) == ["rouge3", "rougeL"]


def test_crlf_line_endings_are_accepted(tmp_path):
    c = write(tmp_path, "c.txt", "the cat sat\r\na dog ran\r\n")
    r = write(tmp_path, "r.txt", "the cat sat\na dog ran\n")
    proc = run("score", "--candidates", c, "--references", r, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scores"]["rouge1"]["fmeasure"] == 1.0


def test_python_dash_m_and_entry_point_agree(example_files):
    cands, refs, _ = example_files
    a = run("score", "--candidates", cands, "--references", refs, "--format", "json")
    exe = Path(sys.executable).with_name("rougekit")
    if not exe.exists():
        pytest.skip("rougekit console script not installed next to this python")
    b = subprocess.run([str(exe), "score", "--candidates", str(cands), "--references",
                        str(refs), "--format", "json"], capture_output=True, text=True)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout


# --- user errors: one line on stderr, exit 2, no traceback -----------------

def assert_user_error(proc, *fragments):
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    err = proc.stderr.strip()
    assert len(err.splitlines()) == 1, err
    for f in fragments:
        assert f in err, (f, err)


def test_missing_file(tmp_path):
    r = write(tmp_path, "r.txt", "x\n")
    missing = tmp_path / "nope.txt"
    assert_user_error(run("score", "--candidates", missing, "--references", r), str(missing))


def test_unequal_line_counts(tmp_path):
    c = write(tmp_path, "c.txt", "a\nb\nc\n")
    r = write(tmp_path, "r.txt", "a\nb\n")
    assert_user_error(run("score", "--candidates", c, "--references", r),
                      str(c), str(r), "3", "2")


def test_not_utf8_names_file_and_offset(tmp_path):
    c = write(tmp_path, "c.txt", b"good line\nbad \xff byte\n")
    r = write(tmp_path, "r.txt", "a\nb\n")
    assert_user_error(run("score", "--candidates", c, "--references", r),
                      str(c), "UTF-8", "offset 14")


def test_unknown_rouge_type(tmp_path):
    c = write(tmp_path, "c.txt", "a\n")
    assert_user_error(run("score", "--candidates", c, "--references", c,
                          "--rouge-types", "rouge1,rougeX"), "rougeX")


def test_empty_input(tmp_path):
    c = write(tmp_path, "c.txt", "")
    assert_user_error(run("score", "--candidates", c, "--references", c), "no lines")


# --- JSONL input ---------------------------------------

def test_jsonl_equals_rouge_score_multi(tmp_path, example_files):
    cands, refs, refs2 = example_files
    items = [{"candidate": c, "references": [a, b]}
             for c, a, b in zip(lines(cands), lines(refs), lines(refs2))]
    items[0]["references"] = items[0]["references"][0]      # a single str is accepted
    path = write(tmp_path, "items.jsonl", "\n".join(json.dumps(i) for i in items) + "\n")
    proc = run("score", "--jsonl", path, "--format", "json", "--stemmer")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    refs_per_item = [[i["references"]] if isinstance(i["references"], str) else i["references"]
                     for i in items]
    assert out["scores"] == reference_means([i["candidate"] for i in items], refs_per_item, True)
    assert out["signature"].startswith("rougekit:")
    assert "stem:porter" in out["signature"] and "multi:max" in out["signature"]


def test_jsonl_policies_change_the_numbers(tmp_path):
    items = [{"candidate": "the cat sat on the mat",
              "references": ["the cat sat", "a dog lay on a rug"]}]
    path = write(tmp_path, "i.jsonl", json.dumps(items[0]) + "\n")
    f = {}
    for policy in ("max", "mean"):
        proc = run("score", "--jsonl", path, "--format", "json", "--multi-ref", policy)
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert f"multi:{policy}" in out["signature"]
        f[policy] = out["scores"]["rouge1"]["fmeasure"]
    assert f["max"] > f["mean"]


@pytest.mark.parametrize("content,fragments", [
    ('{"candidate": "a", "references": ["a"]}\n{"candidate": "b", oops}\n',
     ["line 2", "not valid JSON"]),
    ('{"candidate": "a"}\n', ["line 1", '"references"']),
    ('{"candidate": 3, "references": ["a"]}\n', ["line 1", '"candidate" must be a string']),
    ('{"candidate": "a", "references": []}\n', ["line 1", "non-empty"]),
    ('[1, 2]\n', ["line 1", "JSON object"]),
    ('\n\n', ["no items"]),
])
def test_malformed_jsonl(tmp_path, content, fragments):
    path = write(tmp_path, "bad.jsonl", content)
    assert_user_error(run("score", "--jsonl", path), str(path), *fragments)


def test_jsonl_and_candidates_are_exclusive(tmp_path):
    p = write(tmp_path, "x.jsonl", '{"candidate": "a", "references": ["a"]}\n')
    assert_user_error(run("score", "--jsonl", p, "--candidates", p, "--references", p),
                      "either --jsonl")
    assert_user_error(run("score"), "either --jsonl")


def test_example_jsonl_runs(example_files):
    proc = run("score", "--jsonl", EXAMPLES / "pairs.jsonl")
    assert proc.returncode == 0, proc.stderr
    assert "12 items" in proc.stdout


# --- score: bootstrap intervals, csv, per-item scores --------------------------

def corpus_json(result, types):
    """score_corpus's result as `rougekit score --format json` prints it."""
    return json.loads(json.dumps({t: result.scores[t]._asdict() for t in types}))


def test_bootstrap_intervals_equal_score_corpus(example_files):
    from rougekit import score_corpus
    cands, refs, refs2 = example_files
    proc = run("score", "--candidates", cands, "--references", refs, "--references", refs2,
               "--bootstrap", 300, "--confidence", 0.9, "--seed", 7, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    expected = score_corpus(lines(cands), [list(p) for p in zip(lines(refs), lines(refs2))],
                            TYPES, bootstrap=300, confidence=0.9, seed=7)
    assert out["signature"] == expected.signature
    assert "boot:300,ci:0.9,seed:7" in out["signature"]
    assert out["confidence"] == 0.9
    assert out["scores"] == corpus_json(expected, TYPES)
    for t in TYPES:
        assert out["intervals"][t]["low"] == expected.intervals[t].low._asdict()
        assert out["intervals"][t]["high"] == expected.intervals[t].high._asdict()


def test_chunked_scoring_equals_one_call(tmp_path):
    # More items than the CLI scores per chunk (2000): the corpus means and the
    # bootstrap intervals must still be those of one score_corpus call.
    from rougekit import score_corpus
    from rougekit.cli import CHUNK
    rng = __import__("random").Random(0)
    words = "the a cat dog sat ran on under mat rug big small red".split()
    n = 2 * CHUNK + 123
    cands = [" ".join(rng.choices(words, k=rng.randint(0, 9))) for _ in range(n)]
    refs = [" ".join(rng.choices(words, k=rng.randint(1, 9))) for _ in range(n)]
    c = write(tmp_path, "c.txt", "\n".join(cands) + "\n")
    r = write(tmp_path, "r.txt", "\n".join(refs) + "\n")
    proc = run("score", "--candidates", c, "--references", r, "--bootstrap", 50,
               "--seed", 1, "--format", "json", "--per-item", tmp_path / "items.jsonl")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""                     # no progress line off a terminal
    out = json.loads(proc.stdout)
    expected = score_corpus(cands, [[x] for x in refs], TYPES, bootstrap=50, seed=1)
    assert out["n_items"] == n
    assert out["scores"] == corpus_json(expected, TYPES)
    for t in TYPES:
        assert out["intervals"][t]["low"] == expected.intervals[t].low._asdict()
    per_item = [json.loads(x) for x in lines(tmp_path / "items.jsonl")]
    assert len(per_item) == n
    assert per_item[n - 1]["rougeL"] == expected.per_item[n - 1]["rougeL"]._asdict()


def test_per_item_file(tmp_path):
    c = write(tmp_path, "c.txt", "the cat sat\n\na dog ran\n")
    r = write(tmp_path, "r.txt", "the cat sat down\nsomething\na dog ran\n")
    out_file = tmp_path / "per_item.jsonl"
    proc = run("score", "--candidates", c, "--references", r, "--rouge-types", "rouge1,rougeL",
               "--per-item", out_file)
    assert proc.returncode == 0, proc.stderr
    items = [json.loads(x) for x in lines(out_file)]
    assert len(items) == 3
    assert list(items[0]) == ["rouge1", "rougeL"]
    # "the cat sat" against "the cat sat down": P = 3/3, R = 3/4.
    assert items[0]["rouge1"] == {"precision": 1.0, "recall": 0.75,
                                  "fmeasure": scoring.fmeasure(1.0, 0.75)}
    assert items[1]["rouge1"] == {"precision": 0.0, "recall": 0.0, "fmeasure": 0.0}
    assert items[2]["rougeL"]["fmeasure"] == 1.0


def test_csv_output(example_files):
    import csv
    import io
    cands, refs, _ = example_files
    common = ["score", "--candidates", cands, "--references", refs, "--bootstrap", 100,
              "--seed", 2]
    as_json = json.loads(run(*common, "--format", "json").stdout)
    proc = run(*common, "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert [row["rouge_type"] for row in rows] == TYPES
    for row in rows:
        t = row["rouge_type"]
        for m in ("precision", "recall", "fmeasure"):
            assert float(row[m]) == as_json["scores"][t][m]
            assert float(row[f"{m}_low"]) == as_json["intervals"][t]["low"][m]
            assert float(row[f"{m}_high"]) == as_json["intervals"][t]["high"][m]
        assert row["n_items"] == "20" and row["signature"] == as_json["signature"]
    plain = run("score", "--candidates", cands, "--references", refs, "--format", "csv")
    assert plain.stdout.splitlines()[0] == \
        "rouge_type,precision,recall,fmeasure,n_items,signature"


def test_table_with_intervals(example_files):
    cands, refs, _ = example_files
    proc = run("score", "--candidates", cands, "--references", refs, "--bootstrap", 100,
               "--seed", 2, "--confidence", 0.8)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert "80% CI" in out[0]
    assert out[1].startswith("rouge1") and out[1].count("[") == 3
    assert "boot:100,ci:0.8,seed:2" in out[-1]


def test_bootstrap_with_a_seed_reproduces(example_files):
    cands, refs, _ = example_files
    args = ["score", "--candidates", cands, "--references", refs, "--bootstrap", 200,
            "--seed", 5, "--format", "json"]
    assert run(*args).stdout == run(*args).stdout


# --- compare -----------------------------------------------------------------------

@pytest.fixture
def two_systems(tmp_path):
    """30 items; system B is the reference itself, so it wins on every item."""
    rng = __import__("random").Random(3)
    words = "the a cat dog sat ran on under mat rug big small red".split()
    refs = [" ".join(rng.choices(words, k=8)) for _ in range(30)]
    a = [" ".join(r.split()[:3] + ["zebra"]) for r in refs]
    return (write(tmp_path, "a.txt", "\n".join(a) + "\n"),
            write(tmp_path, "b.txt", "\n".join(refs) + "\n"),
            write(tmp_path, "ref.txt", "\n".join(refs) + "\n"))


def compare(a, b, ref, *extra):
    return run("compare", "--candidates-a", a, "--candidates-b", b, "--references", ref, *extra)


def test_compare_a_system_better_on_every_item(two_systems):
    a, b, ref = two_systems
    proc = compare(a, b, ref, "--ar-trials", 999, "--bootstrap", 200, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["n_items"] == 30 and out["seed"] == 12345
    assert "test:pbs:200,ci:0.95,ar:999,seed:12345" in out["signature"]
    for t in TYPES:
        for m in ("precision", "recall", "fmeasure"):
            r = out["results"][t][m]
            assert r["b"] == 1.0 and r["diff"] == r["b"] - r["a"] > 0
            assert r["p_ar"] == 1 / 1000 and r["p_bootstrap"] == 0.0
            # (a constant per-item difference makes the interval a point, up to rounding)
            assert 0 < r["ci_low"] <= r["diff"] + 1e-12 and r["diff"] <= r["ci_high"] + 1e-12


def test_compare_identical_systems(two_systems):
    a, _, ref = two_systems
    proc = compare(a, a, ref, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    for per_type in json.loads(proc.stdout)["results"].values():
        for r in per_type.values():
            assert r["diff"] == 0 and r["ci_low"] == r["ci_high"] == 0
            assert r["p_ar"] == 1.0 and r["p_bootstrap"] == 1.0


def test_compare_equals_the_library(example_files):
    from rougekit import score_corpus
    from rougekit.significance import approximate_randomization, paired_bootstrap
    cands, refs, refs2 = example_files
    proc = run("compare", "--candidates-a", cands, "--candidates-b", refs2, "--references",
               refs, "--rouge-types", "rouge2,rougeL", "--stemmer", "--seed", 4,
               "--bootstrap", 300, "--ar-trials", 2000, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    types = ["rouge2", "rougeL"]
    measures = ["precision", "recall", "fmeasure"]
    ra, rb = (score_corpus(lines(x), [[y] for y in lines(refs)], types, use_stemmer=True)
              for x in (cands, refs2))
    # compare tests every (type, measure) column at once, so that all see the same
    # resamples and swaps: one row per item, P, R, F of each type in turn. The
    # resampled means of a 2-D array sum each column row by row, while a 1-D array
    # is summed pairwise, so the library is called on the same 2-D layout: then
    # the interval bounds are the same floats, not just close ones.
    a, b = ([[getattr(s[t], m) for t in types for m in measures] for s in r.per_item]
            for r in (ra, rb))
    boot = paired_bootstrap(a, b, 300, 0.95, 4)
    p_ar = approximate_randomization(a, b, 2000, 4)
    for k, t in enumerate(types):
        for j, m in enumerate(measures):
            col, r = 3 * k + j, out["results"][t][m]
            va, vb = getattr(ra.scores[t], m), getattr(rb.scores[t], m)
            assert (r["a"], r["b"], r["diff"]) == (va, vb, vb - va)
            assert r["ci_low"] == boot.low[col] and r["ci_high"] == boot.high[col]
            assert r["p_bootstrap"] == boot.p_value[col]
            assert r["p_ar"] == p_ar[col]
    for t in types:
        # One measure on its own gives the same p-values (the same draws).
        a1 = [s[t].fmeasure for s in ra.per_item]
        b1 = [s[t].fmeasure for s in rb.per_item]
        r = out["results"][t]["fmeasure"]
        assert r["p_bootstrap"] == paired_bootstrap(a1, b1, 300, 0.95, 4).p_value
        assert r["p_ar"] == approximate_randomization(a1, b1, 2000, 4)
    assert out["signature"].startswith(ra.signature.replace("|boot:none", ""))
    assert "stem:porter" in out["signature"]


def test_compare_table_and_seed(example_files):
    cands, refs, refs2 = example_files
    args = ["compare", "--candidates-a", cands, "--candidates-b", refs2, "--references", refs,
            "--bootstrap", 200, "--ar-trials", 500]
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0].split()[:4] == ["F", "A", "B", "B-A"]
    assert [line.split()[0] for line in out[1:5]] == TYPES
    assert "20 items" in out[5] and str(cands) in out[5]
    assert out[-1].endswith("seed:12345")
    assert run(*args).stdout == proc.stdout                      # default seed: reproducible
    assert run(*args, "--seed", 1).stdout != proc.stdout


def test_compare_multiple_references(two_systems, tmp_path):
    a, b, ref = two_systems
    other = write(tmp_path, "other.txt", "x\n" * 30)
    proc = compare(a, b, ref, "--references", other, "--multi-ref", "mean", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert "multi:mean" in out["signature"]
    assert out["results"]["rouge1"]["recall"]["b"] == 0.5     # mean of 1 and 0


# --- compare --jsonl: {"candidate_a": ..., "candidate_b": ..., "references": [...]} -----

def compare_jsonl_file(tmp_path, a, b, refs):
    """The JSONL twin of compare's text files a, b and refs (a list of files):
    one reference is written as a plain string, several as a list."""
    texts_a, texts_b = lines(a), lines(b)
    refs_per_item = [list(x) for x in zip(*map(lines, refs))]
    items = [{"candidate_a": x, "candidate_b": y, "references": r[0] if len(r) == 1 else r}
             for x, y, r in zip(texts_a, texts_b, refs_per_item)]
    return write(tmp_path, "ab.jsonl", "".join(json.dumps(i) + "\n" for i in items))


@pytest.mark.parametrize("fmt", ["json", "table"])
@pytest.mark.parametrize("n_refs,extra", [
    (1, []),
    (2, ["--stemmer", "--multi-ref", "mean", "--rouge-types", "rouge1,rougeLsum"]),
], ids=["one-ref", "two-refs"])
def test_compare_jsonl_equals_text_files(example_files, tmp_path, fmt, n_refs, extra):
    cands, refs, refs2 = example_files
    ref_files = [refs, refs2][:n_refs]
    path = compare_jsonl_file(tmp_path, cands, refs2, ref_files)
    common = ["--bootstrap", 200, "--ar-trials", 500, "--seed", 9, "--format", fmt, *extra]
    plain = run("compare", "--candidates-a", cands, "--candidates-b", refs2,
                *[x for f in ref_files for x in ("--references", f)], *common)
    from_jsonl = run("compare", "--jsonl", path, *common)
    assert plain.returncode == 0, plain.stderr
    assert from_jsonl.returncode == 0, from_jsonl.stderr
    # (both warn, once, that rougeLsum gets several sentences on one line)
    assert from_jsonl.stderr == plain.stderr
    assert "error" not in plain.stderr
    # Everything is equal but the names of the two systems, which say where they came from.
    label_a, label_b = f"{path}#candidate_a", f"{path}#candidate_b"
    if fmt == "json":
        out = json.loads(plain.stdout)
        assert (out["a"], out["b"]) == (str(cands), str(refs2))
        assert json.loads(from_jsonl.stdout) == {**out, "a": label_a, "b": label_b}
    else:
        names = f"A: {cands} · B: {refs2} · 20 items"
        assert names in plain.stdout.splitlines()
        assert from_jsonl.stdout == plain.stdout.replace(
            names, f"A: {label_a} · B: {label_b} · 20 items")


def test_compare_jsonl_skips_blank_lines_and_other_fields(tmp_path):
    path = write(tmp_path, "ab.jsonl",
                 '{"id": 1, "candidate_a": "the cat", "candidate_b": "the cat sat",'
                 ' "references": ["the cat sat"]}\n\n'
                 '{"candidate_a": "a dog", "candidate_b": "a dog ran",'
                 ' "references": "a dog ran"}\n')
    proc = run("compare", "--jsonl", path, "--rouge-types", "rouge1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["n_items"] == 2
    assert out["results"]["rouge1"]["recall"]["a"] == (2 / 3 + 2 / 3) / 2
    assert out["results"]["rouge1"]["recall"]["b"] == 1.0


def test_compare_jsonl_and_text_files_are_exclusive(two_systems, tmp_path):
    a, b, ref = two_systems
    p = write(tmp_path, "ab.jsonl",
              '{"candidate_a": "a", "candidate_b": "b", "references": ["a"]}\n')
    either = ("give either --jsonl FILE or --candidates-a FILE --candidates-b FILE "
              "--references FILE")
    assert_user_error(compare(a, b, ref, "--jsonl", p), either,
                      "not both (--candidates-a, --candidates-b, --references with --jsonl)")
    assert_user_error(run("compare", "--jsonl", p, "--references", ref), either,
                      "not both (--references with --jsonl)")
    assert_user_error(run("compare", "--jsonl", p, "--candidates-b", b), either,
                      "not both (--candidates-b with --jsonl)")
    neither = run("compare", "--rouge-types", "rouge1")
    assert_user_error(neither, either)
    assert neither.stderr == f"rougekit: error: {either}\n"


@pytest.mark.parametrize("content,fragments", [
    ('{"candidate_a": "a", "candidate_b": "b", "references": ["a"]}\n'
     '{"candidate_a": "b", oops}\n', ["line 2", "not valid JSON"]),
    ('{"candidate_a": "a", "references": ["a"]}\n', ["line 1", 'missing field "candidate_b"']),
    ('{"candidate_a": "a", "candidate_b": "b"}\n', ["line 1", 'missing field "references"']),
    ('{"candidate": "a", "references": ["a"]}\n', ["line 1", 'missing field "candidate_a"']),
    ('{"candidate_a": "a", "candidate_b": ["b"], "references": ["a"]}\n',
     ["line 1", '"candidate_b" must be a string']),
    ('{"candidate_a": "a", "candidate_b": "b", "references": ["a", 7]}\n',
     ["line 1", '"references" must be a string or a non-empty list of strings']),
    ('\n{"candidate_a": "a", "candidate_b": "b", "references": []}\n', ["line 2", "non-empty"]),
    ('"just a string"\n', ["line 1", "expected a JSON object, got a string"]),
    ('\n\n', ["no items"]),
])
def test_compare_malformed_jsonl(tmp_path, content, fragments):
    path = write(tmp_path, "bad.jsonl", content)
    assert_user_error(run("compare", "--jsonl", path), str(path), *fragments)


def test_compare_jsonl_file_problems(tmp_path):
    missing = tmp_path / "absent.jsonl"
    assert_user_error(run("compare", "--jsonl", missing), "cannot read", str(missing))
    bad = write(tmp_path, "latin1.jsonl", '{"candidate_a": "caf\xe9"}\n'.encode("latin-1"))
    assert_user_error(run("compare", "--jsonl", bad), str(bad), "UTF-8", "offset 20")


# --- progress line and Ctrl-C (need a terminal: a pseudo-terminal) ------------------

def run_on_pty(args, interrupt_when_busy=False, timeout=120):
    """Run rougekit with stderr on a pseudo-terminal; returns (exit code, stderr).
    With ``interrupt_when_busy``, the command sends itself SIGINT (a Ctrl-C)
    once it is scoring items (tests/_helpers.py's INTERRUPT_WHEN_BUSY): the
    signal lands while the work runs however busy the machine is."""
    pytest.importorskip("pty")                    # POSIX only

    from _helpers import INTERRUPT_WHEN_BUSY, run_on_terminal
    if interrupt_when_busy:
        command = [sys.executable, "-c", INTERRUPT_WHEN_BUSY
                   + "interrupt_when_busy('score_items')\n"
                   + "import rougekit.cli\nsys.exit(rougekit.cli.main(sys.argv[1:]))"]
    else:
        command = [sys.executable, "-m", "rougekit"]
    code, err, _ = run_on_terminal([*command, *map(str, args)], "stderr", timeout=timeout)
    return code, err


@pytest.fixture
def long_input(tmp_path):
    rng = __import__("random").Random(1)
    words = "the a cat dog sat ran on under mat rug big small red blue".split()
    text = lambda: " ".join(rng.choices(words, k=60))   # noqa: E731
    n = 60000
    c = write(tmp_path, "c.txt", "".join(text() + "\n" for _ in range(n)))
    r = write(tmp_path, "r.txt", "".join(text() + "\n" for _ in range(n)))
    return c, r


def test_progress_line_on_a_terminal(tmp_path):
    from rougekit.cli import CHUNK
    c = write(tmp_path, "c.txt", "the cat sat\n" * (CHUNK + 5))
    code, err = run_on_pty(["score", "--candidates", c, "--references", c])
    assert code == 0, err
    assert f"{CHUNK + 5}/{CHUNK + 5} items" in err
    assert err.endswith("\r\x1b[K")                  # erased when done


def test_progress_of_the_bootstrap_and_of_the_per_item_file(tmp_path):
    c = write(tmp_path, "c.txt", "the cat sat\n" * 30)
    out = tmp_path / "items.jsonl"
    code, err = run_on_pty(["score", "--candidates", c, "--references", c,
                            "--bootstrap", 70, "--seed", 1, "--per-item", out])
    assert code == 0, err
    assert "bootstrap [" in err and "70/70 resamples" in err
    assert "writing [" in err and "30/30 items" in err
    assert err.endswith("\r\x1b[K")


def test_ctrl_c_stops_with_one_line(long_input):
    c, r = long_input
    code, err = run_on_pty(["score", "--candidates", c, "--references", r, "--jobs", 1,
                            "--rouge-types", "rougeL,rougeLsum"],
                           interrupt_when_busy=True)
    assert code == 130, err
    assert "Traceback" not in err
    assert err.split("\x1b[K")[-1].strip() == "rougekit: interrupted"


# --- more user errors, for score and compare -----------------------------------------

@pytest.mark.parametrize("option,value,fragment", [
    ("--bootstrap", "-1", "--bootstrap: must be >= 0"),
    ("--bootstrap", "many", "--bootstrap: not an integer"),
    ("--confidence", "1.5", "--confidence: must be in [0, 1]"),
    ("--confidence", "-0.1", "--confidence: must be in [0, 1]"),
    ("--confidence", "nan", "--confidence: must be in [0, 1]"),
    ("--confidence", "high", "--confidence: not a number"),
    ("--seed", "-2", "--seed: must be >= 0"),
    ("--jobs", "0", "--jobs: must be >= 1"),
    ("--format", "xml", "--format"),
])
def test_score_bad_option_values(tmp_path, option, value, fragment):
    c = write(tmp_path, "c.txt", "a\n")
    assert_user_error(run("score", "--candidates", c, "--references", c, option, value),
                      fragment)


def test_per_item_file_cannot_be_written(tmp_path):
    c = write(tmp_path, "c.txt", "a\n")
    target = tmp_path / "no_such_dir" / "items.jsonl"
    assert_user_error(run("score", "--candidates", c, "--references", c, "--per-item", target),
                      "cannot write", str(target))


def test_jsonl_field_of_wrong_type(tmp_path):
    p = write(tmp_path, "i.jsonl", '{"candidate": "a", "references": ["a", 7]}\n')
    assert_user_error(run("score", "--jsonl", p), str(p), "line 1", '"references"')


@pytest.mark.parametrize("option,value,fragment", [
    ("--bootstrap", "0", "--bootstrap: must be >= 1"),
    ("--ar-trials", "0", "--ar-trials: must be >= 1"),
    ("--ar-trials", "1e3", "--ar-trials: not an integer"),
    ("--confidence", "2", "--confidence: must be in [0, 1]"),
    ("--seed", "-1", "--seed: must be >= 0"),
    ("--rouge-types", "rouge1,rougeZ", "rougeZ"),
    ("--rouge-types", ",", "--rouge-types is empty"),
    ("--tokenizer", "nope", "--tokenizer"),
])
def test_compare_bad_option_values(two_systems, option, value, fragment):
    a, b, ref = two_systems
    assert_user_error(compare(a, b, ref, option, value), fragment)


def test_compare_missing_arguments(two_systems):
    a, b, ref = two_systems
    assert_user_error(run("compare", "--candidates-a", a, "--references", ref),
                      "missing --candidates-b (", "or --candidates-a FILE")
    assert_user_error(run("compare", "--candidates-a", a, "--candidates-b", b),
                      "missing --references (")
    assert_user_error(run("compare", "--references", ref),
                      "missing --candidates-a and --candidates-b (")


def test_compare_missing_file(two_systems, tmp_path):
    a, _, ref = two_systems
    missing = tmp_path / "absent.txt"
    assert_user_error(compare(a, missing, ref), "cannot read", str(missing))


def test_compare_unequal_line_counts(two_systems, tmp_path):
    a, b, ref = two_systems
    short = write(tmp_path, "short.txt", "x\ny\n")
    assert_user_error(compare(a, short, ref), str(a), "30", str(short), "2")
    assert_user_error(compare(a, b, short), str(a), "30", str(short), "2")
    assert_user_error(compare(a, b, ref, "--references", short), str(short), "2")


def test_compare_not_utf8(two_systems, tmp_path):
    a, _, ref = two_systems
    bad = write(tmp_path, "latin1.txt", "caf\xe9\n".encode("latin-1") * 30)
    assert_user_error(compare(a, bad, ref), str(bad), "UTF-8", "offset 3")


def test_compare_empty_input(tmp_path):
    e = write(tmp_path, "empty.txt", "")
    assert_user_error(compare(e, e, e), str(e), "no lines")


def test_no_subcommand_is_one_line():
    assert_user_error(run(), "required")
    assert_user_error(run("frobnicate"), "frobnicate")


# --- closed and broken output streams (rougekit._streams.guard_streams) ---------------
# A reader that goes away ends every command quietly with 141 (as `cat big | head`
# does in a shell); a stdout closed from the start with 1 (a write error); neither
# prints a message or a traceback. POSIX only: /dev/stdout, sh and SIGPIPE's status.

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX streams")

R155_EVALS = [
    {"id": "1", "peers": {"A": "The cat sat on the mat.\nIt was happy."},
     "models": ["The cat was sitting on the mat.", "A happy cat sat there."]},
    {"id": "2", "peers": {"A": "Stocks fell sharply on Monday."},
     "models": ["Stock markets fell sharply on Monday."]},
]


@pytest.fixture
def stream_commands(tmp_path, example_files):
    """Every subcommand, each with output to write, run in tmp_path. (No
    rougeLsum on the one-text-per-line files: its warning is not asked about.)"""
    from _rouge155 import write_inputs
    cands, refs, refs2 = example_files
    write_inputs(tmp_path, R155_EVALS)
    types = ["--rouge-types", "rouge1,rouge2,rougeL"]
    return {
        "score": ["score", "--candidates", cands, "--references", refs, *types],
        "score-json": ["score", "--jsonl", EXAMPLES / "pairs.jsonl", "--format", "json"],
        "compare": ["compare", "--candidates-a", cands, "--candidates-b", refs2,
                    "--references", refs, "--bootstrap", 20, "--ar-trials", 20, *types],
        "rouge155": ["rouge155", "-n", 2, "-a", "-d", "config.xml"],
        "rouge155-help": ["rouge155", "-h"],
        "rouge155-install": ["rouge155", "--install-script", tmp_path / "rouge"],
        "help": ["--help"],
        "score-help": ["score", "--help"],
    }


STREAM_COMMANDS = ["score", "score-json", "compare", "rouge155", "rouge155-help",
                   "rouge155-install", "help", "score-help"]


def popen(args, cwd=None, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "rougekit", *map(str, args)], cwd=cwd,
                            stderr=subprocess.PIPE, **kwargs)


@posix_only
def test_head_1_ends_quietly(tmp_path):
    """`rougekit score ... --per-item /dev/stdout | head -1`: the reader takes
    the first line and closes the pipe while the command still has megabytes
    to write (far more than a pipe holds), so its next write meets a closed
    pipe for certain: it stops with 141 and nothing on stderr."""
    c = write(tmp_path, "c.txt", "the cat sat on the mat\n" * 20000)
    proc = popen(["score", "--candidates", c, "--references", c, "--per-item", "/dev/stdout"],
                 stdout=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 141, err
    assert first.startswith(b'{"rouge1": {"precision": 1.0')
    assert err == ""


@posix_only
def test_rouge155_head_1_ends_quietly(tmp_path):
    """The same for `rougekit rouge155 -d` on 3,000 evaluations (about a
    megabyte of per-evaluation lines)."""
    from _rouge155 import write_inputs
    write_inputs(tmp_path, R155_EVALS)
    (tmp_path / "list.txt").write_text("peers/1.A.txt models/1.0.txt models/1.1.txt\n" * 3000)
    proc = popen(["rouge155", "-n", 4, "-d", "-r", 10, "-z", "SPL", "list.txt"], cwd=tmp_path,
                 stdout=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 141, err
    assert first == b"-" * 45 + b"\n"
    assert err == ""


@posix_only
@pytest.mark.parametrize("name", STREAM_COMMANDS)
def test_reader_gone_before_the_output(stream_commands, tmp_path, name):
    """The reader closes the pipe before the command writes anything (no
    reader is left, so the write fails whatever the output's size)."""
    proc = popen(stream_commands[name], cwd=tmp_path, stdout=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 141, err
    assert err == ""


def run_stdout_closed(args, cwd=None):
    """The command as `rougekit ARGS >&-` runs it: file descriptor 1 closed."""
    return subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m",
                           "rougekit", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@posix_only
@pytest.mark.parametrize("name", STREAM_COMMANDS)
def test_stdout_closed(stream_commands, tmp_path, name):
    proc = run_stdout_closed(stream_commands[name], cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (1, "")


@posix_only
def test_stdout_closed_still_reports_errors(tmp_path):
    missing = tmp_path / "nope.txt"
    assert_user_error(run_stdout_closed(["score", "--candidates", missing, "--references",
                                         missing]), str(missing))


@posix_only
def test_stderr_closed(example_files):
    """`2>&-`: the warning (the example's one-line multi-sentence texts) and
    the progress check have no stderr; the scores still go to stdout, alone."""
    cands, refs, _ = example_files
    args = ["score", "--candidates", cands, "--references", refs]
    proc = subprocess.run(["sh", "-c", 'exec "$@" 2>&-', "sh", sys.executable, "-m",
                           "rougekit", *map(str, args)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0
    assert proc.stdout == run(*args).stdout


# --- checks before any work, and what reaches a terminal ---------------------------------

def jsonl(tmp_path, name, items):
    return write(tmp_path, name, "".join(json.dumps({"candidate": c, "references": [r]}) + "\n"
                                         for c, r in items))


@pytest.mark.parametrize("flavors", ["", " , ", ","])
def test_audit_flavors_naming_none(tmp_path, flavors):
    path = jsonl(tmp_path, "a.jsonl", [("a b", "a b")])
    proc = run("audit", "--jsonl", path, "--flavors", flavors)
    assert_user_error(proc, "--flavors names no flavor")
    assert proc.stdout == ""


@pytest.mark.parametrize("args,flag", [
    (["--from", "rouge-score", "--to", "nope"], "--to"),
    (["--from", "nope", "--to", "evaluate"], "--from"),
    (["--from", "rouge-score", "--to", "xlsum"], "--to"),          # needs its parameter
    (["--flavors", "rouge-score,nope"], "--flavors"),
    (["--flavors", "pltrdy:x"], "--flavors"),                     # takes none
])
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_audit_names_a_bad_flavor_before_any_work(tmp_path, args, flag, fmt):
    # The input is not there: the flavor is checked first, and nothing is printed.
    proc = run("audit", "--jsonl", tmp_path / "not-there.jsonl", *args, "--format", fmt)
    assert_user_error(proc, f"{flag}: ", "flavor")
    assert proc.stdout == ""


@pytest.mark.parametrize("option", ["report", "per-item"])
@pytest.mark.parametrize("where", ["missing/dir/x.out", "a-folder"])
def test_an_output_that_cannot_be_written_is_said_before_any_work(tmp_path, option, where):
    # The input is not there either: the output is checked before it is read.
    (tmp_path / "a-folder").mkdir()
    out = tmp_path / where
    missing = tmp_path / "not-there.jsonl"
    if option == "report":
        proc = run("report", "--jsonl", missing, "-o", out)
    else:
        proc = run("score", "--jsonl", missing, "--per-item", out)
    assert_user_error(proc, f"cannot write {out}")


@pytest.mark.parametrize("option", ["report", "per-item"])
def test_a_failed_command_leaves_no_output_behind(tmp_path, option):
    bad = write(tmp_path, "bad.jsonl", '{"candidate": "a", "references": ["a"]}\n{oops}\n')
    new, old = tmp_path / "new.out", write(tmp_path, "old.out", "kept\n")
    for out in (new, old):
        if option == "report":
            proc = run("report", "--jsonl", bad, "-o", out)
        else:
            proc = run("score", "--jsonl", bad, "--per-item", out)
        assert_user_error(proc, f"{bad} line 2")
    assert not new.exists()                     # the file it made is removed
    assert old.read_text() == "kept\n"          # one that was there is not touched


HOSTILE = "the \x1b]0;pwned\x07cat \x1b[2J\x1b[31msat\r on\x9b6n the \x01mat\x7f"


def run_explain_on_terminal(*args, env=None):
    pytest.importorskip("pty")                    # POSIX only
    from _helpers import child_env, run_on_terminal
    environ = child_env(**(env or {}))
    environ.pop("NO_COLOR", None)
    environ.update(env or {})
    return run_on_terminal([sys.executable, "-m", "rougekit", "explain", *args], "stdout",
                           env=environ, timeout=60)


@pytest.mark.parametrize("colour", [True, False], ids=["colour", "NO_COLOR"])
def test_explain_escapes_control_characters_on_a_terminal(colour):
    code, out, err = run_explain_on_terminal(
        "--target", HOSTILE, "--prediction", "the cat sat on the mat",
        env=None if colour else {"NO_COLOR": "1"})
    assert code == 0, err
    # Only rougekit's own colour codes reach the terminal, no control of the texts.
    ours = out.replace("\x1b[1;32m", "").replace("\x1b[1m", "").replace("\x1b[0m", "")
    assert ("\x1b[1;32m" in out) == colour
    assert not any(ch in ours for ch in "\x1b\x07\x01\x7f\x9b\r"), repr(ours)
    # rouge1's block: "the" twice, "cat", "on" and "mat" matched.
    target_line = next(line for line in ours.splitlines() if "target:" in line)
    shown = target_line.split("target:", 1)[1].strip()
    expected = ("<the> \\x1b]0;pwned\\x07<cat> \\x1b[2J\\x1b[31msat\\r <on>\\x9b6n <the> "
                "\\x01<mat>\\x7f")
    marks = {"<": "", ">": ""} if colour else {"<": "[", ">": "]"}
    assert shown == expected.translate(str.maketrans(marks))


def test_explain_keeps_the_texts_as_they_are_off_a_terminal():
    # Through a pipe (as ls and git: the bytes are the data) and in JSON.
    proc = run("explain", "--target", HOSTILE, "--prediction", "the cat sat")
    assert proc.returncode == 0, proc.stderr
    assert HOSTILE.split("\r")[0] in proc.stdout
    proc = run("explain", "--target", HOSTILE, "--prediction", "the cat sat",
               "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert not any(ch in proc.stdout for ch in "\x1b\x07\x01\x9b\r")   # JSON escapes
    assert json.loads(proc.stdout)["target"] == HOSTILE


def test_explain_json_on_a_terminal_escapes_c1_controls():
    code, out, err = run_explain_on_terminal("--target", HOSTILE, "--prediction", "the cat",
                                             "--format", "json")
    assert code == 0, err
    assert not any(ch in out for ch in "\x1b\x07\x01\x9b\r")
    assert json.loads(out)["target"] == HOSTILE
