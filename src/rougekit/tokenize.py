"""rouge-score's default tokenization: lowercase ASCII letters and digits.

``tokenize(text, stemmer)`` returns what rouge-score's ``tokenize.tokenize``
returns, for ``str`` and UTF-8 ``bytes``: the text is lowercased (for bytes,
ASCII-only, before decoding, as ``bytes.lower`` does), every run of characters
other than ``a-z0-9`` separates tokens, and with a stemmer every token longer
than 3 characters is stemmed.

>>> tokenize("The cat's 2 hats!", None)
['the', 'cat', 's', '2', 'hats']
"""
import re
from typing import Any, List, Optional, Union

from rougekit._core._tokenizer_py import WORD_RE

__all__ = ["tokenize"]

# rouge-score's patterns; VALID_TOKEN_RE keeps its exact semantics ("$" also
# matches before a final newline) for tokens returned by arbitrary stemmers.
NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)

# Splitting on non-[a-z0-9] runs and dropping empty pieces is the same as
# taking the maximal [a-z0-9] runs.
_TOKEN_RE = WORD_RE


def ensure_str(text: Any, name: str = "text") -> str:
    """``str`` as is, ``bytes`` decoded as UTF-8; anything else a TypeError."""
    if isinstance(text, str):
        return text
    if isinstance(text, bytes):
        return text.decode("utf-8")
    raise TypeError(f"{name} must be str or bytes, not {type(text).__name__}")


def lowered_str(text: Any, name: str = "text") -> str:
    """rouge-score's ``six.ensure_str(text.lower())`` for str and bytes."""
    if isinstance(text, (str, bytes)):
        return ensure_str(text.lower(), name)
    raise TypeError(f"{name} must be str or bytes, not {type(text).__name__}")


def tokenize(text: Union[str, bytes], stemmer: Optional[Any]) -> List[str]:
    """Tokenizes ``text`` as rouge-score does; ``stemmer`` has ``.stem(word)``."""
    tokens = _TOKEN_RE.findall(lowered_str(text))
    if not stemmer:
        return tokens
    # Only words longer than 3 characters are stemmed, as in ROUGE-1.5.5.
    tokens = [ensure_str(stemmer.stem(x), "stem") if len(x) > 3 else x
              for x in tokens]
    return [x for x in tokens if VALID_TOKEN_RE.match(x)]
