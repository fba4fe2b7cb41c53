"""mypy passes on the package (type hints, the .pyi stubs of the compiled
modules, py.typed)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_passes_on_the_package():
    pytest.importorskip("mypy")
    if not (ROOT / "src" / "rougekit").is_dir():
        pytest.skip("source tree not beside the tests (running against a wheel)")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypy.ini"),
                           str(ROOT / "src" / "rougekit")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_stubs_cover_the_compiled_modules():
    pkg = ROOT / "src" / "rougekit"
    if not pkg.is_dir():
        pytest.skip("source tree not beside the tests")
    pyx_files = list(pkg.rglob("*.pyx"))
    assert pyx_files, "no compiled module found"
    for pyx in pyx_files:
        assert pyx.with_suffix(".pyi").exists(), f"{pyx.name} has no .pyi stub"
    assert (pkg / "py.typed").exists()
