"""The Python examples of README.md and of the guides in docs/ run as written
and print what they show.

Each ```python block is run in a fresh interpreter; when a ```text block
follows it directly, the printed output must equal that block. A block that
imports an optional library (pandas, polars, pyarrow, dask, pyspark) is
skipped where that library is absent, unless ROUGEKIT_REQUIRE_INTEGRATIONS=1.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _integrations import need

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"```python\n(.*?)```\n(?:\n```text\n(.*?)```)?", re.S)
OPTIONAL = ("pandas", "polars", "pyarrow", "dask", "distributed", "pyspark")


def documents():
    return [README] + sorted((ROOT / "docs").rglob("*.md"))


def examples():
    out = []
    for path in documents():
        if not path.exists():
            continue
        name = path.relative_to(ROOT).as_posix()
        for i, (code, expected) in enumerate(BLOCK.findall(path.read_text("utf-8"))):
            # README ids stay example-N, as before the guides were added.
            ident = f"example-{i}" if path == README else f"{name}-{i}"
            out.append(pytest.param(code, expected, id=ident))
    return out


@pytest.mark.parametrize("code,expected", examples())
def test_readme_example(code, expected):
    for module in OPTIONAL:
        if re.search(rf"^\s*(import|from) {module}\b", code, re.M):
            need(module)
    # Spark's executors run this Python (and so see this rougekit).
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    if expected:
        assert proc.stdout == expected


def test_readme_has_examples():
    if not README.exists():
        pytest.skip("README.md not beside the tests (running outside the source tree)")
    assert len(BLOCK.findall(README.read_text("utf-8"))) >= 6
