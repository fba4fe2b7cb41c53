"""rougekit's warning classes, and ``warn``, which points a warning at the
caller's line (the first frame outside the rougekit package).

Every warning rougekit issues is a ``RougekitWarning``; each kind has its own
subclass, so a user can silence exactly one::

    import warnings, rougekit
    warnings.simplefilter("ignore", rougekit.TokenizationWarning)

>>> issubclass(TokenizationWarning, UserWarning)
True
"""
import os
import sys
import warnings
from types import FrameType
from typing import Optional

__all__ = ["RougekitWarning", "TokenizationWarning", "SentenceSplitWarning", "warn"]


class RougekitWarning(UserWarning):
    """The base class of every warning rougekit issues."""


class TokenizationWarning(RougekitWarning):
    """The tokenizer dropped most of a text's letters (rouge-score's default
    keeps only ASCII letters and digits), or a ``lang=`` option changes
    nothing: the scores are computed anyway, as rouge-score would."""


class SentenceSplitWarning(RougekitWarning):
    """rougeLsum was given text that looks like several sentences but has no
    newline: split on newlines (the default), it is one sentence, and
    rougeLsum then equals rougeL."""


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside rougekit (for ``warn``,
    counted from warn's caller)."""
    frame: Optional[FrameType] = sys._getframe(2)
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
            _PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level


def warn(message: str, category: type) -> None:
    """``warnings.warn`` attributed to the user's line that called into
    rougekit, so Python's default filter shows it once per call site."""
    warnings.warn(message, category, stacklevel=_caller_stacklevel())
