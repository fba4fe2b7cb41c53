"""What every reward shares: its options resolved once, its input checked,
its scoring.

A reward is one number per completion: one rouge type (``REWARD_ROUGE_TYPE``,
rougeL, unless the caller names another) and one measure
(``REWARD_MEASURE``, F). Each trainer's convention (``rougekit.rewards.trl``,
``.verl``, ``.openrlhf``) makes a ``RewardScorer`` from its keywords, turns
the trainer's arguments into texts with ``batch``, ``completion_text`` and
``reference_texts`` (whose errors name the trainer's arguments), and scores
them with ``RewardScorer.score_texts`` (or ``score_token_ids``).

>>> scorer = RewardScorer("rouge_reward", "rouge1", "recall", fields={})
>>> scorer.name, scorer.score_texts(["the cat"], [["the cat sat", "a cat"]], None)
('rouge1_recall', [0.6666666666666666])
>>> reference_texts(["a", "b"], "summary[0]")
['a', 'b']
>>> batch("abc", "completions")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
TypeError: completions must be a list with one entry per completion, not a str (...)
"""
import numbers
import re
from collections.abc import Mapping
from typing import Any, Dict, List, Optional

import numpy as np

from rougekit._doors import resolve
from rougekit._multi_ref import MULTI_REF_POLICIES, combine_scores
from rougekit._options import ScoringOptions
from rougekit._pipeline import item_columns, pair_scorer
from rougekit._spelling import option
from rougekit.ids import score_ids
from rougekit.rouge_scorer import MEASURES

__all__ = ["REWARD_ROUGE_TYPE", "REWARD_MEASURE", "RewardScorer", "kept_scorer", "batch",
           "completion_text", "reference_texts", "are_token_ids", "text", "renamed"]

#: The rouge type of a reward when none is given: ROUGE-L, the one most
#: summarization rewards use (the whole text's longest common subsequence).
REWARD_ROUGE_TYPE = "rougeL"
#: The measure of a reward when none is given: F.
REWARD_MEASURE = "fmeasure"

# At most this many pairs are scored on the calling thread: the worker pool
# would run them as one chunk (rougekit._workers.chunk_bounds: 16 at least)
# on one thread while this one waits, the handoff costing more than the pairs.
INLINE_PAIRS = 16
#: The multi-reference rules the inline path combines (``combine_scores``:
#: rougekit's own but "pooled"); a flavor's (torchmetrics' float32 rules) go
#: through ``item_columns``.
INLINE_POLICIES = tuple(p for p in MULTI_REF_POLICIES if p != "pooled")

# score_ids's own keywords (not ScoringOptions fields), for token-id references.
ID_KEYWORDS = ("pad_id", "sentence_sep")


