"""Every way into rougekit takes the same options: one resolution, one table.

A *door* is an entry point that scores: ``score_corpus``, ``RougeScorer``,
``score_frame``, the Dask, Spark and Ray functions, ``compute``, ``explain``,
``audit``, ``RougeIndex``, ``deduplicate``, ``score_ids``, the rewards
(``rouge_reward``, ``rougekit.rewards.verl``, ``rougekit.rewards.openrlhf``),
the CLI's commands. Each takes ``options=ScoringOptions(...)``,
``flavor=NAME`` (with that package's own switches) and the option fields
as keywords (CLI: flags), and hands them to ``resolve``, the one code path
that checks them, applies the defaults and the flavor, and gives the
``ScoringOptions`` the door scores with. So the same request gives the same
numbers, and the same signature, through every door.

A door honours the option fields of its scopes (``rougekit._options.SCOPES``).
A field outside them is refused by name when given as a keyword
(``score_frame(df, bootstrap=1000)``: a table of per-item scores has no
corpus aggregation); through ``options=`` or a flavor, a corpus or
references field is carried (it is in the signature; the door's numbers do
not depend on it), and a text or pair field the door cannot compute at a
value other than its default is refused (``RougeIndex`` counts as rouge-score
does).

``doors_table()`` is the table of doors by scopes in docs/ (checked against
it by the tests).

>>> resolve("score_corpus", flavor="rouge-score", use_stemmer=True).use_stemmer
True
>>> resolve("score_frame", bootstrap=1000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: score_frame does not take bootstrap=: it gives each row's scores, ...
"""
import dataclasses
import inspect
from typing import Any, Callable, Dict, Optional, Tuple

from rougekit import _flavors
from rougekit._options import SCOPES, ScoringOptions, option_fields
from rougekit._spelling import flag_of, on_command_line, option

__all__ = ["Door", "DOORS", "resolve", "check_door", "takes_options", "doors_table",
           "fields_table", "door"]

ALL = SCOPES
PER_ITEM = ("types", "text", "pair", "references")


@dataclasses.dataclass(frozen=True)
class Door:
    """An entry point: its name as users write it, the option scopes it
    honours, and why it does not honour the others (for the refusal)."""

    name: str
    scopes: Tuple[str, ...]
    why_not: str = ""
    computes: Tuple[str, ...] = ()    # pair/text fields it computes beyond its scopes' defaults
    what: str = ""                    # one line for the docs' table

    def honours(self, field: str) -> bool:
        return option_fields()[field].scope in self.scopes


DOORS: Dict[str, Door] = {}


def door(name: str, scopes: Tuple[str, ...], why_not: str = "", what: str = "") -> Door:
    """Declare a door (each module declares its own at import)."""
    found = DOORS.get(name)
    made = Door(name, scopes, why_not, what=what)
    if found is not None and found != made:
        raise ValueError(f"door {name!r} is declared twice, differently")
    DOORS[name] = made
    return made


_WHY_PER_ITEM = "it gives each row's scores, not a corpus score (rougekit.score_corpus does)"
_WHY_EXPLAIN = ("it shows the matches of one pair as rouge-score counts them (a corpus: "
                "rougekit.score_corpus)")
