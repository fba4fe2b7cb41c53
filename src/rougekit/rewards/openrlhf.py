"""ROUGE as OpenRLHF's reward function file.

OpenRLHF (``--reward.remote_url file.py``; in older versions ``--remote_rm_url``)
loads the file, takes its ``reward_func`` and calls
``reward_func(queries, prompts, labels)``: lists of equal length, each query
the prompt and the response decoded together (special tokens kept), each
label the dataset's ``--data.label_key`` column (formerly ``--label_key``).
It expects ``{"rewards": tensor, "scores": tensor, "extra_logs": {...}}``,
one float32 value per query. This module's ``reward_func`` scores each
response, the query after its prompt, against its label (a str, or a list of
str combined by ``multi_ref``):

>>> out = reward_func(["Summarize: the cat sat on the mat. The cat sat."],
...                   ["Summarize: the cat sat on the mat."], ["the cat sat down"])
>>> sorted(out), out["rewards"]
(['extra_logs', 'rewards', 'scores'], tensor([0.8571]))

The file OpenRLHF loads can be this module's own (``python -c "import
rougekit.rewards.openrlhf as m; print(m.__file__)"``: rougeL's F), or one of
one's own with other options::

    from rougekit.rewards.openrlhf import make_reward_func
    reward_func = make_reward_func("rouge1", special_tokens=["<|im_end|>"])

Special tokens: OpenRLHF decodes the query with them, and rouge-score's
tokenizer reads ``<|im_end|>`` as the words "im" and "end". ``special_tokens``
(the tokenizer's ``all_special_tokens``, say) are removed from the response
before it is scored; left at None, a response that holds something shaped
like one (``<|...|>``, ``</s>``, ``<eos>``) is scored as it is, with a
``TokenizationWarning`` (``special_tokens=()`` keeps them silently).
"""
import re
from typing import Any, Callable, Dict, List, Optional, Sequence

from rougekit._checks import thread_count
from rougekit._doors import takes_options
from rougekit._options import ScoringOptions
from rougekit._warn import TokenizationWarning, warn
from rougekit.rewards._scoring import (
    REWARD_MEASURE,
    RewardScorer,
    batch,
    kept_scorer,
    reference_texts,
    text,
)

__all__ = ["reward_func", "make_reward_func"]

# Spellings of the usual tokenizers' special tokens: <|im_end|>, <|eot_id|>,
# <|endoftext|>, </s>, <eos>, <end_of_turn>.
_SPECIAL_LOOKING = re.compile(r"<\|[^|<>\s]{1,40}\|>|</s>|<eos>|<end_of_turn>")


@takes_options("rougekit.rewards.openrlhf.reward_func")
def reward_func(queries: Any, prompts: Any, labels: Any, *, rouge_type: Optional[str] = None,
                measure: str = REWARD_MEASURE, special_tokens: Optional[Sequence[str]] = None,
                threads: Optional[int] = None, options: Optional[ScoringOptions] = None,
                flavor: Optional[str] = None, **fields: Any) -> Dict[str, Any]:
    """OpenRLHF's rewards: the ROUGE of each response against its label.

    Args:
        queries: per sample, the prompt and the response decoded together.
        prompts: per sample, the prompt (each query must begin with it).
        labels: per sample, the reference: a str, or a list of str.
        rouge_type: one rouge type (default "rougeL").
        measure: "precision", "recall" or "fmeasure" (default).
        special_tokens: strings removed from each response before it is
            scored (None: none, with a warning if one seems to be there).
        threads: worker threads (default: every core).
        options: a ``ScoringOptions`` instead of the keywords.
        flavor: another package's ROUGE and its switches (``rougekit.flavors``).
        **fields: ``ScoringOptions`` fields.

    Returns:
        ``{"rewards": t, "scores": t, "extra_logs": {"{rouge_type}_{measure}":
        t}}``, ``t`` a float32 torch tensor of one value per query (the
        convention of OpenRLHF's examples; torch is imported here).

    The options of the same keywords are resolved once and kept.
    """
    tokens = _special_tokens(special_tokens)
    scorer = kept_scorer("rougekit.rewards.openrlhf.reward_func", rouge_type, measure,
                         options, flavor, fields)
    return _rewards(scorer, tokens, threads, queries, prompts, labels)


