"""The README's Python examples run as written and print what it shows.

Each ```python block is run in a fresh interpreter; when a ```text block
follows it directly, the printed output must equal that block.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"```python\n(.*?)```\n(?:\n```text\n(.*?)```)?", re.S)


def examples():
    if not README.exists():
        return []
    return [pytest.param(code, out, id=f"example-{i}")
            for i, (code, out) in enumerate(BLOCK.findall(README.read_text("utf-8")))]


@pytest.mark.parametrize("code,expected", examples())
def test_readme_example(code, expected):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    if expected:
        assert proc.stdout == expected


def test_readme_has_examples():
    if not README.exists():
        pytest.skip("README.md not beside the tests (running outside the source tree)")
    assert len(examples()) >= 6