_WHY_REWARD = "a reward is one number per completion (rougekit.score_corpus scores a corpus)"
_WHY_INDEX = "it queries a RougeIndex, which scores with rouge-score's arithmetic"
_WHAT_MAX = "each row's RougeIndex.max: max_fmeasure, max_index"
# The doors of this module's own users, declared where the scopes are decided.
for _name, _scopes, _why, _what in (
        ("score_corpus", ALL, "", "a corpus score with its signature"),
        ("RougeScorer", PER_ITEM, "it scores pairs; score_corpus scores a corpus",
         "a pair's scores (score_multi: several references)"),
        ("score_frame", PER_ITEM, _WHY_PER_ITEM, "score columns added to a table"),
        ("rougekit.dask.score_frame", PER_ITEM, _WHY_PER_ITEM, "score columns, lazily"),
        ("rougekit.dask.score_corpus", ALL, "", "score_corpus of the rows"),
        ("rougekit.spark.score_frame", PER_ITEM, _WHY_PER_ITEM, "score columns, lazily"),
        ("rougekit.spark.score_corpus", ALL, "", "score_corpus of the rows"),
        ("Expr.rouge.score", PER_ITEM, _WHY_PER_ITEM,
         "polars: a struct of score_frame's columns per row (import rougekit.polars)"),
        ("rougekit.duckdb.register", PER_ITEM, _WHY_PER_ITEM,
         "SQL functions rouge_score(c, r, type), rouge_scores(c, r) on a DuckDB connection"),
        ("rougekit.ray.score_dataset", PER_ITEM, _WHY_PER_ITEM, "score columns, lazily"),
        ("rougekit.ray.score_corpus", ALL, "", "score_corpus of the rows"),
        ("rougekit.dask.max_similarity", ("types", "text"), _WHY_INDEX, _WHAT_MAX),
        ("rougekit.spark.max_similarity", ("types", "text"), _WHY_INDEX, _WHAT_MAX),
        ("rougekit.ray.max_similarity", ("types", "text"), _WHY_INDEX, _WHAT_MAX),
        ("compute", ALL, "", "Hugging Face evaluate's result (flavor evaluate)"),
        ("explain", ("types", "text"), _WHY_EXPLAIN, "one pair's tokens and matches"),
        ("audit", ALL, "", "every flavor's numbers on the same texts"),
        ("RougeIndex", ("types", "text"), "it stores texts and scores queries with "
         "rouge-score's arithmetic", "F of a query against every stored text"),
        ("deduplicate", ("types", "text"), "it filters with rouge-score's arithmetic",
         "the texts kept by the ROUGE-L filter"),
        ("score_ids", ("types", "references"), "it scores token ids with rouge-score's "
         "arithmetic (the tokenizer's work is done)", "columns of scores of token ids"),
        ("rouge_reward", PER_ITEM, _WHY_REWARD,
         "TRL's reward function: one float per completion (asynchronous=True: async def)"),
        ("rougekit.rewards.verl.compute_score", PER_ITEM, _WHY_REWARD,
         "verl's custom reward function: one float per response"),
        ("rougekit.rewards.verl.make_compute_score", PER_ITEM, _WHY_REWARD,
         "compute_score with these options"),
        ("rougekit.rewards.openrlhf.reward_func", PER_ITEM, _WHY_REWARD,
         "OpenRLHF's reward_func: {\"rewards\": tensor, ...}"),
        ("rougekit.rewards.openrlhf.make_reward_func", PER_ITEM, _WHY_REWARD,
         "reward_func with these options"),
        ("rougekit score", ALL, "", "the corpus table, JSON or CSV"),
        ("rougekit compare", PER_ITEM, "its corpus options are the tests' own "
         "(--bootstrap, --seed, --ar-trials)", "paired significance tests"),
        ("rougekit report", ALL, "", "an HTML report"),
        ("rougekit explain", ("types", "text"), _WHY_EXPLAIN, "one pair's matches"),
        ("rougekit audit", ALL, "", "every flavor's numbers"),
        ("rougekit contamination", ("types", "text"), _WHY_INDEX,
         "the rows whose largest F against the other file is above the threshold")):
    door(_name, _scopes, _why, _what)


def _door(name: Any) -> Door:
    return name if isinstance(name, Door) else DOORS[name]


#: Resolutions already made: (door, id(options), flavor, the keywords with
#: their types) -> (options, result). Only plain values are keys (str, bool,
#: int, float, None, tuples and lists of str), so a key never stands for another
#: request; a hit also needs the same ``options`` object. Bounded: cleared
#: when full. A hit is handed out as ``copy()``: equal options with a
#: tokenizer of their own, so warnings and caches are per request as before.
#: A scorer made per pair (as rouge-score's users often do) skips the checks
#: it passed before.
_RESOLVED: Dict[Any, Tuple[Optional[ScoringOptions], ScoringOptions]] = {}
_RESOLVED_MAX = 512
_PLAIN = (str, bool, int, float, type(None))


