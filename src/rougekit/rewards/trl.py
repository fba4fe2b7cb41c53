"""ROUGE as a reward in TRL's convention: ``reward_funcs`` of ``GRPOTrainer``,
``RLOOTrainer``, ...

``rouge_reward(...)`` returns ``f(completions, **columns) -> list[float]``:
the trainer calls ``f(prompts=..., completions=..., completion_ids=...,
**columns)``, with one entry per completion in every list, the dataset's
other columns as keyword arguments (and ``trainer_state``, ``log_extra``,
``log_metric``, which the reward ignores). ``columns[reference_column]``
holds the references: one string, or a list of strings, per completion.

>>> reward = rouge_reward("rouge1", reference_column="summary")
>>> reward(completions=["the cat sat", "a dog ran"],
...        summary=["the cat sat down", ["a dog", "the dog ran"]])
[0.8571428571428571, 0.8]

With ``asynchronous=True`` it is a coroutine function (``async def``), which
TRL awaits on its event loop, concurrently with its other async rewards
(``asyncio.gather``); the scoring runs off the loop (on a thread of its
executor, and a large batch on rougekit's worker threads), so the event
loop is free meanwhile:

>>> import asyncio
>>> reward = rouge_reward(reference_column="summary", asynchronous=True)
>>> asyncio.run(reward(completions=["the cat sat"], summary=["the cat sat down"]))
[0.8571428571428571]

Completions are plain strings or conversations (lists of ``{"role",
"content"}`` messages: the last assistant message is scored). Strings are
scored by the compiled text path (rouge-score's tokenizer, or the options'),
several references per completion combined by ``multi_ref``. References
given as token ids (a sequence of ints per completion) are scored against
``completion_ids`` (which TRL passes too) through ``rougekit.score_ids``.
"""
import asyncio
from typing import Any, Callable, List, Optional

from rougekit._doors import takes_options
from rougekit._options import ScoringOptions
from rougekit.rewards._scoring import (
    REWARD_MEASURE,
    RewardScorer,
    are_token_ids,
    batch,
    completion_text,
    reference_texts,
)

__all__ = ["rouge_reward"]


@takes_options("rouge_reward")
def rouge_reward(rouge_type: Optional[str] = None, measure: str = REWARD_MEASURE,
                 reference_column: str = "reference", *, asynchronous: bool = False,
                 threads: Optional[int] = None, options: Optional[ScoringOptions] = None,
                 flavor: Optional[str] = None, **fields: Any) -> Callable[..., Any]:
    """A reward function for TRL: the ROUGE of each completion against its references.

    Args:
        rouge_type: one rouge type ("rouge1", "rouge2", "rougeL", "rougeLsum",
            ...; default "rougeL", or the one of ``options``).
        measure: "precision", "recall" or "fmeasure" (default).
        reference_column: the keyword argument (dataset column) holding the
            references: per completion a string or a list of strings (or,
            scored against ``completion_ids``, a sequence of token ids).
        asynchronous: return a coroutine function (``async def``), which TRL
            runs on its event loop, beside its other async rewards.
        threads: worker threads (default: every core).
        options: a ``ScoringOptions`` instead of the keywords (its one rouge
            type, or ``rouge_type``).
        flavor: another package's ROUGE and its switches (``rougekit.flavors``).
        **fields: ``ScoringOptions`` fields (``use_stemmer``, ``tokenizer``,
            ``lang``, ``multi_ref``, ...) and, for ids, ``score_ids``'s
            ``pad_id`` and ``sentence_sep``.

    Returns:
        ``f(completions, **columns) -> list[float]`` (asynchronous: a
        coroutine function of the same arguments), named
        ``"{rouge_type}_{measure}"`` (TRL logs rewards by ``__name__``).

    Errors name the caller's arguments: ``completions``, ``completion_ids``
    and the reference column (a str given where a list is due is refused: it
    would be one completion per character).

    >>> f = rouge_reward("rougeL", use_stemmer=True)
    >>> f.__name__
    'rougeL_fmeasure'
    >>> f([[{"role": "assistant", "content": "Cats running"}]], reference=["cat runs"])
    [1.0]
    """
    if not isinstance(reference_column, str):
        raise TypeError("reference_column must be a str, not "
                        f"{type(reference_column).__name__}")
    if not isinstance(asynchronous, bool):
        raise TypeError(f"asynchronous must be True or False, not {asynchronous!r}")
    scorer = RewardScorer("rouge_reward", rouge_type, measure, options, flavor, fields,
                          token_ids=True)
    name = scorer.name

    def reward(completions: Any = None, **columns: Any) -> List[float]:
        if completions is None:
            raise TypeError(f"{name}() needs completions")
        if reference_column not in columns:
            given = ", ".join(sorted(columns)) or "none"
            raise KeyError(f"{name}: no {reference_column!r} column among the keyword "
                           f"arguments ({given}); set reference_column=")
        completions = batch(completions, "completions")
        references = batch(columns[reference_column], reference_column)
        if len(references) != len(completions):
            raise ValueError(f"{name}: {len(completions)} completions but "
                             f"{len(references)} {reference_column!r} entries")
        if not completions:
            return []
        if are_token_ids(references):
            ids = columns.get("completion_ids")
            if ids is None:
                raise ValueError(f"{name}: {reference_column!r} holds token ids, which are "
                                 "scored against completion_ids: pass completion_ids")
            return scorer.score_token_ids(ids, references, threads, {
                "predictions": "completion_ids", "references": reference_column})
        if scorer.id_keywords:
            raise ValueError(f"{name}: {', '.join(scorer.id_keywords)} apply to token ids; "
                             f"{reference_column!r} holds text")
        texts = [completion_text(c, f"completions[{i}]") for i, c in enumerate(completions)]
        refs = [reference_texts(r, f"{reference_column}[{i}]")
                for i, r in enumerate(references)]
        return scorer.score_texts(texts, refs, threads)

    async def async_reward(completions: Any = None, **columns: Any) -> List[float]:
        # On a thread of the event loop's executor (which scores a few pairs
        # itself, and waits for rougekit's worker threads to score a large
        # batch): the loop runs other tasks meanwhile.
        return await asyncio.to_thread(reward, completions, **columns)

    function: Callable[..., Any] = async_reward if asynchronous else reward
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (f"{measure} of {scorer.rouge_type} of each completion against "
                        f"columns[{reference_column!r}] (rougekit.rewards.rouge_reward"
                        f"{', asynchronous' if asynchronous else ''}).")
    return function
