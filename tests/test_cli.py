"""The ``rougekit`` command, run for real in a subprocess."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rouge_score import rouge_scorer as ref

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "rougekit", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return p


def reference_means(cands, refs_per_item, use_stemmer=False):
    scorer = ref.RougeScorer(TYPES, use_stemmer=use_stemmer)
    sums = {t: [0.0, 0.0, 0.0] for t in TYPES}
    for cand, refs in zip(cands, refs_per_item):
        s = scorer.score_multi(refs, cand) if len(refs) > 1 else scorer.score(refs[0], cand)
        for t in TYPES:
            sums[t][0] += s[t].precision
            sums[t][1] += s[t].recall
            sums[t][2] += s[t].fmeasure
    n = len(cands)
    return {t: {"precision": p / n, "recall": r / n, "fmeasure": f / n}
            for t, (p, r, f) in sums.items()}


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


# --- JSONL input (seed 003's format) ---------------------------------------

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