@takes_options("rougekit.rewards.openrlhf.make_reward_func")
def make_reward_func(rouge_type: Optional[str] = None, measure: str = REWARD_MEASURE, *,
                     special_tokens: Optional[Sequence[str]] = None,
                     threads: Optional[int] = None, options: Optional[ScoringOptions] = None,
                     flavor: Optional[str] = None, **fields: Any) -> Callable[..., Dict[str, Any]]:
    """``reward_func`` with these options, checked now: for a reward file
    of one's own (``reward_func = make_reward_func("rouge1")``).

    Args:
        rouge_type: one rouge type (default "rougeL").
        measure: "precision", "recall" or "fmeasure" (default).
        special_tokens: strings removed from each response before it is scored.
        threads: worker threads (default: every core).
        options: a ``ScoringOptions`` instead of the keywords.
        flavor: another package's ROUGE and its switches (``rougekit.flavors``).
        **fields: ``ScoringOptions`` fields.

    Returns:
        ``reward_func(queries, prompts, labels, **kwargs)`` (OpenRLHF's
        signature; other keywords are not used).

    >>> f = make_reward_func("rouge1", "recall", special_tokens=["<|im_end|>"])
    >>> f(["Q: cats? A: a cat<|im_end|>"], ["Q: cats? A:"], [["the cat", "cats"]])[
    ...     "rewards"].tolist()
    [0.5]
    """
    tokens = _special_tokens(special_tokens)
    scorer = RewardScorer("rougekit.rewards.openrlhf.make_reward_func", rouge_type, measure,
                          options, flavor, fields)
    if threads is not None:
        thread_count(threads)

    def made(queries: Any, prompts: Any, labels: Any, **kwargs: Any) -> Dict[str, Any]:
        return _rewards(scorer, tokens, threads, queries, prompts, labels)

    made.__name__ = made.__qualname__ = "reward_func"
    made.__doc__ = (f"OpenRLHF's rewards: the {scorer.measure} of {scorer.rouge_type} of each "
                    "response against its label (rougekit.rewards.openrlhf.make_reward_func).")
    return made


def _special_tokens(tokens: Optional[Sequence[str]]) -> Optional[List[str]]:
    if tokens is None:
        return None
    if isinstance(tokens, str):
        raise TypeError("special_tokens must be a list of str, not a str")
    out = list(tokens)
    for i, token in enumerate(out):
        if not isinstance(token, str) or not token:
            raise TypeError(f"special_tokens[{i}] must be a non-empty str, not {token!r}")
    # longest first: "<|im_end|>" before a token that is part of it
    return sorted(out, key=len, reverse=True)


def _rewards(scorer: RewardScorer, tokens: Optional[List[str]], threads: Optional[int],
             queries: Any, prompts: Any, labels: Any) -> Dict[str, Any]:
    queries = batch(queries, "queries")
    prompts = batch(prompts, "prompts")
    labels = batch(labels, "labels")
    if not len(queries) == len(prompts) == len(labels):
        raise ValueError(f"{len(queries)} queries, {len(prompts)} prompts and {len(labels)} "
                         "labels: OpenRLHF passes one prompt and one label per query")
    responses = [_response(q, p, i, tokens) for i, (q, p) in enumerate(zip(queries, prompts))]
    references = [_label(label, i) for i, label in enumerate(labels)]
    values = scorer.score_texts(responses, references, threads)
    try:
        import torch
    except ImportError as exc:
        raise ImportError("rougekit.rewards.openrlhf returns torch tensors (OpenRLHF's "
                          "convention): pip install 'rougekit[torch]'",
                          name=exc.name) from exc
    rewards = torch.tensor(values, dtype=torch.float32)
    return {"rewards": rewards, "scores": rewards, "extra_logs": {scorer.name: rewards}}


def _response(query: Any, prompt: Any, i: int, tokens: Optional[List[str]]) -> str:
    query = text(query, f"queries[{i}]")
    prompt = text(prompt, f"prompts[{i}]")
    if not query.startswith(prompt):
        raise ValueError(f"queries[{i}] does not begin with prompts[{i}]: OpenRLHF passes "
                         "the prompt and the response decoded together, and the response "
                         "is what follows the prompt (a prompt OpenRLHF truncated to fit "
                         "--max_len is not the query's beginning)")
    response = query[len(prompt):]
    if tokens is None:
        found = _SPECIAL_LOOKING.search(response)
        if found is not None:
            warn(f"the response of queries[{i}] holds {found.group()!r}, which looks like a "
                 "tokenizer's special token (OpenRLHF decodes queries with them) and is "
                 "scored as text; give special_tokens= (the tokenizer's "
                 "all_special_tokens) to remove them, or special_tokens=() to keep them",
                 TokenizationWarning)
    else:
        for token in tokens:
            response = response.replace(token, "")
    return response


def _label(label: Any, i: int) -> List[str]:
    if isinstance(label, str) and not label:
        raise ValueError(f"labels[{i}] is empty: OpenRLHF gives \"\" when no "
                         "--data.label_key (formerly --label_key) names the dataset's "
                         "reference column")
    return reference_texts(label, f"labels[{i}]")
