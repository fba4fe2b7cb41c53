"""Optional libraries of the table and cluster integrations (pandas, polars,
pyarrow, dask, pyspark).

Their tests skip when a library is absent, except where
``ROUGEKIT_REQUIRE_INTEGRATIONS=1`` is set (``.ci/run`` sets it, having
installed them): there a missing library fails the run instead of skipping
the tests silently.
"""
import importlib
import os
import random

import pytest

REQUIRED = os.environ.get("ROUGEKIT_REQUIRE_INTEGRATIONS", "") not in ("", "0")


def need(name):
    """The module ``name``; skip the calling test module if it is absent
    (fail with ImportError under ROUGEKIT_REQUIRE_INTEGRATIONS=1)."""
    if REQUIRED:
        return importlib.import_module(name)
    return pytest.importorskip(name)


# A small corpus for the cluster tests: one to three references per item,
# empty and non-ASCII texts among them.
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
WORDS = ("the a cat cats dog sat ran running runs on under mat rug police gunman killed "
         "happy red blue").split()


def texts(rng, n):
    out = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randrange(0, 25))]
        text = " ".join(words)
        out.append(text.replace(" the ", ".\nThe ", 1) if rng.random() < 0.4 else text)
    return out


def make_rows(n=240, seed=3):
    rng = random.Random(seed)
    candidates = texts(rng, n) + ["", "...", "caf\u00e9"]
    references = [texts(rng, rng.randrange(1, 4)) if rng.random() < 0.6 else texts(rng, 1)[0]
                  for _ in range(n)] + ["x", ["", "y"], ["caf\u00e9 au lait"]]
    return candidates, references


CANDIDATES, REFERENCES = make_rows()
