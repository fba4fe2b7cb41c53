"""Long, hostile and careless files and arguments, read by the ``rougekit``
command (``rougekit._readers``, ``rougekit.rouge155.config``): whatever
Python raises underneath, a bad line is one line on stderr naming the file
and the line, exit 2; what is only odd (a byte order mark, a number of any
length or JSON nested in a field the command ignores) is read and scored as
rouge-score scores the texts."""
import json
import subprocess
import sys

import pytest
from rouge_score import rouge_scorer as ref

from _helpers import child_env, run_cli

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
CANDIDATE, REFERENCE = "the cat sat on the mat", "a cat sat on a red mat"
ITEM = {"candidate": CANDIDATE, "references": [REFERENCE]}
BOM = b"\xef\xbb\xbf"


def write(path, data):
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def assert_one_line(proc, *fragments):
    """Exit 2, one line on stderr holding each fragment, nothing on stdout."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    err = proc.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err[-2000:]
    assert proc.stdout == ""
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def rouge_score_json(candidate=CANDIDATE, reference=REFERENCE):
    """rouge-score's scores of one item: what ``score --format json`` prints
    for a file of that item alone (its mean over one item is the item's)."""
    scores = ref.RougeScorer(TYPES).score(reference, candidate)
    return {t: {"precision": s.precision, "recall": s.recall, "fmeasure": s.fmeasure}
            for t, s in scores.items()}


def assert_scored_as_rouge_score(proc, candidate=CANDIDATE, reference=REFERENCE):
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["scores"] == rouge_score_json(candidate, reference)


def nested(depth, shape):
    """A JSON value ``depth`` arrays or objects deep."""
    if shape == "array":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


# --- JSON nested deeper than Python can read ------------------------------------------

@pytest.mark.parametrize("depth", [2_000, 20_000, 200_000])
@pytest.mark.parametrize("shape", ["array", "object"])
@pytest.mark.parametrize("where", ["ignored field", "references", "the whole line"])
def test_deep_nesting_is_one_line_naming_file_and_line(tmp_path, depth, shape, where):
    value = nested(depth, shape)
    bad = {"ignored field": '{"candidate": "a", "references": ["a"], "x": %s}' % value,
           "references": '{"candidate": "a", "references": %s}' % value,
           "the whole line": value}[where]
    path = write(tmp_path / "deep.jsonl", json.dumps(ITEM) + "\n" + bad + "\n")
    assert_one_line(run_cli("score", "--jsonl", path, "--format", "json"),
                    f"{path} line 2", "nested too deeply")


@pytest.mark.parametrize("shape", ["array", "object"])
def test_nesting_python_can_read_in_an_ignored_field_is_ignored(tmp_path, shape):
    line = '{"candidate": %s, "references": [%s], "x": %s}' % (
        json.dumps(CANDIDATE), json.dumps(REFERENCE), nested(200, shape))
    path = write(tmp_path / "nested.jsonl", line + "\n")
    assert_scored_as_rouge_score(run_cli("score", "--jsonl", path, "--format", "json"))


# --- numbers of any length ------------------------------------------------------------

HUGE_NUMBERS = ["7" * 4_301, "-" + "9" * 5_000, "1" * 1_000_000, "3" * 6_000 + ".5",
                "1e" + "9" * 5_000, "-0." + "0" * 5_000 + "1e-99999"]


@pytest.mark.parametrize("number", HUGE_NUMBERS, ids=lambda n: f"{n[:3]}..{len(n)}")
def test_a_huge_number_in_an_ignored_field_is_ignored(tmp_path, number):
    item = '{"id": %s, "candidate": %s, "references": [%s], "meta": {"n": [%s]}}' % (
        number, json.dumps(CANDIDATE), json.dumps(REFERENCE), number)
    path = write(tmp_path / "numbers.jsonl", item + "\n")
    assert_scored_as_rouge_score(run_cli("score", "--jsonl", path, "--format", "json"))


@pytest.mark.parametrize("line,fragment", [
    ('{"candidate": %s, "references": ["a"]}', '"candidate" must be a string, not a number'),
    ('{"candidate": "a", "references": [%s]}', '"references" must be a string or a non-empty'),
    ("%s", "expected a JSON object, got a number"),
])
def test_a_huge_number_where_a_text_goes_is_refused(tmp_path, line, fragment):
    path = write(tmp_path / "numbers.jsonl", json.dumps(ITEM) + "\n" + line % ("8" * 5_000))
    assert_one_line(run_cli("score", "--jsonl", path), f"{path} line 2", fragment)


# --- lone surrogates --------------------------------------------------------------------

LONE = ["\\ud800", "\\udbff", "\\udc00", "\\udfff", "\\uD83D", "\\ude00\\ud83d"]


@pytest.mark.parametrize("escape", LONE)
@pytest.mark.parametrize("field,template", [
    ('"candidate"', '{"candidate": "a %s b", "references": ["a b"]}'),
    ('"references"[1]', '{"candidate": "a b", "references": ["a b", "b %s"]}'),
    ('"references"', '{"candidate": "a b", "references": "%s"}'),
])
def test_a_lone_surrogate_is_refused_naming_file_line_and_field(tmp_path, escape, field,
                                                                 template):
    path = write(tmp_path / "s.jsonl", json.dumps(ITEM) + "\n\n" + template % escape + "\n")
    assert_one_line(run_cli("score", "--jsonl", path), f"{path} line 3", field,
                    "lone surrogate")


def compare_item(a, b, reference):
    return {"candidate_a": a, "candidate_b": b, "references": [reference]}


COMMANDS = {
    "score": lambda p: ["score", "--jsonl", p],
    "report": lambda p: ["report", "--jsonl", p, "-o", p.with_suffix(".html")],
    "report --compare": lambda p: ["report", "--jsonl", p.with_name("clean.jsonl"),
                                   "--compare", p, "-o", p.with_suffix(".html")],
    "audit": lambda p: ["audit", "--jsonl", p, "--flavors", "rouge-score"],
    "compare": lambda p: ["compare", "--jsonl", p, "--bootstrap", "10", "--ar-trials", "10"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_refuses_a_lone_surrogate_alike(tmp_path, command):
    # score scored it, report failed with "'utf-8' codec can't encode" and no file.
    texts = ["a \\ud800 b", "a b c"]
    if command == "compare":
        lines = [json.dumps(compare_item("a b", "a c", "a b")),
                 '{"candidate_a": "a b", "candidate_b": "%s", "references": ["a b"]}' % texts[0]]
    else:
        write(tmp_path / "clean.jsonl", "".join(json.dumps({"candidate": "x y", "references":
                                                           ["a b"]}) + "\n" for _ in texts))
        lines = [json.dumps({"candidate": "a b", "references": ["a b"]}),
                 '{"candidate": "%s", "references": ["a b"]}' % texts[0]]
    path = write(tmp_path / "s.jsonl", "\n".join(lines) + "\n")
    field = '"candidate_b"' if command == "compare" else '"candidate"'
    assert_one_line(run_cli(*COMMANDS[command](path)), f"{path} line 2", field,
                    "lone surrogate")
    assert not path.with_suffix(".html").exists()


@pytest.mark.parametrize("line", [
    '{"candidate": "the cat \\ud83d\\ude00 sat on the mat", "references": ["%s"]}',
    '{"candidate": "the cat sat on the mat", "references": ["%s"], "x": "\\ud800"}',
])
def test_surrogate_pairs_and_ignored_fields_are_read(tmp_path, line):
    path = write(tmp_path / "ok.jsonl", line % REFERENCE + "\n")
    candidate = json.loads(line % REFERENCE)["candidate"]
    assert_scored_as_rouge_score(run_cli("score", "--jsonl", path, "--format", "json"),
                                 candidate)


# --- byte order marks and bytes that are not UTF-8 -------------------------------------

def test_a_jsonl_file_with_a_byte_order_mark_is_utf8(tmp_path):
    path = write(tmp_path / "bom.jsonl", BOM + json.dumps(ITEM).encode() + b"\r\n")
    assert_scored_as_rouge_score(run_cli("score", "--jsonl", path, "--format", "json"))


@pytest.mark.parametrize("command", ["score", "compare"])
def test_text_files_with_a_byte_order_mark_are_utf8(tmp_path, command):
    # The whitespace tokenizer keeps U+FEFF in the first token: read as a
    # character, the mark would change the numbers.
    lines = ["the cat sat", "a dog ran"]
    plain = {name: write(tmp_path / f"{name}.txt", "\n".join(lines) + "\n")
             for name in ("a", "b", "r")}
    marked = {name: write(tmp_path / f"{name}-bom.txt", BOM + path.read_bytes())
              for name, path in plain.items()}
    marked["r"] = plain["r"]          # the marks on the candidates' side only

    def run(files):
        if command == "score":
            args = ["score", "--candidates", files["a"], "--references", files["r"]]
        else:
            args = ["compare", "--candidates-a", files["a"], "--candidates-b", files["b"],
                    "--references", files["r"], "--bootstrap", "10", "--ar-trials", "10"]
        proc = run_cli(*args, "--tokenizer", "whitespace", "--format", "json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        out.pop("a", None), out.pop("b", None)
        return out
    assert run(marked) == run(plain)
    if command == "score":
        assert run(marked)["scores"]["rouge1"]["fmeasure"] == 1.0


def test_not_utf8_names_the_line(tmp_path):
    c = write(tmp_path / "c.txt", b"good line\nbad \xff byte\n")
    r = write(tmp_path / "r.txt", "a\nb\n")
    assert_one_line(run_cli("score", "--candidates", c, "--references", r),
                    f"{c} line 2", "not UTF-8", "0xff", "offset 14")
    j = write(tmp_path / "j.jsonl", json.dumps(ITEM).encode() + b"\n\n{\"candidate\": \"\xc3\"}")
    assert_one_line(run_cli("score", "--jsonl", j), f"{j} line 3", "not UTF-8")


@pytest.mark.parametrize("args,flag", [
    (["explain", "--target", b"a \xff b", "--prediction", "a b"], "--target"),
    (["explain", "--target", "a b", "--prediction", b"\xe9t\xe9"], "--prediction"),
    (["compat", "rouge", b"caf\xe9", "cafe"], "HYPOTHESIS"),
    (["compat", "rouge_chinese", "a", b"\x80"], "REFERENCE"),
])
def test_a_text_argument_that_is_not_utf8_names_its_flag(args, flag):
    # The bytes came back as surrogates: explain printed them back, its
    # JSON not UTF-8; compat scored them.
    proc = subprocess.run([sys.executable, "-m", "rougekit", *args], capture_output=True,
                          env=child_env())
    proc = subprocess.CompletedProcess(proc.args, proc.returncode,
                                       proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))
    assert_one_line(proc, f"{flag} is not UTF-8: invalid byte")


def test_the_report_title_not_utf8_is_refused_before_any_work(tmp_path):
    path = write(tmp_path / "a.jsonl", json.dumps(ITEM) + "\n")
    out = tmp_path / "r.html"
    proc = subprocess.run([sys.executable, "-m", "rougekit", "report", "--jsonl", path,
                           "-o", out, "--title", b"R\xe9sum\xe9s"], capture_output=True,
                          text=True, errors="replace", env=child_env())
    assert_one_line(proc, "--title is not UTF-8: invalid byte 0xe9 at offset 1")
    assert not out.exists()


# --- the ROUGE-1.5.5 configuration and file lists -------------------------------------

@pytest.fixture
def rouge155_dir(tmp_path):
    (tmp_path / "peers").mkdir()
    (tmp_path / "models").mkdir()
    write(tmp_path / "peers" / "p.txt", "the cat sat on the mat\n")
    write(tmp_path / "models" / "m.txt", "a cat sat on a mat\n")
    return tmp_path


def test_a_file_list_with_a_byte_order_mark(rouge155_dir):
    plain = write(rouge155_dir / "list.txt", "peers/p.txt models/m.txt\n")
    marked = write(rouge155_dir / "list-bom.txt", BOM + plain.read_bytes())
    runs = [run_cli("rouge155", "-a", "-z", "SPL", path, cwd=rouge155_dir)
            for path in (plain, marked)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert (runs[1].returncode, runs[1].stdout) == (0, runs[0].stdout), runs[1].stderr


@pytest.mark.parametrize("body,line,fragment", [
    ('<EVAL ID="1">\n<PEERS>\n\n<P>p.txt</P>\n</PEERS></EVAL>', 5, "<P>: no ID attribute"),
    ('<EVAL ID="1">\n<INPUT-FORMAT\n  TYPE="HTML"/>\n</EVAL>', 3,
     "<INPUT-FORMAT>: unknown input type 'HTML'"),
    ('<!-- a comment -->\n<X><Y/></X>\n<EVAL>\n</EVAL>', 4, "<EVAL>: no ID attribute"),
    ('<PEERS>\n<P ID="A">p.txt</P></PEERS>', 3, "<P>: outside an <EVAL>"),
])
def test_a_configuration_error_names_the_line(rouge155_dir, body, line, fragment):
    config = write(rouge155_dir / "c.xml", f"<ROUGE-EVAL>\n{body}\n</ROUGE-EVAL>\n")
    assert_one_line(run_cli("rouge155", "-a", config, cwd=rouge155_dir),
                    f"{config} line {line}: {fragment}")


def test_a_configuration_nested_deep_is_read(rouge155_dir):
    # The script reads it; so do we (no recursion on the elements).
    body = ('<EVAL ID="1"><PEER-ROOT>peers</PEER-ROOT><MODEL-ROOT>models</MODEL-ROOT>'
            '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="A">p.txt</P></PEERS>'
            '<MODELS><M ID="1">m.txt</M></MODELS></EVAL>')
    flat = write(rouge155_dir / "flat.xml", f"<ROUGE-EVAL>{body}</ROUGE-EVAL>")
    deep = write(rouge155_dir / "deep.xml",
                 "<ROUGE-EVAL>" + "<x>" * 200_000 + "</x>" * 200_000 + body + "</ROUGE-EVAL>")
    runs = [run_cli("rouge155", "-a", path, cwd=rouge155_dir) for path in (flat, deep)]
    assert runs[0].returncode == 0 and runs[0].stdout
    assert (runs[1].returncode, runs[1].stdout) == (0, runs[0].stdout), runs[1].stderr


def test_compat_files_are_checked_naming_file_and_line(tmp_path):
    # compat reads as the package reads (a byte order mark is its text there);
    # what it cannot read is named as every reader names it.
    good = write(tmp_path / "good.txt", "a b\nc d\n")
    bad = write(tmp_path / "bad.txt", b"a b\nc \xff\n")
    assert_one_line(run_cli("compat", "rouge", "-f", bad, good), f"{bad} line 2: not UTF-8")
    assert_one_line(run_cli("compat", "rouge", "-f", good, tmp_path),
                    f"{tmp_path}: not a file (with -f")
