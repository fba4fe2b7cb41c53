"""Shared by tests/test_compat_rouge.py and tests/test_compat_rouge_chinese.py:
outcomes to compare (a result or an exception), the check that the installed
oracle is the real package, random texts, and a straightforward LCS for the
texts the packages cannot score."""
import base64
import hashlib
import importlib.metadata
import random
from pathlib import Path

import pytest

#: Every metric of both packages' Rouge.
ALL_METRICS = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-5", "rouge-l"]
#: get_scores's avg and ignore_empty, every combination.
CALL_PARAMS = [pytest.param(avg, ignore, id=f"avg={avg}-ignore_empty={ignore}")
               for avg in (False, True) for ignore in (False, True)]


def config_params(configs):
    """pytest params of Rouge(**config), named by the keys of ``configs``."""
    return [pytest.param(v, id=k) for k, v in configs.items()]


def outcome(call):
    """("ok", repr of the result) or (exception type name, message): repr
    tells 1 from 1.0 and shows key order and every float's digits."""
    try:
        return "ok", repr(call())
    except Exception as exc:  # noqa: BLE001 (the exception is the outcome)
        return type(exc).__name__, str(exc)


def get_scores_mismatches(both, config, batches, name, **call):
    """The batches (hyps, refs) on which ``Rouge(**config).get_scores(hyps,
    refs, **call)`` differs between rougekit and the package ``name``, as
    messages; both(call) runs call(module, rouge_score) on each side and
    returns their outcomes."""
    failures = []
    for hyps, refs in batches:
        mine, theirs = both(lambda m, _: m.Rouge(**config).get_scores(hyps, refs, **call))
        if mine != theirs:
            failures.append(f"{hyps!r} / {refs!r}:\n  rougekit {mine}\n  {name} {theirs}")
    return failures


def require_recorded_files(distribution, prefixes):
    """Fail unless the installed files of ``distribution`` under ``prefixes``
    are those its RECORD lists (same sha256).

    rouge-chinese 1.0.3's wheel also carries ``rouge/`` and
    ``bin/rouge_cmd.py``: installed after rouge 1.0.1, it silently replaces
    pltrdy's code, and a parity test would compare against the wrong package.
    """
    dist = importlib.metadata.distribution(distribution)
    checked = 0
    for entry in dist.files or []:
        if not entry.hash or not str(entry).startswith(prefixes):
            continue
        path = Path(entry.locate())
        digest = base64.urlsafe_b64encode(hashlib.sha256(path.read_bytes()).digest())
        if digest.rstrip(b"=").decode() != entry.hash.value:
            pytest.fail(f"{path} is not the file {distribution} {dist.version} installed "
                        "(rouge-chinese's wheel overwrites rouge/ and bin/): run "
                        f"pip install --no-deps --force-reinstall {distribution}=={dist.version}")
        checked += 1
    assert checked, f"no file of {distribution} under {prefixes}"


def random_text(rng, words, breaks, max_len=30):
    """Words from ``words`` joined by pieces of ``breaks`` (spaces, dots,
    end marks), so that sentences, empty pieces and empty words all occur."""
    n = rng.randint(0, max_len)
    return "".join(rng.choice(words) + rng.choice(breaks) for _ in range(n))


def random_batches(seed, count, make_text, empty_rate=0.05):
    """``count`` (hyps, refs) batches of 1 to 5 pairs; some texts empty."""
    rng = random.Random(seed)
    batches = []
    for _ in range(count):
        size = rng.randint(1, 5)
        pair = [["" if rng.random() < empty_rate else make_text(rng) for _ in range(size)]
                for _ in range(2)]
        batches.append((pair[0], pair[1]))
    return batches


def lcs_table(x, y):
    """The LCS table of x and y as a list of rows, filled row by row."""
    table = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    for i in range(1, len(x) + 1):
        row, above = table[i], table[i - 1]
        for j in range(1, len(y) + 1):
            row[j] = above[j - 1] + 1 if x[i - 1] == y[j - 1] else max(above[j], row[j - 1])
    return table


def pltrdy_lcs_words(x, y):
    """The words of the LCS that pltrdy's recursive ``_recon`` rebuilds, by a
    loop: from the table's end, a match goes diagonally, else up when the cell
    above is larger than the one on the left, else left."""
    table = lcs_table(x, y)
    i, j, out = len(x), len(y), []
    while i > 0 and j > 0:
        if x[i - 1] == y[j - 1]:
            out.append(x[i - 1])
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return out[::-1]


def packages_f(p, r):
    """The packages' F, written out: 2PR / (P + R + 1e-8)."""
    return 2.0 * ((p * r) / (p + r + 1e-8))
