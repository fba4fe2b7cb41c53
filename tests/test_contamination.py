"""Contamination checks: ``rougekit contamination`` (files: the rows of
--texts whose largest F against --against is above --threshold) and the
engines' shared ``max_similarity`` step on one process's tables, each row
== ``RougeIndex(against).max``, options honoured, bad input one line and
exit status 2. (The engines on their clusters: test_dask.py,
test_spark.py, test_ray.py.)"""
import json
import sys

import pytest

import rougekit
from _contamination import EMPTY, against_texts, expected_max, rows_to_check
from _helpers import run_cli
from rougekit._distributed import SIMILARITY_COLUMNS, Similarity

pytestmark = [pytest.mark.backend]


def write_jsonl(path, texts, field="text", extra=None):
    path.write_text("".join(json.dumps({field: t, **(extra or {})}) + "\n" for t in texts),
                    encoding="utf-8")
    return path


def write_lines(path, texts, end="\n"):
    path.write_bytes("".join(t + end for t in texts).encode("utf-8"))
    return path


def flagged(out):
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def corpus():
    against = against_texts(300, seed=3)
    texts = rows_to_check(against, 1200, seed=4)
    return against, texts


# --- the command line ------------------------------------------------------------------

def test_flags_the_rows_above_the_threshold_as_rouge_index_max(corpus, tmp_path):
    against, texts = corpus
    train = write_jsonl(tmp_path / "train.jsonl", texts, extra={"id": 1})
    test = write_lines(tmp_path / "test.txt", against)
    out = tmp_path / "flagged.jsonl"
    kept = tmp_path / "kept.jsonl"
    done = run_cli("contamination", "--texts", train, "--against", test, "--threshold", "0.5",
                   "-o", out, "--kept", kept)
    assert done.returncode == 0, done.stderr
    ids, fmeasures = expected_max(rougekit.RougeIndex(against), texts)
    want = [{"line": k + 1, "max_fmeasure": f, "max_index": i, "against_line": i + 1,
             "text": t, "against": against[i]}
            for k, (t, i, f) in enumerate(zip(texts, ids, fmeasures)) if f > 0.5]
    assert flagged(out.read_text(encoding="utf-8")) == want
    assert 100 < len(want) < len(texts)
    lines = train.read_text(encoding="utf-8").splitlines()
    assert kept.read_text(encoding="utf-8").splitlines() == \
        [line for line, f in zip(lines, fmeasures) if not f > 0.5]
    assert done.stderr == (f"rougekit contamination: {len(want)} of {len(texts)} rows of "
                           f"{train} have a rougeL F above 0.5 against the {len(against)} "
                           f"texts of {test}\n")


def test_a_row_at_the_threshold_is_kept_and_stdout_is_the_default(tmp_path):
    train = write_lines(tmp_path / "train.txt", ["a b c d", "a b c e", "", "x"])
    test = write_lines(tmp_path / "test.txt", ["a b c d"])
    # F of "a b c e" against "a b c d" is 0.75: above 0.7, not above 0.75
    done = run_cli("contamination", "--texts", train, "--against", test, "--threshold", "0.75")
    assert done.returncode == 0, done.stderr
    assert [row["line"] for row in flagged(done.stdout)] == [1]
    done = run_cli("contamination", "--texts", train, "--against", test)
    assert [(row["line"], row["max_fmeasure"]) for row in flagged(done.stdout)] == \
        [(1, 1.0), (2, 0.75)]


@pytest.mark.parametrize("flags,request_", [
    (["--rouge-types", "rouge2", "--stemmer"], dict(rouge_type="rouge2", use_stemmer=True)),
    (["--flavor", "rouge-score", "--stemmer", "--rouge-types", "rouge1"],
     dict(flavor="rouge-score", use_stemmer=True, rouge_types=["rouge1"])),
    # a flavor without --rouge-types: rougeL, as without a flavor
    (["--flavor", "rouge-score"], dict(flavor="rouge-score", rouge_types=["rougeL"])),
    (["--tokenizer", "whitespace-lower"], dict(tokenizer="whitespace-lower")),
], ids=["rouge2-stem", "flavor", "flavor-rougeL", "tokenizer"])
def test_scoring_options_are_rouge_index_options(corpus, tmp_path, flags, request_):
    against, texts = corpus
    train = write_lines(tmp_path / "train.txt", texts[:400])
    test = write_lines(tmp_path / "test.txt", against)
    done = run_cli("contamination", "--texts", train, "--against", test, "--threshold", "0.3",
                   *flags)
    assert done.returncode == 0, done.stderr
    ids, fmeasures = expected_max(rougekit.RougeIndex(against, **request_), texts[:400])
    assert [(row["line"], row["max_index"], row["max_fmeasure"])
            for row in flagged(done.stdout)] == \
        [(k + 1, i, f) for k, (i, f) in enumerate(zip(ids, fmeasures)) if f > 0.3]


