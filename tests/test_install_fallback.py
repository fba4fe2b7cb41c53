"""setup.py where no C extension can be built: ``pip install .`` goes on with
the pure-Python twins and prints one line that says so; ``ROUGEKIT_NO_EXTENSIONS=1``
builds the pure package on purpose; a build that requires the compiled core
(``ROUGEKIT_REQUIRE_EXTENSIONS``, ``ROUGEKIT_WERROR``, ``ROUGEKIT_SANITIZE``,
cibuildwheel's ``CIBUILDWHEEL``) fails instead; a compiler that works but fails
on rougekit's sources is an error too.

Each test installs a copy of the source tree for real, with pip, into a
temporary target. ``CC=false`` stands for a machine without a C compiler. pip
runs without build isolation where this Python has the build requirements
(setuptools and Cython), so the fallback installs take a second or two; only
the test of a failing compiler cythonizes the sources.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# No build marker: these tests build their own installs, whatever the backend
# under test; they run in the default suite.
pytestmark = []

ROOT = Path(__file__).resolve().parent.parent
if not (ROOT / "setup.py").is_file():
    pytest.skip("needs the source tree (setup.py beside tests/)", allow_module_level=True)
if sys.platform == "win32":
    pytest.skip("CC names the compiler on POSIX only (MSVC ignores it)", allow_module_level=True)

# The one line setup.py prints when it falls back, up to its reason.
FALLBACK = "rougekit: built WITHOUT its compiled core: "
# The variables that decide the build; each test sets the ones it needs.
BUILD_VARIABLES = ("ROUGEKIT_NO_EXTENSIONS", "ROUGEKIT_REQUIRE_EXTENSIONS", "ROUGEKIT_WERROR",
                   "ROUGEKIT_SANITIZE", "CIBUILDWHEEL", "ROUGEKIT_PURE_PYTHON", "CC",
                   "PYTHONPATH")

PAIRS = [
    ("The cat sat on the mat.", "The cat was sitting on the mat!"),
    ("Running runners ran; the RUNNER runs.", "runners running, a run ran"),
    ("a a a b b c", "a b a b c c a"),
    ("First sentence here.\nSecond one, longer than the first.",
     "Second sentence here.\nFirst one, shorter."),
    ("", "nothing to match"),
    ("!!! ... ???", "punctuation only?"),
    ("café naïve résumé 東京 the end", "the café end naïve"),
]
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
# Run by the installed package: its backend, where it was imported from, and
# its scores for PAIRS with and without stemming.
SCORE = """
import json, os, sys, rougekit
from rougekit import rouge_scorer
pairs, types = json.loads(sys.argv[1])
scores = {str(stem): [{k: list(v) for k, v in
                       rouge_scorer.RougeScorer(types, use_stemmer=stem).score(t, p).items()}
                      for t, p in pairs]
          for stem in (False, True)}
print(json.dumps({"backend": rougekit.BACKEND, "file": rougekit.__file__, "scores": scores}))
"""


def _has_build_requirements():
    """True when this Python can build rougekit without pip's isolation."""
    try:
        import Cython  # noqa: F401
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A copy of what the sdist carries, less any build output (.so, .c)."""
    dest = tmp_path_factory.mktemp("tree")
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "src", dest / "src", ignore=shutil.ignore_patterns(
        "*.so", "*.pyd", "*.c", "*.html", "__pycache__", "*.egg-info"))
    return dest


def _env(**settings):
    env = {k: v for k, v in os.environ.items() if k not in BUILD_VARIABLES}
    env.update(settings)
    return env


def _pip_install(source, target, env, *options):
    """pip install the source into target (no dependencies): a CompletedProcess,
    stdout and stderr together."""
    isolation = ["--no-build-isolation", "--no-index"] if _has_build_requirements() else []
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps",
           *isolation, *options, "--target", str(target), str(source)]
    # A session of its own: no controlling terminal, so setup.py's line goes to
    # the captured output only, never to the terminal running the tests.
    return subprocess.run(cmd, env=env, cwd=str(target.parent), capture_output=True,
                          text=True, start_new_session=True)


def _output(proc):
    return proc.stdout + proc.stderr


def _extensions(target):
    return sorted(str(p.relative_to(target)) for p in target.rglob("*")
                  if p.suffix in (".so", ".pyd"))


def _installed_scores(target):
    """The backend, the module's path and the scores of the rougekit in target."""
    out = subprocess.run([sys.executable, "-c", SCORE, json.dumps([PAIRS, TYPES])],
                         env=_env(PYTHONPATH=str(target)), cwd=str(target),
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_no_compiler_installs_the_pure_package_with_one_line(source, tmp_path):
    from rouge_score import rouge_scorer

    target = tmp_path / "site"
    proc = _pip_install(source, target, _env(CC="false"), "-v")
    assert proc.returncode == 0, _output(proc)[-4000:]
    lines = [line.strip() for line in _output(proc).splitlines() if FALLBACK in line]
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith(FALLBACK + "no working C compiler (false exited with status 1)")
    assert "install one (gcc, clang or MSVC) and reinstall" in line
    assert "prebuilt wheel" in line
    assert _extensions(target) == []

    installed = _installed_scores(target)
    assert installed["backend"] == "pure"
    assert installed["file"].startswith(str(target))
    for stem in (False, True):
        reference = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        for (t, p), got in zip(PAIRS, installed["scores"][str(stem)]):
            want = {k: list(v) for k, v in reference.score(t, p).items()}
            assert got == want, (t, p, stem)


def test_the_line_reaches_the_terminal_of_a_plain_pip_install(source, tmp_path):
    """pip shows a build's output only with -v; setup.py writes its line to
    the terminal too, so a plain ``pip install .`` in one shows it."""
    import pty

    target = tmp_path / "site"
    isolation = ["--no-build-isolation", "--no-index"] if _has_build_requirements() else []
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps",
           *isolation, "--target", str(target), str(source)]
    pid, fd = pty.fork()
    if pid == 0:                                   # the child: pip, on the terminal
        try:
            os.chdir(str(tmp_path))
            os.execve(sys.executable, cmd, _env(CC="false"))
        finally:
            os._exit(127)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:                            # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, shown[-4000:]
    assert shown.count(FALLBACK + "no working C compiler") == 1, shown[-4000:]
    assert "Successfully installed rougekit" in shown