def _resolution_key(door_name: Any, options: Optional[ScoringOptions],
                    flavor: Optional[str], given: Dict[str, Any]) -> Optional[Tuple[Any, ...]]:
    if type(door_name) is not str or not (flavor is None or type(flavor) is str):
        return None
    items = []
    for name, value in given.items():
        kind = type(value)
        if kind in (tuple, list) and all(type(v) is str for v in value):
            value = tuple(value)        # rouge_types=[...]: the key holds a copy
        elif kind not in _PLAIN:
            return None
        items.append((name, kind, value))
    return (door_name, id(options), flavor, tuple(items))


def resolve(door_name: Any, options: Optional[ScoringOptions] = None,
            flavor: Optional[str] = None, **given: Any) -> ScoringOptions:
    """The options a door scores with (``_resolve``), remembered for plain
    requests (``_RESOLVED``)."""
    key = _resolution_key(door_name, options, flavor, given)
    if key is not None:
        hit = _RESOLVED.get(key)
        if hit is not None and hit[0] is options:
            return hit[1].copy()
    resolved = _resolve(door_name, options, flavor, given)
    if key is not None:
        if len(_RESOLVED) >= _RESOLVED_MAX:
            _RESOLVED.clear()
        # kept without a tokenizer: the caller's, and its caches, stay the caller's
        _RESOLVED[key] = (options, resolved.copy())
    return resolved


def _resolve(door_name: Any, options: Optional[ScoringOptions],
             flavor: Optional[str], given: Dict[str, Any]) -> ScoringOptions:
    """The options a door scores with: ``options``, or the defaults, with
    the ``flavor`` and the keywords the caller gave (``given``: option
    fields, and with a flavor its package's switches, ``use_aggregator``,
    ``split_summaries``, ``metrics``, ...; not the keywords left at their
    defaults). Errors name the field and the door:

    - a keyword that is no option field (nor a switch of the flavor):
      TypeError, as Python's for an unexpected keyword;
    - a field outside the door's scopes, given as a keyword, or a text or
      pair field at a value the door cannot compute: ValueError;
    - ``options`` and a keyword that disagrees with it: ValueError;
    - a keyword the flavor's package does not have: ValueError.
    """
    gate = _door(door_name)
    fields = option_fields()
    package = _flavors.split_name(flavor)[0] if flavor is not None else None
    for name in given:
        switch = None if package is None else package.switch(name)
        if name in fields and switch is None:
            if not gate.honours(name):
                raise ValueError(f"{gate.name} does not take {option(name)}: "
                                 f"{gate.why_not}")
        elif switch is not None:
            outside = [f for f in switch.fields if not gate.honours(f)]
            if outside:
                assert package is not None
                raise ValueError(f"{gate.name} does not take flavor {package.name!r}'s "
                                 f"{option(name)} (it sets {', '.join(outside)}): "
                                 f"{gate.why_not}")
        else:
            raise TypeError(_unknown(gate, name, flavor))
    if options is not None:
        if not isinstance(options, ScoringOptions):
            raise TypeError("options must be a rougekit.ScoringOptions, not "
                            f"{type(options).__name__}")
        clash = [n for n, v in given.items() if n in fields
                 and not _equal(v, getattr(options, n))]
        if clash:
            raise ValueError("give options= or the keyword arguments it holds, not both: "
                             + ", ".join(clash))
        given = {n: v for n, v in given.items() if n not in fields}
    if flavor is not None:
        resolved = ScoringOptions.of_flavor(flavor, options, **given)
    else:
        resolved = options if options is not None else ScoringOptions(**given)
    _check_computable(gate, resolved)
    return resolved


def _unknown(gate: Door, name: str, flavor: Optional[str]) -> str:
    owners = [f.name for f in _flavors.registered() if f.switch(name) is not None]
    hint = ""
    if owners and flavor is None:
        hint = (f" ({name} is a switch of flavor {' and '.join(map(repr, owners))}: "
                f"give {option('flavor', owners[0])} with it)")
    elif owners:
        hint = f" (flavor {flavor!r} has no switch {name}; {', '.join(owners)} have)"
    callee = gate.name if gate.name.startswith("rougekit ") else gate.name + "()"
    if on_command_line():
        return f"{callee} has no option {flag_of(name)}{hint}"
    return f"{callee} got an unexpected keyword argument {name!r}{hint}"


