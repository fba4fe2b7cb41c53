"""rougekit.rewards.openrlhf.reward_func called as OpenRLHF calls a reward file.

OpenRLHF itself is not installed here (it pins flash-attn, deepspeed, vLLM
and a transformers of its own, and needs GPUs), so its calling code is
reproduced below, line for line, from OpenRLHF 0.11.2 (PyPI wheel
openrlhf-0.11.2-cp311-cp311-manylinux1_x86_64.whl), with the vLLM engine
left out: the response's token ids are given, as the engine would return
them (the words of a response, then <eos>).

- ``openrlhf/cli/train_ppo_ray.py``: ``--reward.remote_url`` split on ",";
- ``openrlhf/datasets/prompts_dataset.py`` ``preprocess_data``: the label
  is ``data[label_key]`` ("" without ``--data.label_key``);
- ``openrlhf/utils/agent.py`` ``SingleTurnAgentExecutor``: the file loaded
  (``__init__``), the prompt tokenized without special tokens, the query
  decoded from prompt + response ids with ``skip_special_tokens=False``,
  ``_fetch_rewards_via_func`` (one query per call, on a thread, gathered),
  and the result read as ``rewards``/``scores``/``extra_logs``;
- ``openrlhf/trainer/ppo_utils/samples_generator.py``
  ``_process_response_into_experience``: the tensors made of them.

Each reward is compared with ``==`` to rouge-score's number for the
response, as the float32 OpenRLHF keeps.
"""
import asyncio
import importlib.util
import warnings
from itertools import cycle

import pytest
from rouge_score import rouge_scorer as ref

import rougekit
import rougekit.rewards.openrlhf
from _integrations import need
from _tiny_lm import tiny_tokenizer
from rougekit.rewards import openrlhf

pytestmark = [pytest.mark.backend, pytest.mark.threads]

torch = need("torch")
need("transformers")

# --- OpenRLHF 0.11.2's code ---------------------------------------------------------------


class SingleTurnAgentExecutor:
    """openrlhf/utils/agent.py: __init__, the reward part of execute(),
    _fetch_rewards_via_func."""

    def __init__(self, remote_rm_url=None):
        reward_endpoints = [remote_rm_url] if isinstance(remote_rm_url, str) else remote_rm_url
        self.reward_endpoints = reward_endpoints or []
        self._reward_endpoint_cycle = cycle(self.reward_endpoints)

        # Optional user-provided reward_func from a Python file.
        self.reward_func = None
        if self.reward_endpoints and self.reward_endpoints[0].endswith(".py"):
            spec = importlib.util.spec_from_file_location("reward_func", self.reward_endpoints[0])
            reward_module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(reward_module)
            self.reward_func = reward_module.reward_func

    async def execute(self, prompt, label, hf_tokenizer, action_token_ids):
        prompt_token_ids = hf_tokenizer(text=prompt, add_special_tokens=False,
                                        return_tensors="pt")["input_ids"][0].tolist()
        # (vLLM's generation: action_token_ids given)
        observation_token_ids = prompt_token_ids + action_token_ids
        output = {
            "prompt": prompt,
            "label": label,
            "observation_tokens": observation_token_ids,
            "reward": None,
            "scores": None,
            "extra_logs": {},
        }
        if self.reward_endpoints:
            query = hf_tokenizer.decode(output["observation_tokens"], skip_special_tokens=False)
            if self.reward_func:
                rewards_info_list = await self._fetch_rewards_via_func([query], [prompt], [label])
            rewards_info = rewards_info_list[0] if rewards_info_list else None
            if rewards_info:
                score_value = rewards_info.get("scores")
                if score_value is None:
                    score_value = rewards_info.get("rewards")
                output.update(
                    reward=rewards_info.get("rewards"),
                    scores=score_value,
                    extra_logs=rewards_info.get("extra_logs") or {},
                )
        return output

    async def _fetch_rewards_via_func(self, queries_list, prompts_list, labels_list):
        batch_size = 1
        num_chunks = (len(queries_list) + batch_size - 1) // batch_size

        tasks = []
        for i in range(num_chunks):
            start_idx = i * batch_size
            end_idx = min((i + 1) * batch_size, len(queries_list))
            tasks.append(
                asyncio.to_thread(
                    self.reward_func,
                    queries_list[start_idx:end_idx],
                    prompts_list[start_idx:end_idx],
                    labels_list[start_idx:end_idx],
                )
            )
        return await asyncio.gather(*tasks)


def experience_tensors(response):
    """samples_generator.py _process_response_into_experience: the reward,
    score and extra_logs tensors."""
    reward_val = response.get("reward", None)
    score_val = response.get("scores", None)
    info = {}
    if reward_val is not None:
        info["reward"] = torch.tensor([reward_val])
    if score_val is not None:
        info["score"] = torch.tensor([score_val])
    extra_logs = response.get("extra_logs", {})
    for key, value in extra_logs.items():
        if isinstance(value, torch.Tensor):
            value = value.flatten()[0].item()
        info[key] = torch.tensor([value])
    rewards = torch.tensor([reward_val]) if reward_val is not None else None
    return rewards, info


def preprocess_data(data, input_key="input", label_key=None):
    """openrlhf/datasets/prompts_dataset.py preprocess_data (no chat template)."""
    prompt = data[input_key]
    label = "" if label_key is None else data[label_key]
    return prompt, label


# --- the tests --------------------------------------------------------------------------

ROWS = [
    {"input": "summarize : the cat sat on the mat", "summary": "the cat sat"},
    {"input": "summarize : a dog ran home fast", "summary": ["a dog ran", "dogs ran home"]},
    {"input": "summarize : the cats", "summary": "cats"},
]
RESPONSES = ["the cat sat on a mat", "a dog ran fast", ""]


