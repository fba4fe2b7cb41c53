"""ROUGE as verl's custom reward function.

verl scores each response with ``compute_score(data_source=...,
solution_str=..., ground_truth=..., extra_info=...)``, a function it loads
from the file (or ``pkg://`` module) and the name its config gives, with
the config's ``reward_kwargs`` added to every call. This module's
``compute_score`` is such a function: the ROUGE of ``solution_str`` (the
decoded response) against ``ground_truth`` (the dataset row's
``reward_model.ground_truth``: a str, or a list of str, several references
combined by ``multi_ref``), one float. ``data_source`` and ``extra_info``
are not used.

>>> compute_score("cnn_dailymail", "the cat sat", "the cat sat down")
0.8571428571428571
>>> compute_score("cnn_dailymail", "the cat sat", ["a dog", "the cat sat down"],
...               rouge_type="rouge1", measure="recall")
0.75

In verl's config (verl 0.9; before, ``custom_reward_function`` was at the
top level of the config, with the same keys)::

    reward:
      custom_reward_function:
        path: pkg://rougekit.rewards.verl
        name: compute_score
        reward_kwargs:          # optional: every keyword of compute_score
          rouge_type: rouge1
          use_stemmer: true

or, with the options fixed in a file of one's own (``path: my_reward.py``)::

    from rougekit.rewards.verl import make_compute_score
    compute_score = make_compute_score("rouge1", use_stemmer=True)
"""
from typing import Any, Callable, Optional

from rougekit._doors import takes_options
from rougekit._options import ScoringOptions
from rougekit.rewards._scoring import (
    REWARD_MEASURE,
    RewardScorer,
    kept_scorer,
    reference_texts,
    text,
)

__all__ = ["compute_score", "make_compute_score"]

# Keywords verl's reward loop adds when a reward model serves beside the
# function (verl/experimental/reward_loop/reward_manager/naive.py): not ours.
_VERL_EXTRAS = ("reward_router_address", "reward_model_tokenizer")


@takes_options("rougekit.rewards.verl.compute_score")
def compute_score(data_source: Any, solution_str: Any, ground_truth: Any,
                  extra_info: Any = None, *, rouge_type: Optional[str] = None,
                  measure: str = REWARD_MEASURE, options: Optional[ScoringOptions] = None,
                  flavor: Optional[str] = None, reward_router_address: Any = None,
                  reward_model_tokenizer: Any = None, **fields: Any) -> float:
    """verl's reward of one response: its ROUGE against the ground truth.

    Args:
        data_source: the dataset's name (not used).
        solution_str: the decoded response.
        ground_truth: its reference, a str, or several (a list, tuple or
            1-D numpy array of str), combined by ``multi_ref``.
        extra_info: the row's extra information (not used).
        rouge_type: one rouge type (default "rougeL").
        measure: "precision", "recall" or "fmeasure" (default).
        options: a ``ScoringOptions`` instead of the keywords.
        flavor: another package's ROUGE and its switches (``rougekit.flavors``).
        reward_router_address: verl's, when a reward model serves beside
            the function (not used); so is ``reward_model_tokenizer``.
        reward_model_tokenizer: see ``reward_router_address``.
        **fields: ``ScoringOptions`` fields (``use_stemmer``, ``lang``,
            ``multi_ref``, ...): verl's ``reward_kwargs``.

    Returns:
        The measure, a float (verl logs a float return as ``acc``).

    The options of the same keywords are resolved once and kept.
    """
    scorer = kept_scorer("rougekit.rewards.verl.compute_score", rouge_type, measure, options,
                         flavor, fields)
    return _score(scorer, solution_str, ground_truth)


@takes_options("rougekit.rewards.verl.make_compute_score")
def make_compute_score(rouge_type: Optional[str] = None, measure: str = REWARD_MEASURE, *,
                       options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
                       **fields: Any) -> Callable[..., float]:
    """``compute_score`` with these options, checked now: for a reward file
    of one's own (``compute_score = make_compute_score("rouge1")``).

    Args:
        rouge_type: one rouge type (default "rougeL").
        measure: "precision", "recall" or "fmeasure" (default).
        options: a ``ScoringOptions`` instead of the keywords.
        flavor: another package's ROUGE and its switches (``rougekit.flavors``).
        **fields: ``ScoringOptions`` fields.

    Returns:
        ``compute_score(data_source, solution_str, ground_truth,
        extra_info=None) -> float``.

    >>> score = make_compute_score("rouge2", use_stemmer=True)
    >>> score(data_source="xsum", solution_str="cats running home",
    ...       ground_truth="a cat runs home", extra_info={})
    0.8
    """
    scorer = RewardScorer("rougekit.rewards.verl.make_compute_score", rouge_type, measure,
                          options, flavor, fields)

    def made(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
             **extras: Any) -> float:
        unknown = sorted(set(extras) - set(_VERL_EXTRAS))
        if unknown:
            raise TypeError(f"compute_score() got an unexpected keyword argument "
                            f"{unknown[0]!r} (its options are make_compute_score's)")
        return _score(scorer, solution_str, ground_truth)

    made.__name__ = made.__qualname__ = "compute_score"
    made.__doc__ = (f"verl's reward: the {scorer.measure} of {scorer.rouge_type} of "
                    "solution_str against ground_truth (rougekit.rewards.verl.make_compute_score).")
    return made


def _score(scorer: RewardScorer, solution_str: Any, ground_truth: Any) -> float:
    if ground_truth is None:
        raise ValueError("ground_truth is None: verl passes the dataset row's "
                         "reward_model.ground_truth, the reference(s) to score against")
    response = text(solution_str, "solution_str")
    return scorer.score_texts([response], [reference_texts(ground_truth, "ground_truth")],
                              None)[0]