def test_fields_line_ends_and_blank_lines(tmp_path):
    # JSON Lines by name or by --field; CRLF line ends; blank JSONL lines
    # skipped (line numbers are the file's); blank plain lines are empty texts
    train = tmp_path / "train.ndjson"
    train.write_bytes(b'{"prompt": "The cat sat."}\r\n\r\n{"prompt": "caf\\u00e9 au lait"}\r\n')
    test = tmp_path / "test.data"
    test.write_text(json.dumps({"question": "the cat sat"}) + "\n"
                    + json.dumps({"question": "Caf\u00e9 au lait!"}) + "\n", encoding="utf-8")
    done = run_cli("contamination", "--texts", train, "--field", "prompt", "--against", test,
                   "--against-field", "question", "--threshold", "0.5")
    assert done.returncode == 0, done.stderr
    assert [(r["line"], r["text"], r["against_line"]) for r in flagged(done.stdout)] == \
        [(1, "The cat sat.", 1), (3, "caf\u00e9 au lait", 2)]
    plain = write_lines(tmp_path / "plain.txt", ["the cat sat", "", "x"], end="\r\n")
    done = run_cli("contamination", "--texts", plain, "--against", plain, "--threshold", "0",
                   "-o", tmp_path / "all.jsonl", "--kept", tmp_path / "kept.txt")
    rows = flagged((tmp_path / "all.jsonl").read_text(encoding="utf-8"))
    assert [(r["line"], r["text"], r["max_index"], r["max_fmeasure"]) for r in rows] == \
        [(1, "the cat sat", 0, 1.0), (3, "x", 2, 1.0)]
    assert (tmp_path / "kept.txt").read_bytes() == b"\n"     # the empty text: F 0, kept
    # --field names --against's field only where --against is JSON Lines
    plain_test = write_lines(tmp_path / "test.txt", ["The cat sat."])
    done = run_cli("contamination", "--texts", train, "--field", "prompt", "--against",
                   plain_test, "--threshold", "0.5")
    assert done.returncode == 0, done.stderr
    assert [(r["line"], r["against"]) for r in flagged(done.stdout)] == [(1, "The cat sat.")]
    # a byte order mark is not part of the first text; a number of any length in a
    # field that is not read is no error
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b'\xef\xbb\xbf{"text": "the cat sat", "n": ' + b"9" * 5000 + b"}\n")
    bom_lines = tmp_path / "bom.txt"
    bom_lines.write_bytes(b"\xef\xbb\xbfthe cat sat\n")
    done = run_cli("contamination", "--texts", marked, "--against", bom_lines,
                   "--threshold", "0.5")
    assert done.returncode == 0, done.stderr
    assert [(r["text"], r["against"]) for r in flagged(done.stdout)] == \
        [("the cat sat", "the cat sat")]


