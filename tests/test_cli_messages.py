"""The command line speaks in flags: no error or warning it prints shows
Python's keyword syntax (``sentence_split='sentencex'``, ``lang=``,
``use_stemmer=True``), and the same condition in Python names keywords.

Each message is written once, with ``rougekit._spelling.option``; these
tests run every option error and warning the command line can reach, and
look at the sources for a message written in keywords that bypasses it.
"""
import ast
import json
import re
from pathlib import Path

import pytest

import rougekit
from _helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "rougekit"

# Python's keyword syntax in a message: name=value, name= alone, True/False/None.
PYTHON_SYNTAX = re.compile(r"\b[a-z][a-z0-9_]*=(?:['\"\w(\[]|\s|$)|\b(?:True|False|None)\b")

ERRORS = [
    (["--flavor", "pltrdy", "--stemmer"], "flavor 'pltrdy' has no switch --stemmer"),
    (["--flavor", "rouge-score", "--multi-ref", "mean"], "has no switch --multi-ref mean"),
    (["--flavor", "evaluate", "--aggregation", "mean-in-order"], "--aggregation"),
    (["--flavor", "rouge155", "--seed", "5"], "takes no --seed"),
    (["--flavor", "rouge155:-w 1.2"], "-w is not available in a flavor"),
    (["--flavor", "xlsum"], "flavor xlsum needs a parameter"),
    (["--flavor", "nope"], "unknown flavor 'nope'"),
    (["--lang", "hindi", "--tokenizer", "whitespace"], "give --lang or --tokenizer"),
    (["--stem-stopwords"], "--stem-stopwords applies only with --lang"),
    (["--alpha", "0.3"], "--alpha 0.3 applies only with --f-measure rouge155"),
    (["--aggregation", "bootstrap-median"], "--aggregation bootstrap-median needs --bootstrap N"),
    (["--seed", "numpy-global", "--bootstrap", "10"], "--seed numpy-global"),
    (["--remove-stopwords"], "--remove-stopwords"),
    (["--stemmer", "--tokenizer", "whitespace"], "--stemmer needs the rouge-score"),
    (["--rouge-types", "rouge0"], "--rouge-types: unknown rouge type"),
    (["--rouge-types", ","], "--rouge-types is empty"),
    (["--aggregation", "rouge155-bootstrap"], "--aggregation rouge155-bootstrap"),
]


@pytest.fixture(scope="module")
def items(tmp_path_factory):
    path = tmp_path_factory.mktemp("messages") / "items.jsonl"
    rows = [{"candidate": "The cat sat. It was happy and it ran.",
             "references": ["A cat sat. It ran home."]},
            {"candidate": "猫坐在垫子上", "references": ["猫在垫子上"]}]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def _assert_flags_only(text):
    found = PYTHON_SYNTAX.findall(text)
    assert not found, f"Python syntax {found} in: {text}"


@pytest.mark.parametrize("flags,fragment", ERRORS, ids=[" ".join(f) for f, _ in ERRORS])
def test_option_errors_are_one_line_in_flags(items, flags, fragment):
    out = run_cli("score", "--jsonl", items, *flags)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("rougekit: error: ")
    assert fragment in out.stderr, out.stderr
    _assert_flags_only(out.stderr)


@pytest.mark.parametrize("command", [
    ["explain", "--target", "a b", "--prediction", "a", "--flavor", "pltrdy"],
    ["explain", "--target", "a b", "--prediction", "a", "--flavor", "evaluate",
     "--aggregation", "mean"],
    ["audit", "--stemmer"],
    ["audit", "--flavors", "rouge155:-x"],
    ["report", "-o", "/dev/null", "--flavor", "pltrdy", "--stemmer"],
])
def test_other_commands_name_flags(items, command):
    if command[0] in ("audit", "report"):
        command = [command[0], "--jsonl", str(items), *command[1:]]
    out = run_cli(*command)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1, out.stderr
    _assert_flags_only(out.stderr)


def test_warnings_name_flags(items):
    out = run_cli("score", "--jsonl", items)
    assert out.returncode == 0, out.stderr
    warnings = [line for line in out.stderr.splitlines() if line.startswith("rougekit: warning")]
    assert len(warnings) == 2, out.stderr
    assert "--sentence-split sentencex" in out.stderr      # one sentence per line
    assert "--lang chinese" in out.stderr                  # letters dropped
    _assert_flags_only(out.stderr)
    # the same conditions in Python name keywords
    with pytest.warns(rougekit.SentenceSplitWarning, match="sentence_split='sentencex'"):
        rougekit.score_corpus(["The cat sat. It ran home."], ["A cat sat. It ran."])
    with pytest.warns(rougekit.TokenizationWarning, match="lang='chinese'"):
        rougekit.score_corpus(["猫坐在垫子上"], ["猫在垫子上"])


def test_the_same_error_in_python_names_keywords():
    with pytest.raises(ValueError, match="flavor 'pltrdy' has no switch use_stemmer=True"):
        rougekit.score_corpus(["a"], ["a"], flavor="pltrdy", use_stemmer=True)
    with pytest.raises(ValueError, match="give lang= or tokenizer=, not both"):
        rougekit.score_corpus(["a"], ["a"], lang="hindi", tokenizer="whitespace")
    with pytest.raises(ValueError, match="alpha=0.3 applies only with f_measure='rouge155'"):
        rougekit.score_corpus(["a"], ["a"], alpha=0.3)


def test_the_syntax_finder_finds_keywords():
    for text in ("pass sentence_split='sentencex'", "use lang=", "give flavor= or",
                 "use_stemmer=True changes nothing", "it takes None"):
        assert PYTHON_SYNTAX.search(text), text
    for text in ("give --sentence-split sentencex", "--lang chinese", "flavor:pltrdy",
                 "boot:1000,ci:0.95,seed:12345", "(docs/guides/languages.md)"):
        assert not PYTHON_SYNTAX.search(text), text


def _messages(path):
    """The string constants (f-strings' text parts joined) that a raise or a
    warn() call of ``path`` builds its message from."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        call = None
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            call = node.exc
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "warn":
            call = node
        if call is None or not call.args:
            continue
        parts = []
        for sub in ast.walk(call.args[0]):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                parts.append(sub.value)
        yield node.lineno, "".join(parts)


def test_no_option_message_is_written_in_keywords_by_hand():
    """A message naming an option field goes through _spelling.option, so
    the command line can say its flag: no field written as ``field=`` in a
    raise or a warning's text. (Python-only doors' own parameters, such as
    ``options=``, are Python's: the command line has no such thing.)"""
    from rougekit._options import option_fields
    fields = set(option_fields()) | {"flavor"}
    pattern = re.compile(r"\b(" + "|".join(sorted(fields)) + r")=")
    offenders = []
    for path in SRC.rglob("*.py"):
        if path.name in ("_spelling.py",):
            continue
        for line, text in _messages(path):
            if pattern.search(text):
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {text[:80]}")
    assert offenders == []