class RewardScorer:
    """One reward's scoring: the door's options resolved once (``resolve``:
    its refusals name the door), the rouge type and measure, and the pair
    scorer kept between calls (its engines' token tables stay warm).

    ``fields`` are the caller's option keywords (and, with ``token_ids``,
    score_ids's ``pad_id`` and ``sentence_sep``). The reward's name is
    ``"{rouge_type}_{measure}"``.
    """

    def __init__(self, door: str, rouge_type: Optional[str] = None,
                 measure: str = REWARD_MEASURE, options: Optional[ScoringOptions] = None,
                 flavor: Optional[str] = None, fields: Optional[Dict[str, Any]] = None,
                 token_ids: bool = False) -> None:
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")
        fields = dict(fields or {})
        self.id_keywords = {k: fields.pop(k) for k in ID_KEYWORDS if k in fields} \
            if token_ids else {}
        if "rouge_types" in fields:
            raise TypeError(f"give rouge_type=, not {option('rouge_types')}: a reward is one "
                            "number")
        if rouge_type is not None or options is None:
            fields["rouge_types"] = (REWARD_ROUGE_TYPE if rouge_type is None else rouge_type,)
        self.options = resolve(door, options, flavor, **fields)
        if len(self.options.rouge_types) != 1:
            raise ValueError("a reward is one number: give rouge_type= (the options have "
                             f"{', '.join(self.options.rouge_types)})")
        self.rouge_type = self.options.types[0][0]
        self.measure = measure
        self.row = MEASURES.index(measure)
        self.name = f"{self.rouge_type}_{measure}"
        self.pairs = pair_scorer(self.options)

    def score_texts(self, candidates: List[str], references: List[List[str]],
                    threads: Optional[int]) -> List[float]:
        """The measure of each candidate against its references (checked
        lists: ``completion_text``, ``reference_texts``), as
        ``score_corpus``'s per-item scores."""
        if not candidates:
            return []
        policy = self.options.multi_ref
        if policy in INLINE_POLICIES and sum(map(len, references)) <= INLINE_PAIRS:
            # A few pairs (a trainer that asks for rewards one at a time, a
            # small batch): scored right here, rather than on a worker thread
            # this thread would wait for, and combined by the policy
            # (combine_scores: item_columns' combine_columns, item by item).
            score, kind, row = self.pairs.score, self.rouge_type, self.row
            return [float(combine_scores(policy, [score(ref, candidate)[kind] for ref in refs])
                          [row]) for candidate, refs in zip(candidates, references)]
        return item_columns(self.options, candidates, references, threads,
                            pairs=self.pairs)[self.row].tolist()

    def score_token_ids(self, completion_ids: Any, references: Any, threads: Optional[int],
                        names: Dict[str, str]) -> List[float]:
        """The measure of each row of ``completion_ids`` against its
        references (token ids, ``rougekit.score_ids``). score_ids's errors
        name its own arguments: ``names`` maps "predictions" and
        "references" to the caller's."""
        try:
            columns = score_ids(completion_ids, references, threads=threads,
                                options=self.options, **self.id_keywords)
        except (TypeError, ValueError) as exc:
            if type(exc) not in (TypeError, ValueError):
                raise
            raise type(exc)(renamed(str(exc), names)) from exc
        return columns[self.name].tolist()


def renamed(message: str, names: Dict[str, str]) -> str:
    """A message with the argument names of ``names`` replaced (whole words)
    and numpy scalars' reprs (``np.int64(3)``) shown as their numbers.

    >>> renamed("predictions[np.int64(0)] is bad", {"predictions": "completion_ids"})
    'completion_ids[0] is bad'
    """
    if names:
        pattern = r"\b(" + "|".join(map(re.escape, names)) + r")\b"
        message = re.sub(pattern, lambda m: names[m.group(1)], message)
    return re.sub(r"np\.[a-z]+[0-9]*\((-?[0-9.e+]+)\)", r"\1", message)


# --- the trainers' arguments as texts -------------------------------------------------

def batch(value: Any, name: str) -> List[Any]:
    """A trainer's batch argument as a list, one entry per completion: a str
    (which iterates as its characters) or a mapping is refused by name."""
    if isinstance(value, (str, bytes)):
        kind = type(value).__name__
        raise TypeError(f"{name} must be a list with one entry per completion, not a {kind} "
                        f"(a {kind} would be scored as one completion per character)")
    if isinstance(value, Mapping):
        raise TypeError(f"{name} must be a list with one entry per completion, not a "
                        f"{type(value).__name__}")
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a list with one entry per completion, not "
                        f"{type(value).__name__}") from None


def text(value: Any, where: str) -> str:
    """``value``, which must be a str (``where`` names it)."""
    if isinstance(value, str):
        return value
    raise TypeError(f"{where} must be a str, not {type(value).__name__}")


