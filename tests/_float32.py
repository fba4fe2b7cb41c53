"""The corpus value of torchmetrics' ROUGEScore by its definition, and
distances in float32's last place (tests/test_torchmetrics.py,
tests/test_lightning.py)."""
from fractions import Fraction

import numpy as np


def float32_nearest(value):
    """The float32 nearest a Fraction, ties to even (independent of
    rougekit's limbs)."""
    guess = np.float32(float(value))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess,
                  np.nextafter(guess, np.float32(np.inf))]
    return min(candidates, key=lambda c: (abs(Fraction(float(c)) - value),
                                          int(np.float32(c).view(np.uint32)) & 1))


def exact_sum_mean(values):
    """The corpus value by its definition: the float32 nearest the exact
    mean of the items' float32 values (NaN for no values)."""
    if not len(values):
        return float("nan")
    total = sum((Fraction(v) for v in values), Fraction(0))
    return float(float32_nearest(total / len(values)))


def ulps(a, b):
    a, b = np.float32(a).view(np.int32), np.float32(b).view(np.int32)
    return abs(int(a) - int(b))
