"""The Python examples of the README and of the docs site run as written and
print what they show.

Each ```python block is run in a fresh interpreter, from the repository root;
when a ```text block follows it directly, the printed output must equal that
block. (Blocks that only show code, shell commands or output are other fences.)
A block that imports an optional library (pandas, polars, pyarrow, duckdb,
dask, pyspark, ray, torch) is skipped where it is absent, unless ROUGEKIT_REQUIRE_INTEGRATIONS=1.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from _integrations import need

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```python\n(.*?)```\n(?:\n```text\n(.*?)```)?", re.S)
OPTIONAL = ("pandas", "polars", "pyarrow", "duckdb", "dask", "distributed", "pyspark",
            "ray", "torch", "torchmetrics")


def _pages():
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    return [p for p in pages if p.exists()]


def examples():
    params = []
    for page in _pages():
        for i, (code, out) in enumerate(BLOCK.findall(page.read_text("utf-8"))):
            name = page.relative_to(ROOT).as_posix()
            params.append(pytest.param(code, out, id=f"{name}-{i}"))
    return params


@pytest.mark.parametrize("code,expected", examples())
def test_example(code, expected):
    for module in OPTIONAL:
        if re.search(rf"^\s*(import|from) {module}\b", code, re.M):
            need(module)
    # Spark's executors run this Python (and so this rougekit).
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)
    extra = re.search(r"pip install '(rougekit\[\w+\])'", proc.stderr)
    if proc.returncode != 0 and extra:
        # An optional library is missing: rougekit's one-line error names its extra.
        pytest.skip(f"the example needs {extra.group(1)}, which is not installed")
    assert proc.returncode == 0, proc.stderr
    if expected:
        assert proc.stdout == expected


def test_docs_have_examples():
    if not (ROOT / "docs").is_dir():
        pytest.skip("docs/ not beside the tests (running outside the source tree)")
    assert len(examples()) >= 15


def test_readme_is_a_front_page():
    readme = ROOT / "README.md"
    if not readme.exists():
        pytest.skip("README.md not beside the tests")
    assert len(readme.read_text("utf-8").splitlines()) < 250


def test_readme_first_command_prints_a_clean_result():
    """The README's first command (after its ``pip install . &&``) scores the
    example shipped in examples/: the scores, and nothing on stderr (no
    warning: the example's texts have a sentence per line, as rougeLsum needs)."""
    import shlex
    readme = ROOT / "README.md"
    if not readme.exists() or not (ROOT / "examples").is_dir():
        pytest.skip("README.md and examples/ not beside the tests")
    block = re.search(r"```sh\n(.*?)```", readme.read_text("utf-8"), re.S).group(1)
    command = shlex.split(block.strip().splitlines()[0].split("&&")[-1])
    assert command[:2] == ["rougekit", "score"], command
    proc = subprocess.run([sys.executable, "-m", "rougekit", *command[1:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert (proc.returncode, proc.stderr) == (0, "")
    rows = [line.split()[0] for line in proc.stdout.splitlines()[1:5]]
    assert rows == ["rouge1", "rouge2", "rougeL", "rougeLsum"], proc.stdout


def test_readme_links_point_at_files():
    readme = ROOT / "README.md"
    if not readme.exists() or not (ROOT / "docs").is_dir():
        pytest.skip("README.md and docs/ not beside the tests")
    for target in re.findall(r"\]\(((?:docs/|CHANGELOG|CONTRIBUTING)[^)#]*)", readme.read_text("utf-8")):
        assert (ROOT / target).exists(), target