def bad_inputs(tmp_path):
    good = write_lines(tmp_path / "good.txt", ["a b"])
    bad_utf8 = tmp_path / "bad.txt"
    bad_utf8.write_bytes(b"ok\nstill ok\n\xff\xfe\n")
    not_json = tmp_path / "not.jsonl"
    not_json.write_text('{"text": "a"}\n{"text": \n', encoding="utf-8")
    a_list = tmp_path / "list.jsonl"
    a_list.write_text('["a"]\n', encoding="utf-8")
    no_field = write_jsonl(tmp_path / "nofield.jsonl", ["a"], field="prompt")
    not_str = tmp_path / "notstr.jsonl"
    not_str.write_text('{"text": 3}\n', encoding="utf-8")
    empty = write_lines(tmp_path / "empty.txt", [])
    # the readers of every command: nesting past the recursion limit, a lone surrogate
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"text": "a", "x": ' + "[" * 100000 + "]" * 100000 + "}\n",
                    encoding="utf-8")
    surrogate = tmp_path / "surrogate.jsonl"
    surrogate.write_text('{"text": "a \\ud800"}\n', encoding="utf-8")
    return [
        (["--texts", tmp_path / "missing.txt", "--against", good],
         f"cannot read {tmp_path / 'missing.txt'}: No such file or directory"),
        (["--texts", bad_utf8, "--against", good],
         f"{bad_utf8} line 3: not UTF-8 (invalid byte 0xff at offset 12)"),
        (["--texts", not_json, "--against", good],
         f"{not_json} line 2: not valid JSON (Expecting value, column 10)"),
        (["--texts", good, "--against", a_list],
         f"{a_list} line 1: expected a JSON object, got an array"),
        (["--texts", deep, "--against", good],
         f"{deep} line 1: JSON nested too deeply to read (arrays or objects about "
         f"{sys.getrecursionlimit()} levels deep)"),
        (["--texts", good, "--against", surrogate],
         f'{surrogate} line 1: "text" holds a lone surrogate (\\ud800, character 2): not '
         "a character, and not text UTF-8 can hold"),
        (["--texts", no_field, "--against", good],
         f'{no_field} line 1: missing field "text" (--field, --against-field name another)'),
        (["--texts", not_str, "--against", good],
         f'{not_str} line 1: "text" must be a string, not a number'),
        (["--texts", good, "--against", empty],
         f"--against {empty} has no texts to compare with"),
        (["--texts", good, "--against", good, "--rouge-types", "rouge1,rougeL"],
         "rougekit contamination scores with one rouge type, rougeL or rouge1 to rouge9, "
         "not rouge1,rougeL: give --rouge-types TYPE"),
        (["--texts", good, "--against", good, "--rouge-types", "rougeLsum"],
         "rougekit contamination scores with one rouge type, rougeL or rouge1 to rouge9, "
         "not rougeLsum: give --rouge-types TYPE"),
        (["--texts", good, "--against", good, "--flavor", "pltrdy"],
         "rougekit contamination cannot use --counting sets: it queries a RougeIndex, "
         "which scores with rouge-score's arithmetic"),
        (["--texts", good, "--against", good, "-o", tmp_path / "no" / "such" / "dir.jsonl"],
         f"cannot write {tmp_path / 'no' / 'such' / 'dir.jsonl'}: No such file or directory"),
        (["--texts", good, "--against", good, "-o", tmp_path / "out.jsonl", "--kept",
          tmp_path / "." / "out.jsonl"],
         f"-o and --kept name the same file, {tmp_path / 'out.jsonl'}: one would overwrite "
         "the other"),
    ]


def test_bad_input_is_one_line_and_status_2(tmp_path):
    for args, message in bad_inputs(tmp_path):
        done = run_cli("contamination", *args)
        assert (done.returncode, done.stderr, done.stdout) == \
            (2, f"rougekit: error: {message}\n", ""), args


@pytest.mark.parametrize("args,message", [
    (["--threshold", "nan"], "argument --threshold: not a number: nan"),
    (["--threshold", "high"], "argument --threshold: not a number: 'high'"),
    (["--threshold", "1.5"], "argument --threshold: 1.5 is not in [0, 1] (an F measure)"),
    (["--threshold", "-1"], "argument --threshold: -1 is not in [0, 1] (an F measure)"),
    (["--bootstrap", "10"], "unrecognized arguments: --bootstrap 10"),
    (["--jobs", "0"], "argument --jobs: must be >= 1, got 0"),
])
def test_bad_flags_are_one_line_and_status_2(tmp_path, args, message):
    good = write_lines(tmp_path / "good.txt", ["a b"])
    done = run_cli("contamination", "--texts", good, "--against", good, *args)
    assert done.returncode == 2 and done.stderr == \
        f"rougekit contamination: error: {message} (see rougekit contamination --help)\n" \
        or done.stderr == f"rougekit: error: {message} (see rougekit --help)\n", done.stderr


def test_a_progress_line_on_a_terminal(tmp_path):
    pytest.importorskip("pty")
    import sys

    from _helpers import run_on_terminal
    texts = write_lines(tmp_path / "train.txt", rows_to_check(against_texts(50), 3000))
    test = write_lines(tmp_path / "test.txt", against_texts(50))
    code, terminal, _ = run_on_terminal(
        [sys.executable, "-m", "rougekit", "contamination", "--texts", str(texts), "--against",
         str(test), "-o", str(tmp_path / "out.jsonl")], stream="stderr")
    assert code == 0
    assert "contamination [" in terminal and "3000/3000 rows" in terminal
    assert terminal.rstrip().endswith("texts of " + str(test))


# --- the engines' step on one process's tables -----------------------------------------

