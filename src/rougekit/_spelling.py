"""Options named in the caller's language: keywords in Python, flags on the command line.

A message about an option is written once, with ``option(name, value)`` where
it names one; the command line runs its commands inside ``command_line()``,
and there the same message names the flag:

>>> option("sentence_split", "sentencex"), option("lang")
("sentence_split='sentencex'", 'lang=')
>>> with command_line():
...     option("sentence_split", "sentencex"), option("use_stemmer", True), option("lang")
('--sentence-split sentencex', '--stemmer', '--lang')

A keyword's flag is ``--`` and its name with "-" for "_", unless the module
that declares the option says otherwise (``declare_flag``: ``use_stemmer``
is ``--stemmer``). The command line is one per process, so the switch is the
process's, not a thread's: worker threads that report a problem while a
command runs speak as the command does.
"""
import contextlib
import shlex
from typing import Any, Dict, Iterator

__all__ = ["option", "name", "command_line", "declare_flag", "flag_of", "on_command_line",
           "NO_VALUE"]

#: ``option(name)`` without a value: the keyword alone ("lang=", "--lang").
NO_VALUE = object()

_FLAGS: Dict[str, str] = {}
_depth = [0]


def declare_flag(keyword: str, flag: str) -> None:
    """The command line's flag for ``keyword``, where it is not the default
    spelling (``--`` + the name with "-" for "_")."""
    _FLAGS[keyword] = flag


def flag_of(keyword: str) -> str:
    """The flag of ``keyword`` on the command line."""
    return _FLAGS.get(keyword, "--" + keyword.replace("_", "-"))


@contextlib.contextmanager
def command_line() -> Iterator[None]:
    """Inside, messages name flags (the command line's commands run here)."""
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1


def on_command_line() -> bool:
    """Whether messages now name flags."""
    return _depth[0] > 0


def name(keyword: str) -> str:
    """The keyword itself in Python, its flag on the command line: the
    subject of a message ("{name('bootstrap')} must be >= 0").

    >>> name("rouge_types")
    'rouge_types'
    """
    return flag_of(keyword) if on_command_line() else keyword


def option(name: str, value: Any = NO_VALUE, placeholder: str = "") -> str:
    """``name`` (with ``value``) as the caller writes it: ``name=value`` in
    Python, ``--flag value`` on the command line (a bool: the flag, or its
    ``--no-`` form). ``placeholder`` stands for a value to choose
    (``option("lang", placeholder="LANGUAGE")``: ``lang='LANGUAGE'``,
    ``--lang LANGUAGE``).

    >>> option("bootstrap", 1000), option("use_stemmer", False)
    ('bootstrap=1000', 'use_stemmer=False')
    """
    if not on_command_line():
        if placeholder:
            return f"{name}={placeholder!r}"
        return f"{name}=" if value is NO_VALUE else f"{name}={value!r}"
    flag = flag_of(name)
    if placeholder:
        return f"{flag} {placeholder}"
    if value is NO_VALUE or value is True:
        return flag
    if value is False:
        return "--no-" + flag[2:]
    if isinstance(value, (list, tuple)):
        value = ",".join(map(str, value))
    return f"{flag} {shlex.quote(str(value))}"