def completion_text(completion: Any, where: str) -> str:
    """A completion's text: the str, or a conversation's (a list of
    ``{"role", "content"}`` messages) last assistant message; content given
    as parts keeps its text parts."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if isinstance(completion, (list, tuple)):
        if not any(isinstance(m, Mapping) and "role" in m for m in completion):
            # e.g. {"answer": ...}: no message at all, rather than no assistant's
            first = completion[0] if completion else None
            what = (f"dicts without \"role\" (keys: {', '.join(map(repr, list(first)[:5]))})"
                    if isinstance(first, Mapping) else f"a list of {type(first).__name__}"
                    if completion else "an empty list")
            raise TypeError(f"{where} must be a str, or {{\"role\", \"content\"}} messages, "
                            f"not {what}")
        for message in reversed(completion):
            if isinstance(message, Mapping) and message.get("role") == "assistant":
                content = message.get("content")
                if isinstance(content, str):
                    return content
                if isinstance(content, list):
                    return "".join(part.get("text", "") for part in content
                                   if isinstance(part, Mapping) and part.get("type") == "text")
                raise TypeError(f"{where}: the assistant message's content must be a str, "
                                f"not {type(content).__name__}")
        raise ValueError(f"{where} has no assistant message to score")
    raise TypeError(f"{where} must be a str or a list of messages, not "
                    f"{type(completion).__name__}")


def reference_texts(entry: Any, where: str) -> List[str]:
    """One completion's references as a non-empty list of str: a str, a
    conversation (its last assistant message), or a list (tuple, 1-D numpy
    array: a Parquet list column) of them."""
    if isinstance(entry, str):
        return [entry]
    if isinstance(entry, np.ndarray) and entry.ndim == 1:
        entry = entry.tolist()
    if isinstance(entry, Mapping) or isinstance(entry, (list, tuple)) and entry and \
            all(isinstance(m, Mapping) for m in entry):
        return [completion_text(entry, where)]
    if isinstance(entry, (list, tuple)):
        if not entry:
            raise ValueError(f"{where} is an empty list: there is no reference to score "
                             "against")
        out = []
        for j, ref in enumerate(entry):
            if isinstance(ref, str):
                out.append(ref)
            elif isinstance(ref, (list, tuple, Mapping)):
                out.append(completion_text(ref, f"{where}[{j}]"))
            else:
                raise TypeError(f"{where}[{j}] must be a str, not {type(ref).__name__}")
        return out
    raise TypeError(f"{where} must be a str or a list of str, not {type(entry).__name__}")


def are_token_ids(references: List[Any]) -> bool:
    """Whether the references are token ids: the first non-empty entry is a
    sequence of ints, or an array of numbers (one of floats is then refused
    by score_ids, by name)."""
    for entry in references:
        if isinstance(entry, str):
            return False
        if isinstance(entry, np.ndarray):
            return entry.dtype.kind in "iufb"
        if hasattr(entry, "__dlpack__") or hasattr(entry, "__array__"):
            return True
        if isinstance(entry, (list, tuple)) and entry:
            return isinstance(entry[0], numbers.Integral) and not isinstance(entry[0], bool)
    return False


# --- rewards whose options come with every call -----------------------------------------

# (door, rouge type, measure, options, flavor, fields) -> RewardScorer, for
# functions a trainer calls once per sample with the same keywords (verl's
# reward_kwargs, a functools.partial): resolved and built once.
_KEPT: Dict[Any, RewardScorer] = {}
_KEPT_MAX = 64


def kept_scorer(door: str, rouge_type: Optional[str], measure: str,
                options: Optional[ScoringOptions], flavor: Optional[str],
                fields: Dict[str, Any]) -> RewardScorer:
    """``RewardScorer(door, ...)``, made once for the same keywords (unless a
    value is unhashable: then made anew)."""
    try:
        # (with the values' types: True and 1 are equal keys, not equal requests)
        key: Any = (door, rouge_type, measure, options, flavor,
                    frozenset((k, type(v), v) for k, v in fields.items()))
        found = _KEPT.get(key)
    except TypeError:
        return RewardScorer(door, rouge_type, measure, options, flavor, fields)
    if found is None:
        found = RewardScorer(door, rouge_type, measure, options, flavor, fields)
        if len(_KEPT) >= _KEPT_MAX:
            _KEPT.clear()
        _KEPT[key] = found
    return found
