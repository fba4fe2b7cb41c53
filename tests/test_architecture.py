"""The layout's rules, checked on the source tree (CONTRIBUTING.md, docs/architecture.md).

- imports point downward: the import graph of src/rougekit (every ``import``
  and ``from ... import``, those inside functions included, relative ones
  resolved) has no cycle;
- no source file is over 1,000 lines;
- no module takes another's private names (``../shared/tools/private_reach.py``);
- one home for the engines' front end: no block of six or more lines is
  repeated between two of ``dask.py``, ``spark.py`` and ``ray.py``, nor within
  ``_engine.pyx``;
- no merge left its conflict markers in a tracked file;
- every stage choice an option field declares has its function registered
  (``rougekit._stages``).
"""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "rougekit"
SOURCE_SUFFIXES = (".py", ".pyx", ".pxd", ".pyi", ".h", ".js", ".css", ".html")
MAX_LINES = 1000
REPEAT = 6

if not SRC.is_dir():
    pytest.skip("the source tree is not here (an installed wheel's tests)",
                allow_module_level=True)


def module_name(path):
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules():
    return {module_name(p): p for p in SRC.rglob("*") if p.suffix in (".py", ".pyx")}


def imports_of(name, path, known):
    """The rougekit modules ``path`` imports (anywhere in it)."""
    if path.suffix == ".pyx":
        tree_text = path.read_text(encoding="utf-8")
        return {m for m in known if f"import {m}" in tree_text or f"from {m} " in tree_text}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                child = f"{module}.{alias.name}"
                found.add(child if child in known else module)
    return {m for m in found if m in known and m != name}


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    # the graph's depth is at most its ~150 modules: within Python's default
    # recursion limit, which is left alone (other tests depend on it)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    known = modules()
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_source_file_over_1000_lines():
    long = {str(p.relative_to(ROOT)): n for p in SRC.rglob("*")
            if p.suffix in SOURCE_SUFFIXES
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def conflict_markers(text):
    """Lines a merge left behind: ``<<<<<<< ours`` and ``>>>>>>> theirs``."""
    return [n for n, line in enumerate(text.splitlines(), 1)
            if line.startswith(("<<<<<<< ", ">>>>>>> "))]


def test_no_merge_conflict_markers():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode:
        pytest.skip("not a git checkout")
    found = {}
    for name in tracked.stdout.splitlines():
        path = ROOT / name
        if not path.is_file() or path.suffix in {".gz", ".png", ".whl", ".so"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if lines := conflict_markers(text):
            found[name] = lines
    assert found == {}
    assert conflict_markers("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> branch\n") == [2, 6]


def test_no_private_reach():
    tool = Path(os.environ.get("ROUGEKIT_SHARED", ROOT.parent / "shared")) / "tools" \
        / "private_reach.py"
    if not tool.is_file():
        pytest.skip(f"{tool} is not here (the shared folder beside the checkout)")
    out = subprocess.run([sys.executable, str(tool), str(SRC)], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip().splitlines()[-1].endswith(": 0"), out


def repeated_blocks(a_lines, b_lines, same_file=False):
    """Blocks of REPEAT consecutive lines (stripped, blank and comment-only
    lines left out) found in both."""
    def blocks(lines):
        kept = [(i, line.strip()) for i, line in enumerate(lines)
                if line.strip() and not line.strip().startswith(("#", '"""'))]
        return {tuple(t for _, t in kept[k:k + REPEAT]): kept[k][0]
                for k in range(len(kept) - REPEAT + 1)}
    a_blocks = blocks(a_lines)
    if same_file:
        seen, found = {}, []
        kept = [line.strip() for line in a_lines
                if line.strip() and not line.strip().startswith(("#", '"""'))]
        for k in range(len(kept) - REPEAT + 1):
            block = tuple(kept[k:k + REPEAT])
            if block in seen and k - seen[block] >= REPEAT:
                found.append(block)
            seen.setdefault(block, k)
        return found
    b_blocks = blocks(b_lines)
    return [block for block in a_blocks if block in b_blocks]


@pytest.mark.parametrize("a, b", [("dask", "spark"), ("dask", "ray"), ("spark", "ray")])
def test_the_engines_share_their_front_end(a, b):
    a_lines = (SRC / f"{a}.py").read_text(encoding="utf-8").splitlines()
    b_lines = (SRC / f"{b}.py").read_text(encoding="utf-8").splitlines()
    assert repeated_blocks(a_lines, b_lines) == []


def test_the_engine_has_one_loop():
    engine = (SRC / "_core" / "_engine.pyx").read_text(encoding="utf-8").splitlines()
    assert repeated_blocks(engine, engine, same_file=True) == []


def test_the_repeat_finder_finds_a_copy():
    body = [f"x{k} = {k}" for k in range(REPEAT)]
    assert repeated_blocks(body + ["y"], ["z"] + body) == [tuple(body)]
    assert repeated_blocks(body + ["y"] + body, None, same_file=True) == [tuple(body)]
    assert repeated_blocks(body[:-1], body) == []


def test_every_stage_choice_has_its_function():
    from rougekit import _options, _pipeline, _stages  # noqa: F401 (registers)
    for registry, choices in ((_stages.F_MEASURES, _options.F_MEASURES),
                              (_stages.COUNTINGS, _options.COUNTINGS),
                              (_stages.ROUGE_L_RULES, _options.ROUGE_L_RULES),
                              (_stages.AGGREGATIONS, _options.CORPUS_AGGREGATIONS)):
        assert set(registry.names()) == set(choices), registry.what


def test_the_pipeline_names_no_flavor():
    from rougekit.flavors import FLAVORS
    tree = ast.parse((SRC / "_pipeline.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):     # the code without its docstrings and comments
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0] = ast.Pass()
    code = ast.unparse(tree)
    for flavor in FLAVORS:
        if flavor == "rouge-score":
            continue      # rouge-score's arithmetic is rougekit's own
        assert f"'{flavor}'" not in code and f"_{flavor}" not in code, flavor
    assert "compat" not in code and "rouge155" not in code