def rollouts(remote_url, label_key="summary"):
    """Every row's rollout at once, as OpenRLHF's executor runs them."""
    tokenizer = tiny_tokenizer()
    executor = SingleTurnAgentExecutor(remote_url.split(","))
    rows = [preprocess_data(row, "input", label_key) for row in ROWS]
    actions = [tokenizer(text=r, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
               for r in RESPONSES]

    async def all_rollouts():
        return await asyncio.gather(*[executor.execute(prompt, label, tokenizer, action)
                                      for (prompt, label), action in zip(rows, actions)])
    return asyncio.run(all_rollouts()), tokenizer


def expected(rouge_type, measure, responses, use_stemmer=False):
    scorer = ref.RougeScorer([rouge_type], use_stemmer=use_stemmer)
    out = []
    for row, response in zip(ROWS, responses):
        targets = [row["summary"]] if isinstance(row["summary"], str) else row["summary"]
        out.append(getattr(scorer.score_multi(targets, response)[rouge_type], measure))
    return torch.tensor(out, dtype=torch.float32)


def rewards_of(outputs):
    tensors = [experience_tensors(o) for o in outputs]
    assert all(r.shape == (1,) and r.dtype == torch.float32 for r, _ in tensors)
    return torch.cat([r for r, _ in tensors]), [info for _, info in tensors]


def test_a_reward_file_of_ones_own_with_the_tokenizers_special_tokens(tmp_path):
    path = tmp_path / "reward_func.py"
    path.write_text("from rougekit.rewards.openrlhf import make_reward_func\n"
                    "reward_func = make_reward_func('rouge1', 'precision', "
                    "special_tokens=['<eos>', '<pad>'])\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        outputs, tokenizer = rollouts(str(path))
    assert all(o["observation_tokens"][-1] == tokenizer.eos_token_id for o in outputs)
    rewards, infos = rewards_of(outputs)
    # the response is the decoded text after the prompt, without <eos>
    responses = [tokenizer.decode(tokenizer(text=r, add_special_tokens=False)["input_ids"])
                 for r in RESPONSES]
    assert torch.equal(rewards, expected("rouge1", "precision", responses))
    assert [i["score"] for i in infos] == [i["reward"] for i in infos]
    assert [i["rouge1_precision"].item() for i in infos] == rewards.tolist()


def test_the_module_itself_warns_of_special_tokens_and_scores_them_as_text():
    """--reward.remote_url pointing at rougekit/rewards/openrlhf.py: rougeL's
    F; the query's <eos> (decoded with skip_special_tokens=False) is read
    by rouge-score's tokenizer as the word "eos", and a warning says so."""
    with pytest.warns(rougekit.TokenizationWarning, match=r"holds '<eos>'.*special_tokens="):
        outputs, tokenizer = rollouts(rougekit.rewards.openrlhf.__file__)
    rewards, _ = rewards_of(outputs)
    responses = [" " + r + " <eos>" if r else " <eos>" for r in RESPONSES]
    assert [tokenizer.decode(o["observation_tokens"], skip_special_tokens=False)
            for o in outputs] == [row["input"] + r for row, r in zip(ROWS, responses)]
    assert torch.equal(rewards, expected("rougeL", "fmeasure", responses))


def test_no_label_key_is_a_clear_error():
    # OpenRLHF's executor catches the error and logs it; the function raises it
    prompt, label = preprocess_data(ROWS[0], "input", None)
    query = prompt + " the cat"
    with pytest.raises(ValueError, match=r"^labels\[0\] is empty: OpenRLHF gives \"\" when no "
                                         "--data.label_key"):
        openrlhf.reward_func([query], [prompt], [label])


@pytest.mark.parametrize("call,error,message", [
    (lambda: openrlhf.reward_func("ab", ["a", "b"], ["x", "y"]), TypeError,
     "^queries must be a list with one entry per completion, not a str"),
    (lambda: openrlhf.reward_func(["ab"], ["a"], "x"), TypeError,
     "^labels must be a list with one entry per completion, not a str"),
    (lambda: openrlhf.reward_func(["ab", "cd"], ["a"], ["x", "y"]), ValueError,
     "^2 queries, 1 prompts and 2 labels: OpenRLHF passes one prompt and one label per query$"),
    (lambda: openrlhf.reward_func(["ab"], ["b"], ["x"]), ValueError,
     r"^queries\[0\] does not begin with prompts\[0\]"),
    (lambda: openrlhf.reward_func([3], ["b"], ["x"]), TypeError,
     r"^queries\[0\] must be a str, not int$"),
    (lambda: openrlhf.reward_func(["ab"], ["a"], [["x", None]]), TypeError,
     r"^labels\[0\]\[1\] must be a str, not NoneType$"),
    (lambda: openrlhf.reward_func(["ab"], ["a"], ["x"], special_tokens="<eos>"), TypeError,
     "^special_tokens must be a list of str, not a str$"),
    (lambda: openrlhf.make_reward_func(special_tokens=[""]), TypeError,
     r"^special_tokens\[0\] must be a non-empty str"),
    (lambda: openrlhf.reward_func(["ab"], ["a"], ["x"], seed=3), ValueError,
     "^rougekit.rewards.openrlhf.reward_func does not take seed=: a reward is one number"),
    (lambda: openrlhf.make_reward_func(bootstrap=10), ValueError,
     "^rougekit.rewards.openrlhf.make_reward_func does not take bootstrap="),
    (lambda: openrlhf.make_reward_func(threads=0), ValueError, "threads"),
])
def test_bad_calls_are_refused_naming_openrlhfs_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_an_empty_batch_gives_empty_tensors():
    out = openrlhf.reward_func([], [], [])
    assert out["rewards"].shape == (0,) and out["rewards"].dtype == torch.float32