def test_no_headers_installs_the_pure_package(source, tmp_path):
    """A compiler without Python's C headers (Debian's python3 without
    python3-dev): a compiler that fails on any file including Python.h."""
    if shutil.which("cc") is None:
        pytest.skip("needs cc")
    cc = tmp_path / "cc-without-python-h"
    cc.write_text('#!/bin/sh\nfor a; do case "$a" in *.c) if grep -q "Python.h" "$a"; then\n'
                  '  echo "$a:1:10: fatal error: Python.h: No such file or directory" >&2\n'
                  '  exit 1; fi;; esac; done\nexec cc "$@"\n')
    cc.chmod(0o755)
    target = tmp_path / "site"
    proc = _pip_install(source, target, _env(CC=str(cc)), "-v")
    assert proc.returncode == 0, _output(proc)[-4000:]
    lines = [line.strip() for line in _output(proc).splitlines() if FALLBACK in line]
    assert len(lines) == 1, lines
    assert lines[0].startswith(FALLBACK + "no Python C headers (")
    assert "install them (Debian/Ubuntu: python3-dev)" in lines[0]
    assert _extensions(target) == []
    assert _installed_scores(target)["backend"] == "pure"


@pytest.mark.parametrize("variable", ["ROUGEKIT_REQUIRE_EXTENSIONS", "ROUGEKIT_WERROR",
                                      "ROUGEKIT_SANITIZE", "CIBUILDWHEEL"])
def test_a_required_build_fails_without_a_compiler(source, tmp_path, variable):
    target = tmp_path / "site"
    proc = _pip_install(source, target, _env(CC="false", **{variable: "1"}), "-v")
    out = _output(proc)
    assert proc.returncode != 0, out[-4000:]
    assert ("rougekit: cannot build the compiled core: no working C compiler "
            "(false exited with status 1); %s=1 requires it" % variable) in out, out[-4000:]
    assert FALLBACK not in out
    assert not (target / "rougekit").exists()


def test_no_extensions_builds_the_pure_package_with_a_compiler(source, tmp_path):
    """ROUGEKIT_NO_EXTENSIONS=1 builds nothing even where a compiler works, and
    wins over ROUGEKIT_WERROR (.ci/run exports it for every step)."""
    target = tmp_path / "site"
    proc = _pip_install(source, target, _env(ROUGEKIT_NO_EXTENSIONS="1", ROUGEKIT_WERROR="1"),
                        "-v")
    assert proc.returncode == 0, _output(proc)[-4000:]
    assert FALLBACK not in _output(proc)
    assert _extensions(target) == []
    assert _installed_scores(target)["backend"] == "pure"


def test_no_extensions_and_require_extensions_contradict(source, tmp_path):
    proc = subprocess.run([sys.executable, "setup.py", "--name"], cwd=str(source),
                          env=_env(ROUGEKIT_NO_EXTENSIONS="1", ROUGEKIT_REQUIRE_EXTENSIONS="1"),
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "contradict each other" in proc.stderr


def test_a_compiler_that_fails_on_the_sources_is_an_error(source, tmp_path):
    """A compiler that builds the probes but not rougekit's C (a bug of ours, or
    a compiler we do not support): the build fails, required or not."""
    if shutil.which("cc") is None:
        pytest.skip("needs cc")
    if not _has_build_requirements():
        pytest.skip("needs Cython and setuptools>=77 in this Python")
    cc = tmp_path / "cc-probes-only"
    cc.write_text('#!/bin/sh\ncase "$*" in *rougekit-probe-*) exec cc "$@";; esac\n'
                  'echo "cc-probes-only: refused" >&2\nexit 1\n')
    cc.chmod(0o755)
    tree = tmp_path / "tree"
    shutil.copytree(source, tree)
    proc = subprocess.run([sys.executable, "setup.py", "build_ext"], cwd=str(tree),
                          env=_env(CC=str(cc)), capture_output=True, text=True,
                          start_new_session=True)
    out = _output(proc)
    assert proc.returncode != 0, out[-4000:]
    assert "cc-probes-only: refused" in out
    assert "rougekit: the C compiler works but failed on rougekit's C sources" in out
    assert FALLBACK not in out
