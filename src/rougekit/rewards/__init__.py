"""ROUGE as a reward, in the calling conventions of RL trainers.

One reward is one number per completion: the ROUGE of the completion
against its references, with one rouge type (rougeL unless named) and one
measure (F unless named), computed as ``score_corpus`` computes each item's
scores (every option and flavor of the other scoring functions applies).
One module per trainer's convention:

- ``rougekit.rewards.rouge_reward`` (``rougekit.rewards.trl``): TRL's
  ``reward_funcs`` (``GRPOTrainer``, ``RLOOTrainer``, ...), synchronous or
  ``asynchronous=True``;
- ``rougekit.rewards.verl.compute_score``: verl's custom reward function
  (``custom_reward_function.path`` and ``.name`` in its config);
- ``rougekit.rewards.openrlhf.reward_func``: OpenRLHF's reward file
  (``--reward.remote_url``, formerly ``--remote_rm_url``).

The guide "ROUGE as a reward" (docs/guides/rewards.md) has each trainer's
configuration.

>>> from rougekit.rewards import rouge_reward
>>> rouge_reward("rouge2").__name__
'rouge2_fmeasure'
"""
from rougekit.rewards._scoring import REWARD_MEASURE, REWARD_ROUGE_TYPE
from rougekit.rewards.trl import rouge_reward

__all__ = ["rouge_reward", "REWARD_ROUGE_TYPE", "REWARD_MEASURE"]
