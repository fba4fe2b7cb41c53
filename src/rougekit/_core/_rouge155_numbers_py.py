"""Numbers as ROUGE-1.5.5.pl prints them, and its F: the Python definition
(``_rouge155_numbers.pxd`` is the C one, inline in the compiled kernels; the
twin tests hold them equal).

>>> round5(2 / 3), f_measure(0.5, 1.0, 0.5)
(0.66667, 0.66667)
"""

__all__ = ["round5", "alpha_fmeasure", "f_measure"]


def round5(x: float) -> float:
    """``x`` through the script's ``sprintf("%7.5f", x)`` and back to a number.

    >>> round5(2 / 3)
    0.66667
    """
    return float("%.5f" % x)


def alpha_fmeasure(p: float, r: float, alpha: float) -> float:
    """The script's F of precision p and recall r (``-p alpha``):
    P*R / ((1-alpha)*P + alpha*R), 0 when the denominator is not positive.
    Unrounded: the bootstrap's resamples use it so."""
    d = (1 - alpha) * p + alpha * r
    return (p * r) / d if d > 0 else 0.0


def f_measure(p: float, r: float, alpha: float) -> float:
    """The F the script prints for an evaluation: ``alpha_fmeasure`` of the
    rounded P and R, itself rounded."""
    return round5(alpha_fmeasure(p, r, alpha))
