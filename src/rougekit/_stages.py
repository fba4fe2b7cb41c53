"""What computes each stage's choices: the registries the pipeline looks in.

A ``ScoringOptions`` field that chooses how a stage computes (``f_measure``,
``counting``, ``rouge_l``, ``aggregation``) holds a name; the function behind
each name is registered here by the module that owns it: rougekit's own
(rouge-score's arithmetic, the exact mean) by ``rougekit._pipeline``, each
other package's by its flavor (``rougekit._flavors``). So the pipeline names
no package, and a new flavor adds its stages without touching it.

>>> names = Registry("example")
>>> @names.register("double")
... def double(x):
...     return 2 * x
>>> names["double"](4), names.names()
(8, ('double',))
>>> names["triple"]
Traceback (most recent call last):
...
LookupError: no example named 'triple' is registered (registered: double)
"""
from typing import Any, Callable, Dict, Tuple

__all__ = ["Registry", "F_MEASURES", "COUNTINGS", "ROUGE_L_RULES", "AGGREGATIONS",
           "MULTI_REF_RULES"]


class Registry:
    """Names mapped to the functions that compute them."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._entries: Dict[str, Any] = {}

    def register(self, name: str) -> Callable[[Any], Any]:
        """A decorator: ``@registry.register(name)`` registers the function."""
        def add(entry: Any) -> Any:
            self.add(name, entry)
            return entry
        return add

    def add(self, name: str, entry: Any) -> None:
        if name in self._entries and self._entries[name] is not entry:
            raise ValueError(f"{self.what} {name!r} is registered twice")
        self._entries[name] = entry

    def __getitem__(self, name: str) -> Any:
        try:
            return self._entries[name]
        except KeyError:
            raise LookupError(f"no {self.what} named {name!r} is registered (registered: "
                              + ", ".join(self._entries) + ")") from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def names(self) -> Tuple[str, ...]:
        return tuple(self._entries)


#: ``f_measure``: ``(hits, candidate_total, reference_total, alpha) -> Score``,
#: both totals > 0.
F_MEASURES = Registry("F formula")
#: ``counting``: an object with ``ngrams(reference_tokens, candidate_tokens, n)``
#: and ``summary(reference_sentences, candidate_sentences)``, each giving
#: ``(hits, reference_total, candidate_total)``.
COUNTINGS = Registry("n-gram counting")
#: ``rouge_l``: ``(counting, reference, candidate) -> (hits, reference_total,
#: candidate_total)`` of rougeL, the texts given with ``.tokens`` and ``.sentences``.
ROUGE_L_RULES = Registry("ROUGE-L rule")
#: ``aggregation``: ``(options, columns) -> (scores, intervals)`` from the
#: per-item columns (3 * types, items).
AGGREGATIONS = Registry("aggregation")
#: ``multi_ref``: ``(columns, references_per_item) -> columns``: one column of
#: P, R and F per item from the per-reference columns (3 * types, pairs), the
#: references of an item consecutive. A rule that pools the references'
#: counts instead has ``pools_counts = True`` and is given
#: ``(counts, score)`` per item and type (``rougekit._multi_ref``).
MULTI_REF_RULES = Registry("multi-reference rule")
