"""The command line's option flags, built from the option fields' declarations.

Each command is a door (``rougekit._doors``): ``add_option_flags`` gives it
one flag per option field of its scopes (the field's ``OptionInfo``: flag,
help, choices) and ``--flavor``; ``options_of`` reads them back and resolves
them as every door does. A flag left out is not passed, so the option's
default (the same as in Python) applies, and a flavor's switch is a flag
given: ``rougekit score --flavor rouge-score --stemmer``.
"""
import argparse
from typing import Any, Dict, List, Optional

from rougekit._doors import DOORS, resolve
from rougekit._options import ScoringOptions, option_fields
from rougekit._spelling import flag_of

__all__ = ["add_option_flags", "flag_given", "options_of", "non_negative_int", "positive_int",
           "unit_interval", "seed_value", "FLAVOR_HELP"]

# The namespace's attributes of the option flags: "option_use_stemmer", ...
_PREFIX = "option_"

FLAVOR_HELP = ("another package's ROUGE: rouge-score (default), evaluate, "
               "rouge155[:FLAGS] (e.g. 'rouge155:-n 2 -m'), xlsum:LANGUAGE, pltrdy, "
               "rouge-chinese; its switches are the flags they set (--stemmer, "
               "--sentence-split nltk, --aggregation mean, ...; "
               "docs/guides/which-rouge.md)")


def _int_at_least(low: int, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
    return value


def positive_int(text: str) -> int:
    return _int_at_least(1, text)


def non_negative_int(text: str) -> int:
    return _int_at_least(0, text)


def unit_interval(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 1:      # also rejects nan
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {text}")
    return value


def seed_value(text: str) -> Any:
    """A seed: an int >= 0, "numpy-global" or "none"."""
    if text in ("numpy-global", "none"):
        return None if text == "none" else text
    try:
        int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not an integer, numpy-global or none: {text!r}") from None
    return _int_at_least(0, text)


def _types(text: str) -> List[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


# How the command line reads each field that is not a bool or a choice.
_READERS: Dict[str, Any] = {"rouge_types": _types, "bootstrap": non_negative_int,
                            "confidence": unit_interval, "alpha": unit_interval,
                            "seed": seed_value, "lang": str, "tokenizer": str}


def add_option_flags(parser: argparse.ArgumentParser, door: str, flavor: bool = True,
                     helps: Optional[Dict[str, str]] = None, **defaults: Any) -> None:
    """The flags of the option fields the command ``door`` honours, and
    ``--flavor``; ``defaults``: the command's own defaults, where they differ
    from the options' (said in the help); ``helps``: the command's own help
    of a field, where it takes less than the field allows."""
    gate = DOORS[door]
    group = parser.add_argument_group(
        "scoring options", "as in Python (rougekit.ScoringOptions; the guide 'One set of "
        "options'); a flag left out takes the default")
    fields = option_fields()
    for name, field_default in ScoringOptions.__dataclass_fields__.items():
        info = fields[name]
        if info.scope not in gate.scopes:
            continue
        default = defaults.get(name, field_default.default)
        shown = ",".join(default) if isinstance(default, tuple) else default
        kwargs: Dict[str, Any] = dict(dest=_PREFIX + name, default=argparse.SUPPRESS,
                                      help=f"{(helps or {}).get(name, info.help)} "
                                           f"(default {shown})")
        if isinstance(field_default.default, bool):
            kwargs["action"] = argparse.BooleanOptionalAction
        else:
            kwargs["metavar"] = info.metavar
            if info.choices is not None and name != "tokenizer":
                kwargs["choices"] = info.choices
            elif name in _READERS:
                kwargs["type"] = _READERS[name]
        if name == "tokenizer":
            kwargs["choices"] = info.choices
        group.add_argument(flag_of(name), **kwargs)
    if flavor:
        group.add_argument("--flavor", metavar="NAME", help=FLAVOR_HELP)


def flag_given(args: argparse.Namespace, name: str) -> bool:
    """Whether the option field ``name``'s flag was given on the command line."""
    return hasattr(args, _PREFIX + name)


def options_of(args: argparse.Namespace, door: str, **defaults: Any) -> ScoringOptions:
    """The options of the command's flags (those given), resolved as the
    door ``door`` resolves keywords; ``defaults``: the command's own, for
    flags not given (without ``--flavor``: a flavor has its package's)."""
    given = {name[len(_PREFIX):]: value for name, value in vars(args).items()
             if name.startswith(_PREFIX)}
    flavor = getattr(args, "flavor", None)
    if flavor is None:
        for name, value in defaults.items():
            given.setdefault(name, value)
    return resolve(door, None, flavor, **given)

