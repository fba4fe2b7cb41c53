"""ROUGE as a reward: functions in the calling convention of RL trainers.

``rouge_reward(...)`` returns ``f(completions, **columns) -> list[float]``,
the convention of TRL's ``reward_funcs`` (``GRPOTrainer``, ``RLOOTrainer``,
...): the trainer calls ``f(prompts=..., completions=..., completion_ids=...,
**columns)``, with one entry per completion in every list, and the dataset's
other columns as keyword arguments. ``columns[reference_column]`` holds the
references: one string, or a list of strings, per completion.

>>> reward = rouge_reward("rouge1", reference_column="summary")
>>> reward(completions=["the cat sat", "a dog ran"],
...        summary=["the cat sat down", ["a dog", "the dog ran"]])
[0.8571428571428571, 0.8]

Completions are plain strings or conversations (lists of ``{"role",
"content"}`` messages: the last assistant message is scored). Strings are
scored by the compiled text path (rouge-score's tokenizer, or the options'),
several references per completion combined by ``multi_ref``. References
given as token ids (a sequence of ints per completion) are scored against
``completion_ids`` (which TRL passes too) through ``rougekit.score_ids``.
"""
import numbers
from typing import Any, Callable, List, Optional

from rougekit._doors import resolve, takes_options
from rougekit._options import ScoringOptions
from rougekit._pipeline import check_texts, item_columns
from rougekit._spelling import option
from rougekit.ids import score_ids

__all__ = ["rouge_reward"]

MEASURES = ("precision", "recall", "fmeasure")

# score_ids's options that are not ScoringOptions fields.
_ID_OPTIONS = ("pad_id", "sentence_sep")


@takes_options("rouge_reward")
def rouge_reward(rouge_type: Optional[str] = None, measure: str = "fmeasure",
                 reference_column: str = "reference", *, threads: Optional[int] = None,
                 options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                 **fields: Any) -> Callable[..., List[float]]:
    """A reward function: the ROUGE of each completion against its references.

    Args:
        rouge_type: one rouge type ("rouge1", "rouge2", "rougeL", "rougeLsum",
            ...; default "rougeL", or the one of ``options``).
        measure: "precision", "recall" or "fmeasure".
        reference_column: the keyword argument (dataset column) holding the
            references: per completion a string or a list of strings (or,
            scored against ``completion_ids``, a sequence of token ids).
        threads: worker threads (default: every core).
        options: a ``ScoringOptions`` instead of the keywords (its one rouge
            type, or ``rouge_type``).
        flavor: another package's ROUGE and its switches (``rougekit.flavors``).
        **fields: ``ScoringOptions`` fields (``use_stemmer``, ``tokenizer``,
            ``lang``, ``multi_ref``, ...) and, for ids, ``score_ids``'s
            ``pad_id`` and ``sentence_sep``.

    Returns:
        ``f(completions, **columns) -> list[float]``, named
        ``"{rouge_type}_{measure}"`` (TRL logs rewards by ``__name__``).

    >>> f = rouge_reward("rougeL", use_stemmer=True)
    >>> f.__name__
    'rougeL_fmeasure'
    >>> f([[{"role": "assistant", "content": "Cats running"}]], reference=["cat runs"])
    [1.0]
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")
    if not isinstance(reference_column, str):
        raise TypeError("reference_column must be a str, not "
                        f"{type(reference_column).__name__}")
    id_options = {k: fields.pop(k) for k in _ID_OPTIONS if k in fields}
    if "rouge_types" in fields:
        raise TypeError(f"give rouge_type=, not {option('rouge_types')}: a reward is one "
                        "number")
    if rouge_type is not None or options is None:
        fields["rouge_types"] = (rouge_type or "rougeL",)
    text_options = resolve("rouge_reward", options, flavor, **fields)
    if len(text_options.rouge_types) != 1:
        raise ValueError("a reward is one number: give rouge_type= (the options have "
                         f"{', '.join(text_options.rouge_types)})")
    rouge_type = text_options.rouge_types[0]
    field = MEASURES.index(measure)

    def reward(completions: Any = None, **columns: Any) -> List[float]:
        if completions is None:
            raise TypeError(f"{name}() needs completions")
        if reference_column not in columns:
            given = ", ".join(sorted(columns)) or "none"
            raise KeyError(f"{name}: no {reference_column!r} column among the keyword "
                           f"arguments ({given}); set reference_column=")
        references = list(columns[reference_column])
        completions = list(completions)
        if len(references) != len(completions):
            raise ValueError(f"{name}: {len(completions)} completions but "
                             f"{len(references)} {reference_column!r} entries")
        if not completions:
            return []
        if _are_ids(references):
            ids = columns.get("completion_ids")
            if ids is None:
                raise ValueError(f"{name}: {reference_column!r} holds token ids, which are "
                                 "scored against completion_ids: pass completion_ids")
            result = score_ids(ids, references, threads=threads, options=text_options,
                               pad_id=id_options.get("pad_id"),
                               sentence_sep=id_options.get("sentence_sep"))
            return result[f"{text_options.rouge_types[0]}_{measure}"].tolist()
        if id_options:
            raise ValueError(f"{name}: {', '.join(id_options)} apply to token ids; "
                             f"{reference_column!r} holds text")
        texts = [_text(c, i) for i, c in enumerate(completions)]
        refs = [_reference_texts(r, i, reference_column) for i, r in enumerate(references)]
        candidates, refs = check_texts(texts, refs)
        return item_columns(text_options, candidates, refs, threads)[field].tolist()

    name = f"{rouge_type}_{measure}"
    reward.__name__ = reward.__qualname__ = name
    reward.__doc__ = (f"{measure} of {rouge_type} of each completion against "
                      f"columns[{reference_column!r}] (rougekit.rewards.rouge_reward).")
    return reward


def _text(completion: Any, i: int) -> str:
    """A completion's text: the string, or a conversation's last assistant message."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role") == "assistant":
                content = message.get("content")
                if isinstance(content, str):
                    return content
                if isinstance(content, list):  # content parts: the text ones
                    return "".join(part.get("text", "") for part in content
                                   if isinstance(part, dict) and part.get("type") == "text")
                raise TypeError(f"completions[{i}]: the assistant message's content must be "
                                f"a str, not {type(content).__name__}")
        raise ValueError(f"completions[{i}] has no assistant message to score")
    raise TypeError(f"completions[{i}] must be a str or a list of messages, not "
                    f"{type(completion).__name__}")


def _reference_texts(entry: Any, i: int, column: str) -> List[str]:
    """One completion's references as a list of str (a conversation: its
    last assistant message)."""
    if isinstance(entry, str):
        return [entry]
    if isinstance(entry, (list, tuple)) and entry and all(isinstance(m, dict) for m in entry):
        return [_text(list(entry), i)]
    if isinstance(entry, (list, tuple)):
        return [r if isinstance(r, str) else _text(r, i) for r in entry]
    raise TypeError(f"{column}[{i}] must be a str or a list of str, not "
                    f"{type(entry).__name__}")


def _are_ids(references: List[Any]) -> bool:
    """Whether the references are token ids: the first non-empty entry is a
    sequence of ints (or an array)."""
    for entry in references:
        if isinstance(entry, str):
            return False
        if hasattr(entry, "__array__") or hasattr(entry, "__dlpack__"):
            return True
        if isinstance(entry, (list, tuple)) and entry:
            return isinstance(entry[0], numbers.Integral) and not isinstance(entry[0], bool)
    return False

