"""A missing optional extra, in every command of ``rougekit``: one line on
stderr naming the flag that needs it and the extra to install
(``pip install 'rougekit[sentences]'``), exit 2, said before the input is
read. Each case runs the command in a subprocess whose imports of the
extra's modules fail (a ``sys.meta_path`` blocker), as on an install
without the extra."""
import json
import subprocess
import sys

import pytest

from _helpers import child_env

# Run as `python -c BLOCKING MODULES ARGS...`: rougekit's command with
# MODULES (comma-separated) made unimportable.
BLOCKING = """
import sys
blocked = set(filter(None, sys.argv[1].split(",")))

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Blocker())
from rougekit.cli import main
sys.exit(main(sys.argv[2:]))
"""

# (what is missing, the modules blocked, the flags that need them, what the
# message names: the flag as typed, the extra)
EXTRAS = [
    ("sentencex", "sentencex", ["--sentence-split", "sentencex"],
     "--sentence-split sentencex", "sentences"),
    ("nltk splitter", "nltk", ["--sentence-split", "nltk"], "--sentence-split nltk", "nltk"),
    ("jieba", "jieba", ["--lang", "chinese"], "--lang chinese", "zh"),
    ("fugashi", "fugashi", ["--lang", "japanese"], "--lang japanese", "ja"),
    ("unidic-lite", "unidic_lite", ["--lang", "japanese"], "--lang japanese", "ja"),
    ("pythainlp", "pythainlp", ["--lang", "thai"], "--lang thai", "th"),
    ("snowball", "nltk", ["--lang", "german", "--stemmer"], "--lang german with --stemmer",
     "stemmers"),
    ("TurkishStemmer", "TurkishStemmer", ["--lang", "turkish", "--stemmer"],
     "--lang turkish with --stemmer", "stemmers"),
]
KEYWORDS = ("lang=", "sentence_split=", "use_stemmer", "split_summaries=")


def run_blocked(modules, *args, cwd=None):
    return subprocess.run([sys.executable, "-c", BLOCKING, modules, *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=child_env(),
                          timeout=300)


def assert_names_the_extra(proc, flag, extra):
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    err = proc.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err[-2000:]
    assert f"pip install 'rougekit[{extra}]'" in err, err
    assert flag in err, err
    assert not any(keyword in err for keyword in KEYWORDS), err
    assert proc.stdout == ""


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("extras")
    item = {"candidate": "The cat sat. It slept.", "references": ["A cat sat. It slept."]}
    (d / "a.jsonl").write_text(json.dumps(item) + "\n", encoding="utf-8")
    pair = {"candidate_a": "The cat sat.", "candidate_b": "A cat sat.",
            "references": ["A cat sat."]}
    (d / "ab.jsonl").write_text(json.dumps(pair) + "\n", encoding="utf-8")
    return d


def command(name, d, jsonl=None):
    """The command's arguments on the files of ``d`` (``jsonl`` instead of its file)."""
    a = jsonl or d / "a.jsonl"
    return {"score": ["score", "--jsonl", a],
            "compare": ["compare", "--jsonl", jsonl or d / "ab.jsonl", "--bootstrap", "10",
                        "--ar-trials", "10"],
            "report": ["report", "--jsonl", a, "-o", d / "r.html"],
            "explain": ["explain", "--target", "The cat sat. It slept.",
                        "--prediction", "A cat sat."]}[name]


@pytest.mark.parametrize("name", ["score", "compare", "report", "explain"])
@pytest.mark.parametrize("missing,modules,flags,flag,extra", EXTRAS, ids=[e[0] for e in EXTRAS])
def test_every_command_names_the_missing_extra(files, name, missing, modules, flags, flag,
                                               extra):
    assert_names_the_extra(run_blocked(modules, *command(name, files), *flags), flag, extra)
    assert not (files / "r.html").exists()


@pytest.mark.parametrize("name", ["score", "compare", "report"])
@pytest.mark.parametrize("modules,flags,flag,extra", [
    ("sentencex", ["--sentence-split", "sentencex"], "--sentence-split sentencex", "sentences"),
    ("nltk", ["--sentence-split", "nltk"], "--sentence-split nltk", "nltk"),
    ("jieba", ["--lang", "chinese"], "--lang chinese", "zh"),
])
def test_the_missing_extra_is_said_before_the_input_is_read(tmp_path, name, modules, flags,
                                                            flag, extra):
    # The input does not exist: the extra's check comes first.
    proc = run_blocked(modules, *command(name, tmp_path, tmp_path / "not-there.jsonl"), *flags)
    assert_names_the_extra(proc, flag, extra)


@pytest.mark.parametrize("modules,args,flag,extra", [
    ("jieba", ["--flavors", "xlsum:chinese"], "--lang chinese", "zh"),
    ("fugashi", ["--flavors", "rouge-score,xlsum:japanese"], "--lang japanese", "ja"),
    ("pythainlp", ["--from", "rouge-score", "--to", "xlsum:thai"], "--lang thai", "th"),
    ("nltk", ["--flavors", "xlsum:german"], "--lang german", "stemmers"),
    ("nltk", ["--flavors", "rouge-score", "--sentence-split", "nltk"],
     "--sentence-split nltk", "nltk"),
])
def test_audit_names_the_missing_extra(files, modules, args, flag, extra):
    proc = run_blocked(modules, "audit", "--jsonl", files / "a.jsonl", *args)
    assert_names_the_extra(proc, flag, extra)


def test_report_without_jinja2(files):
    proc = run_blocked("jinja2", *command("report", files))
    assert_names_the_extra(proc, "report", "report")
    assert not (files / "r.html").exists()


@pytest.mark.parametrize("name", ["score", "compare", "report", "explain"])
def test_no_command_needs_dask_or_spark(files, name):
    # The cluster extras are for rougekit.dask and rougekit.spark only.
    proc = run_blocked("dask,distributed,pyspark", *command(name, files))
    assert proc.returncode == 0, proc.stderr[-2000:]
    proc = run_blocked("dask,distributed,pyspark", "audit", "--jsonl", files / "a.jsonl")
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_a_missing_extra_no_check_reached_is_still_one_line(monkeypatch, capsys):
    # The last net, for a command whose own checks miss one: an ImportError
    # that says what to install is one line; any other is a bug, with its traceback.
    from rougekit import cli

    def missing(args):
        raise ImportError("--flag needs thing, which is not installed: "
                          "pip install 'rougekit[thing]'")
    monkeypatch.setattr(cli, "cmd_explain", missing)
    assert cli.main(["explain", "--target", "a", "--prediction", "b"]) == 2
    err = capsys.readouterr().err
    assert err == ("rougekit: error: --flag needs thing, which is not installed: "
                   "pip install 'rougekit[thing]'\n")

    def broken(args):
        raise ImportError("cannot import name 'x' from 'rougekit'")
    monkeypatch.setattr(cli, "cmd_explain", broken)
    with pytest.raises(ImportError, match="cannot import name"):
        cli.main(["explain", "--target", "a", "--prediction", "b"])
