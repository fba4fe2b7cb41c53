"""What a flavor is: another package's ROUGE, as the options it fixes and the switches it has.

A ``Flavor`` says which ``ScoringOptions`` fields the package fixes
(``fields``: those that differ from rouge-score's defaults; every other stage
field is fixed at its default) and which of its own arguments change a
number (``switches``). A ``Switch`` is one such argument, under the package's
own name (``use_stemmer``, ``split_summaries``, ``use_aggregator``,
``metrics``, ``avg``, ``ignore_empty``), with the option fields each of its
values sets; the same choice can be given by those fields' names (the
command line's ``--stemmer``, ``--sentence-split nltk``). Flavors that take a
parameter (``rouge155:FLAGS``, ``xlsum:LANGUAGE``) read it with ``parameter``.

This module knows no ``ScoringOptions`` (it sits below ``rougekit._options``,
which resolves a flavor with its switches into options): flavors are plain
data and the stage functions each flavor registers (``rougekit._stages``).
"""
import dataclasses
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from rougekit._spelling import flag_of, on_command_line, option

__all__ = ["Switch", "Flavor", "register", "lookup", "registered", "split_name",
           "ANY", "CALLER_FIELDS"]

#: Fields every flavor leaves to the caller: the rouge types, and the seed of
#: the flavors that resample with numpy (it changes which resamples, not the
#: package's computation).
CALLER_FIELDS = ("rouge_types", "seed")


class _Any:
    def __repr__(self) -> str:
        return "ANY"


#: A switch's value that is open-ended (a list of metrics, a tokenizer
#: object): ``Switch.translate`` turns it into fields.
ANY = _Any()


@dataclasses.dataclass(frozen=True)
class Switch:
    """One argument of the package that changes a number.

    ``fields``: the option fields it sets; ``choices``: ``(value, field
    values)`` pairs, the package's default first (for an open-ended switch,
    ``choices`` is empty and ``translate(value)`` gives the fields, raising
    ValueError/TypeError for a value the package refuses); ``accepts(fields)``
    says whether option values are ones this switch can give (open-ended
    switches).
    """

    name: str
    fields: Tuple[str, ...]
    choices: Tuple[Tuple[Any, Tuple[Any, ...]], ...] = ()
    translate: Optional[Callable[[Any], Dict[str, Any]]] = None
    accepts: Optional[Callable[[Tuple[Any, ...]], bool]] = None
    help: str = ""

    def fields_of(self, flavor: str, value: Any) -> Dict[str, Any]:
        """The option fields the package's ``value`` of this switch sets."""
        if self.translate is not None:
            return self.translate(value)
        for choice, values in self.choices:
            if type(choice) is type(value) and choice == value:
                return dict(zip(self.fields, values))
        raise ValueError(f"flavor {flavor!r}: {option(self.name, value)} is not one of "
                         + ", ".join(option(self.name, c) for c, _ in self.choices))

    def matching(self, given: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
        """The fields of the choice whose values agree with ``given`` (some of
        this switch's fields), the first one; None if none does."""
        if self.translate is not None:
            values = tuple(given.get(f) for f in self.fields)
            return dict(given) if self.accepts is None or self.accepts(values) else None
        for _, values in self.choices:
            full = dict(zip(self.fields, values))
            if all(_same(full[f], v) for f, v in given.items()):
                return full
        return None

    def allows(self, values: Mapping[str, Any]) -> bool:
        """Whether the options' values of this switch's fields are a choice of it."""
        if self.translate is not None:
            return self.accepts is None or self.accepts(tuple(values[f] for f in self.fields))
        return any(all(_same(values[f], v) for f, v in zip(self.fields, choice))
                   for _, choice in self.choices)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b or (isinstance(a, float) and isinstance(b, float)
                                             and a == b)


@dataclasses.dataclass(frozen=True)
class Flavor:
    """A package's ROUGE (module docstring).

    ``fields``: the stage fields it sets to other values than rouge-score's
    (the switches' fields at the package's defaults included);
    ``parameter``: for ``NAME:PARAM``, the fields the parameter sets (a
    ValueError names what is wrong), and ``parameter_of(fields)`` the
    parameter that gives options' fields back (None: none does);
    ``default_types``: the rouge types of the package's defaults, when the
    caller gives none (None: rougekit's default); ``usage``: how the name is
    written when it takes a parameter ("xlsum:LANGUAGE").
    """

    name: str
    package: str
    fields: Mapping[str, Any]
    switches: Tuple[Switch, ...] = ()
    parameter: Optional[Callable[[str], Dict[str, Any]]] = None
    parameter_of: Optional[Callable[[Mapping[str, Any]], Optional[str]]] = None
    parameter_required: bool = False
    default_types: Optional[Tuple[str, ...]] = None
    usage: str = ""

    def switch(self, name: str) -> Optional[Switch]:
        """The switch of that name (the package's keyword), or None."""
        for s in self.switches:
            if s.name == name:
                return s
        return None

    def switch_of_field(self, field: str) -> Optional[Switch]:
        """The switch that sets ``field``, or None: the field is fixed."""
        for s in self.switches:
            if field in s.fields:
                return s
        return None

    def switch_fields(self) -> List[str]:
        return [f for s in self.switches for f in s.fields]

    def switch_names(self) -> str:
        """The switches, for messages: "use_stemmer, split_summaries" in
        Python; on the command line the flags of the fields they set."""
        if on_command_line():
            flags = dict.fromkeys(flag_of(f) for s in self.switches for f in s.fields
                                  if f != "tokenizer")
            return ", ".join(flags) or "none"
        return ", ".join(s.name for s in self.switches) or "none"


_FLAVORS: Dict[str, Flavor] = {}


def register(flavor: Flavor) -> Flavor:
    """Add a flavor (each flavor's module calls it once)."""
    if flavor.name in _FLAVORS:
        raise ValueError(f"flavor {flavor.name!r} is registered twice")
    _FLAVORS[flavor.name] = flavor
    return flavor


def registered() -> Iterator[Flavor]:
    """The flavors, in the order they were registered."""
    return iter(_FLAVORS.values())


def split_name(spec: Any) -> Tuple[Flavor, str]:
    """``(flavor, parameter)`` of a flavor name such as "rouge155:-m -n 2";
    TypeError or ValueError naming what is wrong."""
    if not isinstance(spec, str):
        raise TypeError(f"flavor must be a str, not {type(spec).__name__}")
    name, sep, param = spec.partition(":")
    flavor = _FLAVORS.get(name)
    if flavor is None:
        raise ValueError(f"unknown flavor {spec!r}; valid: "
                         + ", ".join(f.usage or f.name for f in _FLAVORS.values()))
    if flavor.parameter is None and sep:
        raise ValueError(f"flavor {name} takes no parameter (got {spec!r})")
    if flavor.parameter_required and not param:
        raise ValueError(f"flavor {name} needs a parameter: {flavor.usage}")
    return flavor, param


def lookup(spec: Any) -> Tuple[Flavor, Dict[str, Any]]:
    """``(flavor, fields)``: the flavor of a name and the fields it sets, its
    parameter's included (every field it changes from rouge-score's; with
    ``rouge_types`` when the parameter or the package's defaults set them)."""
    flavor, param = split_name(spec)
    fields = dict(flavor.fields)
    if flavor.parameter is not None and (param or flavor.parameter_required):
        fields.update(flavor.parameter(param))
    if "rouge_types" not in fields and flavor.default_types is not None:
        fields["rouge_types"] = flavor.default_types
    return flavor, fields
