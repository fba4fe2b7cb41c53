"""rouge_reward in a real TRL trainer: one GRPOTrainer step of a tiny model.

The model (a one-layer LLaMA of 16 dimensions, random weights) and its
tokenizer (a word-level vocabulary) are made here: nothing is downloaded
(``HF_HUB_OFFLINE=1``). TRL calls its reward functions itself
(``GRPOTrainer._calculate_rewards``: synchronous ones directly, coroutine
functions awaited together on its event-loop thread); a third reward, of
weight 0, records the completions and the reference column TRL passed. The
rewards TRL logged (``rewards/<name>/mean`` and ``/std`` of the step) must
equal, with ``==``, TRL's own reductions of rouge-score's numbers for those
completions, in the float32 TRL keeps rewards in.
"""
import pytest
from rouge_score import rouge_scorer as ref

from _integrations import need
from _tiny_lm import tiny_model, tiny_tokenizer
from rougekit.rewards import rouge_reward

pytestmark = [pytest.mark.backend, pytest.mark.threads]

trl = need("trl")
torch = need("torch")
need("transformers")
datasets = need("datasets")

PROMPTS = ["summarize : the cat sat on the mat", "summarize : a dog ran home fast"]
SUMMARIES = [["the cat sat"], ["a dog ran", "the dog ran home fast"]]


def rouge_score_rewards(rouge_type, measure, completions, summaries):
    scorer = ref.RougeScorer([rouge_type])
    return [getattr(scorer.score_multi(refs, c)[rouge_type], measure)
            for c, refs in zip(completions, summaries)]


def test_grpo_trainer_step_with_the_sync_and_async_rewards(tmp_path):
    from trl.trainer.utils import is_async_callable, nanstd
    tokenizer = tiny_tokenizer()
    model = tiny_model(len(tokenizer))
    dataset = datasets.Dataset.from_dict({"prompt": PROMPTS, "summary": SUMMARIES})
    seen = []

    def spy(prompts, completions, summary, **kwargs):
        seen.append((list(completions), list(summary)))
        return [0.0] * len(completions)

    sync = rouge_reward("rougeL", reference_column="summary")
    async_ = rouge_reward("rouge1", "recall", reference_column="summary", asynchronous=True)
    assert is_async_callable(async_) and not is_async_callable(sync)  # TRL's own test
    args = trl.GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=2,
        max_completion_length=8, max_steps=1, logging_steps=1, save_strategy="no",
        report_to="none", use_cpu=True, seed=0, reward_weights=[1.0, 1.0, 0.0])
    trainer = trl.GRPOTrainer(model=model, reward_funcs=[sync, async_, spy], args=args,
                              train_dataset=dataset, processing_class=tokenizer)
    trainer.train()

    assert len(seen) == 1
    completions, summaries = seen[0]
    assert len(completions) == 4 and all(isinstance(c, str) for c in completions)
    assert sorted(map(tuple, summaries)) == sorted(map(tuple, SUMMARIES * 2))
    logged = trainer.state.log_history[0]
    for name, rouge_type, measure in (("rougeL_fmeasure", "rougeL", "fmeasure"),
                                      ("rouge1_recall", "rouge1", "recall")):
        # TRL's own reductions of the float32 rewards (GRPOTrainer._generate_and_score_completions)
        rewards = torch.tensor(rouge_score_rewards(rouge_type, measure, completions, summaries),
                               dtype=torch.float32)
        assert logged[f"rewards/{name}/mean"] == torch.nanmean(rewards).item(), name
        assert logged[f"rewards/{name}/std"] == nanstd(rewards).item(), name
    assert logged["rewards/spy/mean"] == 0.0