def check_door(door_name: Any, options: ScoringOptions) -> None:
    """A ValueError if the door cannot compute with these options: a text
    or pair field outside its scopes is not at its default."""
    _check_computable(_door(door_name), options)


def _check_computable(gate: Door, options: ScoringOptions) -> None:
    """A text or pair field outside the door's scopes must be at its default."""
    defaults = _defaults()
    fields = option_fields()
    for name, info in fields.items():
        if info.scope in gate.scopes or info.scope not in ("text", "pair"):
            continue
        value = getattr(options, name)
        if name == "sentence_split" or _equal(value, defaults[name]):
            continue
        raise ValueError(f"{gate.name} cannot use {option(name, value)}: {gate.why_not}")


def _defaults() -> Dict[str, Any]:
    return {f.name: f.default for f in dataclasses.fields(ScoringOptions)}


def _equal(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return tuple(a) == tuple(b)
        return bool(a == b) and type(a) is type(b) or (
            isinstance(a, (int, float)) and isinstance(b, (int, float))
            and not isinstance(a, bool) and not isinstance(b, bool) and a == b)
    except Exception:
        return False


# --- signatures for help() and the docs --------------------------------------------

def takes_options(door_name: str, *, before: Tuple[str, ...] = ()
                  ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A door function's decorator: its ``**fields`` are shown by
    ``inspect.signature`` and ``help()`` as the keyword-only option fields of
    the door's scopes (``before``: fields the function names itself)."""
    gate = _door(door_name)

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(function)
        params = [p for p in signature.parameters.values() if p.kind != p.VAR_KEYWORD]
        named = {p.name for p in params}
        defaults = _defaults()
        extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults[name])
                 for name, info in option_fields().items()
                 if info.scope in gate.scopes and name not in named]
        # keyword-only parameters after the positional ones, in order
        positional = [p for p in params if p.kind != p.KEYWORD_ONLY]
        keyword = [p for p in params if p.kind == p.KEYWORD_ONLY]
        function.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=positional + keyword + extra)
        return function
    return decorate


# --- the table in docs/ --------------------------------------------------------------

_SCOPE_TITLES = {"types": "rouge types", "text": "text → tokens", "pair": "a pair's P/R/F",
                 "references": "several references", "corpus": "items → corpus"}


def doors_table() -> str:
    """The doors by scopes, as the markdown table in docs/guides/options.md:
    "yes" (honoured), "carried" (through ``options=`` or a flavor it is
    signed, but changes none of the door's numbers; as a keyword, refused),
    "default only" (refused at any other value), "-" (refused)."""
    head = ["door", *(_SCOPE_TITLES[s] for s in SCOPES), "returns"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for gate in DOORS.values():
        cells = []
        for scope in SCOPES:
            if scope in gate.scopes:
                cells.append("yes")
            elif scope in ("text", "pair"):
                cells.append("default only")
            else:
                cells.append("carried")
        rows.append(f"| `{gate.name}` | " + " | ".join(cells) + f" | {gate.what} |")
    return "\n".join(rows)


def fields_table() -> str:
    """The option fields by scope, as the markdown table in
    docs/guides/options.md: each field's scope, its command-line flag, its
    default and the audit's stage that holds it."""
    rows = ["| field | scope | flag | default | audit stage |", "|---|---|---|---|---|"]
    for name, field in ScoringOptions.__dataclass_fields__.items():
        info = option_fields()[name]
        default = field.default
        shown = ",".join(default) if isinstance(default, tuple) else repr(default)
        rows.append(f"| `{name}` | {_SCOPE_TITLES[info.scope]} | `{flag_of(name)}` | "
                    f"`{shown}` | {info.stage or ''} |")
    return "\n".join(rows)
