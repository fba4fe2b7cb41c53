"""Every module-level name of rouge-score 0.1.2's modules exists in rougekit's,
with the same signature, and its helpers give the same results.

Checked mechanically with ``inspect`` against the installed rouge-score, so a
name added there (or lost here) fails the test. Imports that are not API are
left out: modules, ``from __future__`` features, and ``six.moves`` aliases of
builtins (``map``, ``range``, ``zip``...).
"""
import __future__

import builtins
import collections
import importlib
import inspect
import random

import pytest
from rouge_score import rouge_scorer as ref

from rougekit import rouge_scorer as kit

MODULES = ["rouge_scorer", "scoring", "tokenize", "tokenizers", "io", "rouge"]


def _api(module):
    names = {}
    for name, value in vars(module).items():
        if name.startswith("__") or inspect.ismodule(value):
            continue
        if isinstance(value, __future__._Feature):
            continue
        if getattr(builtins, name, None) is value or \
                getattr(value, "__module__", None) in ("builtins", "typing"):
            continue          # six.moves.map, typing.Dict, ...
        names[name] = value
    return names


def _signature(value):
    """Parameter names, kinds and defaults (type hints are rougekit's extra)."""
    try:
        params = inspect.signature(value).parameters.values()
    except (TypeError, ValueError):
        return None
    return [(p.name, p.kind, p.default) for p in params]


def _same_or_extended(mine, theirs):
    """rouge-score's parameters, in order (a default added where rouge-score
    requires one: ``RougeScorer(options=...)`` needs no rouge types), then
    possibly rougekit's own keyword-only ones with defaults
    (``RougeScorer(..., lang=...)``), which no call written for rouge-score
    can reach."""
    if mine is None or theirs is None:
        return mine == theirs
    extra = mine[len(theirs):]
    same = all(m[:2] == t[:2] and (m[2] == t[2] or t[2] is inspect.Parameter.empty)
               for m, t in zip(mine, theirs))
    return len(mine) >= len(theirs) and same and all(
        kind == inspect.Parameter.KEYWORD_ONLY and default is not inspect.Parameter.empty
        for _, kind, default in extra)


@pytest.mark.parametrize("name", MODULES)
def test_every_name_exists_with_the_same_signature(name):
    theirs = _api(importlib.import_module("rouge_score." + name))
    ours = importlib.import_module("rougekit." + name)
    missing = sorted(n for n in theirs if not hasattr(ours, n))
    assert not missing, f"rougekit.{name} lacks {missing}"
    for n, value in theirs.items():
        mine = getattr(ours, n)
        if callable(value) and not (name == "rouge" and n == "FLAGS"):
            assert _same_or_extended(_signature(mine), _signature(value)), (name, n)
        elif isinstance(value, (str, int, float)):
            assert mine == value, (name, n)
        elif hasattr(value, "pattern"):         # compiled regular expressions
            assert (mine.pattern, mine.flags) == (value.pattern, value.flags), (name, n)


def test_flags_take_rouge_scores_flags():
    from rouge_score import rouge as ref_rouge

    from rougekit import rouge
    theirs = {f for f in ref_rouge.FLAGS if f in (
        "target_filepattern", "prediction_filepattern", "output_filename", "delimiter",
        "rouge_types", "use_stemmer", "aggregate", "split_summaries")}
    assert len(theirs) == 8
    for flag in theirs:
        assert getattr(rouge.FLAGS, flag) == ref_rouge.FLAGS[flag].default, flag


WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "7", "cat's"]


def _tokens(rng, hashable=True):
    n = rng.choice([0, 1, 2, 3, 5, 8, 13, 70])
    toks = [rng.choice(WORDS) for _ in range(n)]
    return toks if hashable else [[t] for t in toks]


def _same(a, b):
    assert a == b
    assert type(a) is type(b) or type(a).__name__ == type(b).__name__
    if isinstance(a, tuple):
        assert [type(x) for x in a] == [type(x) for x in b]


@pytest.mark.parametrize("seed", range(3))
def test_helpers_equal_rouge_scores_on_random_tokens(seed):
    rng = random.Random(seed)
    for _ in range(300):
        a, b = _tokens(rng), _tokens(rng)
        _same(kit._score_lcs(a, b), ref._score_lcs(a, b))
        assert kit._lcs_table(a, b) == ref._lcs_table(a, b)
        table = ref._lcs_table(a, b)
        assert kit._backtrack_norec(table, a, b) == ref._backtrack_norec(table, a, b)
        assert kit.lcs_ind(a, b) == ref.lcs_ind(a, b)
        for n in (1, 2, 3, 9, 0):
            mine, theirs = kit._create_ngrams(a, n), ref._create_ngrams(a, n)
            assert mine == theirs and list(mine.items()) == list(theirs.items())
            _same(kit._score_ngrams(ref._create_ngrams(a, n), ref._create_ngrams(b, n)),
                  ref._score_ngrams(ref._create_ngrams(a, n), ref._create_ngrams(b, n)))
        sents_a = [_tokens(rng) for _ in range(rng.randint(0, 3))]
        sents_b = [_tokens(rng) for _ in range(rng.randint(0, 3))]
        _same(kit._summary_level_lcs(sents_a, sents_b), ref._summary_level_lcs(sents_a, sents_b))
        assert kit._union_lcs(a, sents_b) == ref._union_lcs(a, sents_b)
        lists = [sorted(rng.sample(range(10), rng.randint(0, 5))) for _ in range(3)]
        assert kit._find_union(lists) == ref._find_union(lists)


def test_helpers_on_unhashable_and_odd_tokens():
    rng = random.Random(7)
    for _ in range(100):
        a, b = _tokens(rng, hashable=False), _tokens(rng, hashable=False)
        _same(kit._score_lcs(a, b), ref._score_lcs(a, b))
        assert kit.lcs_ind(a, b) == ref.lcs_ind(a, b)
        if a and b:   # tokens counted by value: both raise
            with pytest.raises(TypeError):
                ref._summary_level_lcs([a], [b])
            with pytest.raises(TypeError):
                kit._summary_level_lcs([a], [b])
    # Counters of other numbers, plain dicts, tuples and strings as token lists.
    big = collections.Counter({("a",): 2 ** 70, ("b",): 1})
    _same(kit._score_ngrams(big, collections.Counter({("a",): 3})),
          ref._score_ngrams(big, collections.Counter({("a",): 3})))
    _same(kit._score_ngrams({("a",): 1}, {("a",): 2}), ref._score_ngrams({("a",): 1}, {("a",): 2}))
    with pytest.raises(KeyError):
        kit._score_ngrams({("a",): 1}, {})
    with pytest.raises(KeyError):
        ref._score_ngrams({("a",): 1}, {})
    _same(kit._score_lcs(("a", "b"), ("b",)), ref._score_lcs(("a", "b"), ("b",)))
    assert kit._create_ngrams("abcab", 2) == ref._create_ngrams("abcab", 2)
    _same(kit._score_lcs([1, 2.0, 3], [2, 3]), ref._score_lcs([1, 2.0, 3], [2, 3]))