def test_similarity_on_pandas_polars_and_arrow_tables(corpus):
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    against, texts = corpus
    similarity, index = Similarity.for_frame("rougekit.dask.max_similarity", ["text"],
                                             "text", against, "rouge2", 1, None, None,
                                             {"use_stemmer": True})
    want = expected_max(rougekit.RougeIndex(against, "rouge2", use_stemmer=True), texts)
    frame = similarity.frame(pd.DataFrame({"text": texts}), index)
    assert list(frame.columns) == ["text", *SIMILARITY_COLUMNS]
    assert (frame["max_index"].tolist(), frame["max_fmeasure"].tolist()) == want
    assert str(frame["max_index"].dtype) == "int64"
    table = pa.table({"text": texts})
    for arrow in (table, table.to_batches()[0]):
        scored = similarity.frame(arrow, index)
        assert scored.schema.field("max_index").type == pa.int64()
        assert (scored.column("max_index").to_pylist(),
                scored.column("max_fmeasure").to_pylist()) == want
    pl = pytest.importorskip("polars")
    scored = similarity.frame(pl.DataFrame({"text": texts}), index)
    assert (scored["max_index"].to_list(), scored["max_fmeasure"].to_list()) == want
    # bytes, as RougeIndex reads them (a binary column)
    raw = [t.encode("utf-8") for t in texts[:50]]
    scored = similarity.frame(pa.table({"text": pa.array(raw, pa.binary())}), index)
    assert scored.column("max_fmeasure").to_pylist() == \
        [rougekit.RougeIndex(against, "rouge2", use_stemmer=True).max(t)[1] for t in raw]


def test_similarity_errors_name_the_column_and_the_row():
    pd = pytest.importorskip("pandas")
    similarity, index = Similarity.for_frame("rougekit.dask.max_similarity", ["text"],
                                             "text", ["a b"], None, 1, None, None, {})
    with pytest.raises(ValueError, match=r"^column 'text', row 1 \(index 11\): missing "
                                         r"value \(None\)$"):
        similarity.frame(pd.DataFrame({"text": ["a", None]}, index=[10, 11]), index)
    with pytest.raises(TypeError, match="^column 'text', row 0: expected a str or bytes, "
                                        "not float$"):
        similarity.frame(pd.DataFrame({"text": [1.5]}), index)
    with pytest.raises(TypeError, match="^column must be a column name"):
        Similarity.for_frame("rougekit.dask.max_similarity", ["text"], 0, ["a"], None, 1,
                             None, None, {})
    with pytest.raises(ValueError, match="^threads must be >= 1"):
        Similarity.for_frame("rougekit.dask.max_similarity", ["text"], "text", ["a"], None,
                             0, None, None, {})
    with pytest.raises(ValueError, match="^against is empty: rougekit.dask.max_similarity"):
        Similarity.for_frame("rougekit.dask.max_similarity", ["text"], "text", iter(()),
                             None, 1, None, None, {})


def test_empty_and_duplicate_against_texts_as_rouge_index_max():
    """Empty texts score 0 against everything (the first text wins a row of
    zeros); the first of duplicates wins a tie ("b c": 0.8 against "a b c"
    and against "b c a")."""
    pd = pytest.importorskip("pandas")
    against = EMPTY + ["a b c", "x y", "a b c", "b c a"]
    texts = ["a b c", "c b a", "", "x", "zzz", "b c"]
    similarity, index = Similarity.for_frame("rougekit.dask.max_similarity", ["text"],
                                             "text", against, None, 1, None, None, {})
    frame = similarity.frame(pd.DataFrame({"text": texts}), index)
    assert frame["max_index"].tolist() == [4, 7, 0, 5, 0, 4]
    assert (frame["max_index"].tolist(), frame["max_fmeasure"].tolist()) == \
        expected_max(rougekit.RougeIndex(against), texts)


def test_dask_on_its_local_scheduler(corpus):
    """Without a distributed client the index is shared, not sent."""
    from _integrations import need
    pd = need("pandas")
    dd = need("dask.dataframe")
    rdask = need("rougekit.dask")
    against, texts = corpus
    ddf = dd.from_pandas(pd.DataFrame({"text": texts}), npartitions=4)
    got = rdask.max_similarity(ddf, "text", against, "rouge1").compute(scheduler="threads")
    assert (got["max_index"].tolist(), got["max_fmeasure"].tolist()) == \
        expected_max(rougekit.RougeIndex(against, "rouge1"), texts)


def test_a_flavor_without_a_rouge_type_is_rougel_as_without_one(corpus):
    """The one-type doors default to rougeL, with a flavor too (not the
    flavor's own several types); types the caller gives are theirs."""
    against, texts = corpus
    index = rougekit.RougeIndex(against, flavor="rouge-score")
    assert index.rouge_type == "rougeL"
    assert expected_max(index, texts[:200]) == \
        expected_max(rougekit.RougeIndex(against, "rougeL"), texts[:200])
    similarity, built = Similarity.for_frame("rougekit.spark.max_similarity", ["text"], "text",
                                             against, None, 1, None, "evaluate", {})
    assert built.rouge_type == "rougeL"
    with pytest.raises(ValueError, match="RougeIndex scores one rouge type, not rouge1, rouge2"):
        rougekit.RougeIndex(against, flavor="rouge-score", rouge_types=["rouge1", "rouge2"])
