"""Rewrite the ```text output blocks of the docs' Python examples with what
they print now (tests/test_docs.py checks them).

    PYTHONPATH=src python scripts/refresh_doc_outputs.py docs/guides/corpus.md ...

Each ```python block is run as tests/test_docs.py runs it (a fresh
interpreter, from the repository root); a ```text block right after it is
replaced by its output. Read the diff before committing: this makes the docs
say what the code does, which is only right when the code is.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(```python\n(.*?)```\n)(\n```text\n(.*?)```)", re.S)


def refresh(path: Path) -> int:
    text = path.read_text("utf-8")
    changed = 0

    def run(match: "re.Match[str]") -> str:
        nonlocal changed
        env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
        proc = subprocess.run([sys.executable, "-c", match.group(2)], capture_output=True,
                              text=True, timeout=600, cwd=ROOT, env=env)
        if proc.returncode != 0:
            sys.exit(f"{path}: an example failed:\n{proc.stderr}")
        if proc.stdout != match.group(4):
            changed += 1
        return f"{match.group(1)}\n```text\n{proc.stdout}```"

    path.write_text(BLOCK.sub(run, text), "utf-8")
    return changed


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: {refresh(Path(name))} output block(s) rewritten")
