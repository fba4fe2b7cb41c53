"""Each shared idea of the compiled core has one definition in C and, where
Python needs it too, one in Python (issue 20): these scan the sources of
``rougekit`` for copies.

=================  ==============================  ==============================
idea               C (inline, cimported)           Python
=================  ==============================  ==============================
rouge kinds        ``_core/_kinds.pxd``            ``_core/_kinds_py.py``
P/R/F              ``_core/_prf.pxd``              ``_core/_prf_py.py``
the script's F     ``_core/_rouge155_numbers.pxd`` ``_core/_rouge155_numbers_py.py``
gram table         ``_core/_grams.pxd``            (dicts)
LCS row step       ``_core/_lcs.pxd``              ``_core/_lcs_py.py``
id limits          ``_core/_mem.pxd``              ``_core/_ids_py.py``
compiler hints     ``_core/include/hints.h``       (none)
=================  ==============================  ==============================
"""
import re
from pathlib import Path

import pytest

import rougekit

ROOT = Path(rougekit.__file__).resolve().parent
C_SOURCES = (".pyx", ".pxd", ".h")


def _sources(suffixes):
    return sorted(p for p in ROOT.rglob("*") if p.suffix in suffixes)


def _copies(pattern, suffixes, homes):
    """The files other than ``homes`` (names) where ``pattern`` matches."""
    if any(s in C_SOURCES for s in suffixes) and not _sources((".pyx",)):
        pytest.skip("the C sources are not here (an installed wheel)")
    regex = re.compile(pattern, re.M)
    return [str(p.relative_to(ROOT)) for p in _sources(suffixes)
            if p.name not in homes and regex.search(p.read_text("utf-8"))]


def test_rouge_kinds():
    assert not _copies(r"^\s*(?:KIND|ROUGE)_L(?:SUM|CS)?\s*=\s*-\d", (".py", ".pyx", ".pxd"),
                       {"_kinds.pxd", "_kinds_py.py"})


def test_the_f_measure():
    # 2 * P * R / (P + R), rouge-score's F, in any spelling of its names (in
    # code: not in ``quotes``).
    f = r"(?<![`\w.])2(?:\.0)?\s*\*\s*\w+\s*\*\s*\w+\s*/\s*\(\s*\w+\s*\+\s*\w+\s*\)"
    assert not _copies(f, (".py", ".pyx", ".pxd"), {"_prf.pxd", "_prf_py.py"})
    # (1 - alpha) * P + alpha * R, the script's denominator.
    alpha = r"\(1\s*-\s*alpha\)\s*\*\s*\w+\s*\+\s*alpha\s*\*\s*\w+"
    assert not _copies(alpha, (".py", ".pyx", ".pxd"),
                       {"_rouge155_numbers.pxd", "_rouge155_numbers_py.py"})


def test_the_gram_table():
    # Open addressing on 64-bit keys: its multiplicative hash (the token
    # table's hash, over strings, in include/vocab.h, seeds itself with the
    # constant).
    assert not _copies(r"0x9E3779B97F4A7C15", C_SOURCES, {"_grams.pxd", "vocab.h"})
    assert not _copies(r"struct\s+GramTable\s*:", C_SOURCES, {"_grams.pxd"})


def test_the_lcs_row_step():
    step = r"\(\s*(\w+)\s*\+\s*(\w+)\s*\)\s*\|\s*\(\s*\1\s*-\s*\2\s*\)"
    assert not _copies(step, C_SOURCES, {"_lcs.pxd"})
    assert not _copies(step, (".py",), {"_lcs_py.py"})


def test_the_compiler_hints():
    # RK_ALWAYS_INLINE, RK_NOINLINE and RK_LIKELY had a definition in each
    # header that used them (two of RK_ALWAYS_INLINE, one without MSVC's).
    assert not _copies(r"^\s*#\s*define\s+RK_(?:ALWAYS_INLINE|NOINLINE|LIKELY)\b", C_SOURCES,
                       {"hints.h"})


def test_the_id_limits():
    assert not _copies(r"0x7FFFFFF[0F]", (".py", ".pyx", ".pxd"), {"_mem.pxd", "_ids_py.py"})


def test_every_struct_has_its_own_name():
    """Two structs of one name (there were two ``Scratch``) read as one idea."""
    names = {}
    for path in _sources((".pyx", ".pxd")):
        for name in re.findall(r"^(?:ctypedef|cdef)\s+struct\s+(\w+)", path.read_text("utf-8"),
                               re.M):
            names.setdefault(name, []).append(path.name)
    if not names:
        pytest.skip("the C sources are not here (an installed wheel)")
    assert {n: files for n, files in names.items() if len(files) > 1} == {}
