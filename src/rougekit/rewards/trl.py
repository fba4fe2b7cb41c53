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

With ``asynchronous=True`` its call is a coroutine (``async def __call__``),
which TRL awaits on its event loop, concurrently with its other async rewards
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
import inspect
from typing import Any, Callable, Dict, List, Optional

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

__all__ = ["rouge_reward", "RougeReward", "AsyncRougeReward"]


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
        asynchronous: a reward whose call is a coroutine (``async def``),
            which TRL runs on its event loop, beside its other async rewards.
        threads: worker threads (default: every core).
        options: a ``ScoringOptions`` instead of the keywords (its one rouge
            type, or ``rouge_type``).
        flavor: another package's ROUGE and its switches (``rougekit.flavors``).
        **fields: ``ScoringOptions`` fields (``use_stemmer``, ``tokenizer``,
            ``lang``, ``multi_ref``, ...) and, for ids, ``score_ids``'s
            ``pad_id`` and ``sentence_sep``.

    Returns:
        ``f(completions, **columns) -> list[float]`` (asynchronous: a
        coroutine of the same arguments), named ``"{rouge_type}_{measure}"``
        (TRL logs rewards by ``__name__``): a ``RougeReward`` (an
        ``AsyncRougeReward``), which pickles.

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
    kind = AsyncRougeReward if asynchronous else RougeReward
    return kind(scorer, reference_column, threads)


class RougeReward:
    """A reward function of ``rouge_reward``: ``f(completions, **columns) ->
    list[float]``, named ``"{rouge_type}_{measure}"`` (its ``__name__``).

    An object rather than a closure so that it pickles (TRL's
    ``AsyncGRPOTrainer`` hands its reward functions to a spawned process):
    the options, resolved, travel; the scorer is made again on the other side.
    """

    def __init__(self, scorer: RewardScorer, reference_column: str,
                 threads: Optional[int]) -> None:
        self.scorer = scorer
        self.reference_column = reference_column
        self.threads = threads
        self.__name__ = self.__qualname__ = scorer.name
        self.__doc__ = (f"{scorer.measure} of {scorer.rouge_type} of each completion against "
                        f"columns[{reference_column!r}] (rougekit.rewards.rouge_reward).")

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.__name__} of column "
                f"{self.reference_column!r}>")

    def __getstate__(self) -> Dict[str, Any]:
        scorer = self.scorer
        return {"options": scorer.options, "measure": scorer.measure,
                "id_keywords": scorer.id_keywords, "reference_column": self.reference_column,
                "threads": self.threads}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        scorer = RewardScorer("rouge_reward", None, state["measure"], state["options"], None,
                              dict(state["id_keywords"]), token_ids=True)
        type(self).__init__(self, scorer, state["reference_column"], state["threads"])

    def __call__(self, completions: Any = None, **columns: Any) -> List[float]:
        name, column, scorer = self.__name__, self.reference_column, self.scorer
        if completions is None:
            raise TypeError(f"{name}() needs completions")
        if column not in columns:
            given = ", ".join(sorted(columns)) or "none"
            raise KeyError(f"{name}: no {column!r} column among the keyword "
                           f"arguments ({given}); set reference_column=")
        completions = batch(completions, "completions")
        references = batch(columns[column], column)
        if len(references) != len(completions):
            raise ValueError(f"{name}: {len(completions)} completions but "
                             f"{len(references)} {column!r} entries")
        if not completions:
            return []
        if are_token_ids(references):
            ids = columns.get("completion_ids")
            if ids is None:
                raise ValueError(f"{name}: {column!r} holds token ids, which are "
                                 "scored against completion_ids: pass completion_ids")
            return scorer.score_token_ids(ids, references, self.threads, {
                "predictions": "completion_ids", "references": column})
        if scorer.id_keywords:
            raise ValueError(f"{name}: {', '.join(scorer.id_keywords)} apply to token ids; "
                             f"{column!r} holds text")
        texts = [completion_text(c, f"completions[{i}]") for i, c in enumerate(completions)]
        refs = [reference_texts(r, f"{column}[{i}]") for i, r in enumerate(references)]
        return scorer.score_texts(texts, refs, self.threads)


class AsyncRougeReward(RougeReward):
    """``rouge_reward(..., asynchronous=True)``: a ``RougeReward`` whose call
    is a coroutine (``async def __call__``, which TRL's ``is_async_callable``
    looks for; on Python 3.12 and later ``inspect.iscoroutinefunction`` of
    the object itself is true too)."""

    def __init__(self, scorer: RewardScorer, reference_column: str,
                 threads: Optional[int]) -> None:
        super().__init__(scorer, reference_column, threads)
        self.__doc__ = (self.__doc__ or "").replace("rouge_reward)",
                                                    "rouge_reward, asynchronous)")
        mark = getattr(inspect, "markcoroutinefunction", None)
        if mark is not None:
            mark(self)

    def __getstate__(self) -> Dict[str, Any]:
        return RougeReward.__getstate__(self)   # not the coroutine marker

    async def __call__(self, completions: Any = None,  # type: ignore[override]
                       **columns: Any) -> List[float]:
        # On a thread of the event loop's executor (which scores a few pairs
        # itself, and waits for rougekit's worker threads to score a large
        # batch): the loop runs other tasks meanwhile.
        return await asyncio.to_thread(RougeReward.__call__, self, completions, **columns)
