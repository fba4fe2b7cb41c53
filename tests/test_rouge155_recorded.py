"""``rougekit rouge155`` against ROUGE-1.5.5.pl's recorded outputs, without Perl.

``tests/data/rouge155/`` holds inputs (SPL, SEE, ISI, a ``-z`` list, several
systems, empty and odd summaries, bytes that are not UTF-8) and what the real
script printed for each of its cases (``cases.json``: the arguments and exit
status; ``expected/CASE.out`` and ``.err``: stdout and stderr), recorded by
``scripts/record_rouge155.py``. Each case runs here on every kernel this
process has (compiled and pure, or pure only) and its stdout must equal the
recording byte for byte, its stderr too; where the script died, rougekit exits
2 with one line. None of this needs Perl, so a fresh clone tests it.

Where Perl and the script are present, the recording script's ``--check``
re-records every case and must write the same bytes (skipped without Perl,
failed in CI without it, like the live comparisons of
``test_rouge155_parity.py``).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _rouge155 import ORACLE_PY, first_difference, kernel_names, oracle, run_kit, use_kernel

pytestmark = [pytest.mark.kernel, pytest.mark.installed]

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "rouge155"
RECORDER = HERE.parent / "scripts" / "record_rouge155.py"
MANIFEST = json.loads((DATA / "cases.json").read_text("utf-8"))
CASES = MANIFEST["cases"]


def test_the_recording_is_whole():
    """At least 15 cases, every file a case names is there, and no other."""
    assert len(CASES) >= 15
    names = [case["name"] for case in CASES]
    assert len(set(names)) == len(names)
    expected = set()
    for case in CASES:
        assert (DATA / "inputs" / case["inputs"]).is_dir(), case
        if case["returncode"] == 0:
            expected.add(case["name"] + ".out")
            if case.get("stderr"):
                expected.add(case["name"] + ".err")
    assert {p.name for p in (DATA / "expected").iterdir()} == expected
    # What the recording covers: options, formats, systems, a run where the script died.
    flags = {arg for case in CASES for arg in case["argv"] if arg.startswith("-")}
    assert {"-n", "-m", "-s", "-w", "-2", "-u", "-U", "-l", "-b", "-f", "-p", "-c", "-r",
            "-t", "-M", "-d", "-a", "-z", "-x"} <= flags
    assert any(case["returncode"] != 0 for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_recorded_output(case, monkeypatch):
    workdir = DATA / "inputs" / case["inputs"]
    stdout = stderr = b""
    if case["returncode"] == 0:
        stdout = (DATA / "expected" / (case["name"] + ".out")).read_bytes()
        if case.get("stderr"):
            stderr = (DATA / "expected" / (case["name"] + ".err")).read_bytes()
    for kernel in kernel_names():
        use_kernel(monkeypatch, kernel)
        kit = run_kit(workdir, case["argv"])
        if case["returncode"] != 0:
            assert kit.returncode == 2, (kernel, kit)
            assert kit.stdout == b""
            assert len(kit.stderr.strip().splitlines()) == 1, kit.stderr
            continue
        assert kit.returncode == 0, (kernel, kit.stderr)
        assert kit.stdout == stdout, "%s %s: %s" % (
            kernel, " ".join(case["argv"]), first_difference(stdout, kit.stdout))
        assert kit.stderr == stderr.decode("utf-8"), kernel


def test_the_command_prints_a_recording():
    """The installed ``rougekit rouge155`` command, in a process of its own."""
    import rougekit

    case = next(c for c in CASES if c["name"] == "n2-stem-stop")
    # The rougekit under test, from whatever folder the case runs in.
    path = os.pathsep.join([str(Path(rougekit.__file__).resolve().parents[1]),
                            os.environ.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-m", "rougekit", "rouge155", *case["argv"]],
                          cwd=str(DATA / "inputs" / case["inputs"]), capture_output=True,
                          env=dict(os.environ, PYTHONPATH=path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (DATA / "expected" / "n2-stem-stop.out").read_bytes()


def test_a_re_recording_writes_the_same_bytes():
    """scripts/record_rouge155.py --check: the real script, re-run on every
    case, gives the committed outputs (and the script writes the same inputs)."""
    if not RECORDER.is_file():
        pytest.skip("scripts/ not beside the tests (running against a wheel)")
    oracle()                                   # skips (fails in CI) without Perl
    proc = subprocess.run([sys.executable, str(RECORDER), "--check", "--out", str(DATA),
                           "--oracle", str(ORACLE_PY)],
                          capture_output=True, text=True, env=dict(os.environ))
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "every file the same" in proc.stdout
