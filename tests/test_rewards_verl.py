"""rougekit.rewards.verl.compute_score called as verl calls a custom reward function.

verl itself is not installed here (it needs Ray, tensordict, hydra and a
transformers older than TRL's; its trainer needs GPUs), so its calling code
is reproduced below, line for line, from verl 0.9.1 (PyPI wheel
verl-0.9.1-py3-none-any.whl), with the ``DataProto`` batch left out: the
loop gives each response's ``data_source``, decoded ``solution_str``,
``ground_truth`` (the row's ``reward_model["ground_truth"]``) and
``extra_info`` as verl extracts them. Each reward is compared with ``==``
to rouge-score's number for the same texts.

- ``verl/utils/import_utils.py``: ``load_module``, ``load_extern_object``
  (``custom_reward_function.path``: a file, ``file://`` or ``pkg://``);
- ``verl/trainer/ppo/reward.py``: ``get_custom_reward_fn`` with
  ``_call_with_kwargs`` (``reward_kwargs`` added to every call);
- ``verl/experimental/reward_loop/reward_manager/naive.py``:
  ``NaiveRewardManager.run_single``'s call (on the event loop's executor,
  every response of a batch at once, as ``RewardLoopWorker.compute_score_batch``
  gathers them) and its handling of a float or a ``{"score": ...}`` result;
- ``verl/workers/reward_manager/naive.py`` (the legacy manager): its call
  and its result handling.
"""
import asyncio
import importlib
import importlib.util
import inspect
import os
from collections import defaultdict
from functools import partial

import numpy as np
import pytest
from rouge_score import rouge_scorer as ref

import rougekit.rewards.verl
from rougekit.rewards import verl

pytestmark = [pytest.mark.backend, pytest.mark.threads]

# --- verl 0.9.1's code --------------------------------------------------------------------

PKG_PATH_PREFIX = "pkg://"
FILE_PATH_PREFIX = "file://"


def load_module(module_path, module_name=None):
    """verl/utils/import_utils.py load_module."""
    if not module_path:
        return None

    if module_path.startswith(PKG_PATH_PREFIX):
        module_name = module_path[len(PKG_PATH_PREFIX):].replace("/", ".")
        module = importlib.import_module(module_name)

    else:
        if module_path.startswith(FILE_PATH_PREFIX):
            module_path = module_path[len(FILE_PATH_PREFIX):]

        if not os.path.exists(module_path):
            raise FileNotFoundError(f"Custom module file not found: {module_path=}")

        # Use the provided module_name for the spec, or derive a unique name to avoid collisions.
        spec_name = module_name or f"custom_module_{hash(os.path.abspath(module_path))}"
        spec = importlib.util.spec_from_file_location(spec_name, module_path)
        if spec is None or spec.loader is None:
            raise ImportError(f"Could not load module from {module_path=}")

        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as e:
            raise RuntimeError(f"Error loading module from {module_path=}") from e

    return module


def load_extern_object(module_path, object_name):
    """verl/utils/import_utils.py load_extern_object."""
    module = load_module(module_path)

    if not hasattr(module, object_name):
        raise AttributeError(f"Object not found in module: {object_name=}, {module_path=}.")

    return getattr(module, object_name)


def _call_with_kwargs(raw_fn, extra_kwargs, *args, **kwargs):
    """verl/trainer/ppo/reward.py _call_with_kwargs."""
    merged_kwargs = {**kwargs, **extra_kwargs}
    return raw_fn(*args, **merged_kwargs)


async def _call_with_kwargs_async(raw_fn, extra_kwargs, *args, **kwargs):
    merged_kwargs = {**kwargs, **extra_kwargs}
    return await raw_fn(*args, **merged_kwargs)


def get_custom_reward_fn(config):
    """verl/trainer/ppo/reward.py get_custom_reward_fn."""
    reward_fn_config = config.reward.get("custom_reward_function") or {}
    module_path = reward_fn_config.get("path")
    if not module_path:
        return None

    fn_name = reward_fn_config.get("name")
    assert fn_name is not None

    raw_fn = load_extern_object(module_path=module_path, object_name=fn_name)

    reward_kwargs = dict(reward_fn_config.get("reward_kwargs", {}))
    if not inspect.iscoroutinefunction(raw_fn):
        return partial(_call_with_kwargs, raw_fn, reward_kwargs)
    else:
        return partial(_call_with_kwargs_async, raw_fn, reward_kwargs)


class NaiveRewardManager:
    """verl/experimental/reward_loop/reward_manager/naive.py, from the
    values run_single extracts from its DataProto item on."""

    def __init__(self, compute_score, loop, reward_router_address=None,
                 reward_model_tokenizer=None):
        self.compute_score = compute_score
        self.is_async_reward_score = inspect.iscoroutinefunction(self.compute_score)
        self.reward_router_address = reward_router_address
        self.reward_model_tokenizer = reward_model_tokenizer
        self.loop = loop

    async def run_single(self, data_source, response_str, ground_truth, extra_info):
        extra_reward_kwargs = (
            {
                "reward_router_address": self.reward_router_address,
                "reward_model_tokenizer": self.reward_model_tokenizer,
            }
            if self.reward_router_address is not None
            else {}
        )
        if self.is_async_reward_score:
            result = await self.compute_score(
                data_source=data_source,
                solution_str=response_str,
                ground_truth=ground_truth,
                extra_info=extra_info,
                **extra_reward_kwargs,
            )
        else:
            result = await self.loop.run_in_executor(
                None,
                lambda: self.compute_score(
                    data_source=data_source,
                    solution_str=response_str,
                    ground_truth=ground_truth,
                    extra_info=extra_info,
                    **extra_reward_kwargs,
                ),
            )

        reward_extra_info = {}

        score: float
        if isinstance(result, dict):
            score = result["score"]
            for key, value in result.items():
                reward_extra_info[key] = value
        else:
            score = result
            reward_extra_info["acc"] = score

        reward = score

        return {"reward_score": reward, "reward_extra_info": reward_extra_info}


def legacy_naive_scores(compute_score, samples):
    """verl/workers/reward_manager/naive.py NaiveRewardManager.__call__'s loop
    (the call and the result handling; reward_tensor left out)."""
    reward_extra_info = defaultdict(list)
    rewards = []
    for data_source, response_str, ground_truth, extra_info in samples:
        score = compute_score(
            data_source=data_source,
            solution_str=response_str,
            ground_truth=ground_truth,
            extra_info=extra_info,
        )
        if isinstance(score, dict):
            reward = score["score"]
            # Store the information including original reward
            for key, value in score.items():
                reward_extra_info[key].append(value)
        else:
            reward = score
        rewards.append(reward)
    return rewards


class Config(dict):
    """OmegaConf's DictConfig as verl reads it: keys as attributes, .get."""

    def __getattr__(self, name):
        value = self[name]
        return Config(value) if isinstance(value, dict) else value


# --- the tests --------------------------------------------------------------------------

# (data_source, solution_str, ground_truth, extra_info) as verl extracts them: a
# str, a list, a numpy array (a Parquet list read through pandas) of references.
SAMPLES = [
    ("cnn_dailymail", "The cats were running home.\nThey ran fast.",
     "A cat runs home.\nIt was fast.", {"index": 0}),
    ("cnn_dailymail", "police killed the gunman",
     ["the gunman was shot dead by police", "police kill gunman"], {"index": 1}),
    ("xsum", "", "nothing here", {}),
    ("xsum", "a a a b b", np.array(["a b a b", "b a", "a"], dtype=object), {"index": 3}),
    ("xsum", "running runs ran runner", ("the runner runs", "running ran"), None),
]


def expected(rouge_type, measure, use_stemmer=False):
    scorer = ref.RougeScorer([rouge_type], use_stemmer=use_stemmer)
    out = []
    for _, response, truth, _ in SAMPLES:
        targets = [truth] if isinstance(truth, str) else list(truth)
        out.append(getattr(scorer.score_multi(targets, response)[rouge_type], measure))
    return out


def reward_loop(compute_score, reward_router_address=None):
    """verl's reward loop: every response of the batch at once."""
    loop = asyncio.new_event_loop()
    try:
        manager = NaiveRewardManager(compute_score, loop, reward_router_address)

        async def batch():
            tasks = [asyncio.ensure_future(manager.run_single(*s)) for s in SAMPLES]
            return await asyncio.gather(*tasks)
        outputs = loop.run_until_complete(batch())
    finally:
        loop.close()
    return outputs


def test_the_default_reward_is_rougeL_f_through_pkg_path():
    config = Config(reward={"custom_reward_function": {
        "path": "pkg://rougekit.rewards.verl", "name": "compute_score"}})
    compute_score = get_custom_reward_fn(config)
    outputs = reward_loop(compute_score)
    want = expected("rougeL", "fmeasure")
    assert [o["reward_score"] for o in outputs] == want
    assert [o["reward_extra_info"] for o in outputs] == [{"acc": w} for w in want]
    assert all(type(o["reward_score"]) is float for o in outputs)
    assert legacy_naive_scores(compute_score, SAMPLES) == want


def test_reward_kwargs_choose_the_rouge_type_measure_and_options():
    config = Config(reward={"custom_reward_function": {
        "path": "pkg://rougekit.rewards.verl", "name": "compute_score",
        "reward_kwargs": {"rouge_type": "rouge2", "measure": "recall", "use_stemmer": True}}})
    compute_score = get_custom_reward_fn(config)
    assert [o["reward_score"] for o in reward_loop(compute_score)] == \
        expected("rouge2", "recall", use_stemmer=True)
    # with a reward model serving beside it, verl adds two keywords
    assert [o["reward_score"] for o in reward_loop(compute_score, "127.0.0.1:1")] == \
        expected("rouge2", "recall", use_stemmer=True)


def test_a_reward_file_of_ones_own_with_make_compute_score(tmp_path):
    path = tmp_path / "my_reward.py"
    path.write_text("from rougekit.rewards.verl import make_compute_score\n"
                    "compute_score = make_compute_score('rougeLsum', 'precision', "
                    "use_stemmer=True)\n", encoding="utf-8")
    for module_path in (str(path), "file://" + str(path)):
        config = Config(reward={"custom_reward_function": {"path": module_path,
                                                           "name": "compute_score"}})
        compute_score = get_custom_reward_fn(config)
        assert [o["reward_score"] for o in reward_loop(compute_score)] == \
            expected("rougeLsum", "precision", use_stemmer=True)
        assert [o["reward_score"] for o in reward_loop(compute_score, "127.0.0.1:1")] == \
            expected("rougeLsum", "precision", use_stemmer=True)
        assert legacy_naive_scores(compute_score, SAMPLES) == \
            expected("rougeLsum", "precision", use_stemmer=True)


def test_the_installed_file_itself_as_the_path():
    """custom_reward_function.path: rougekit/rewards/verl.py, loaded by file
    under another module name."""
    config = Config(reward={"custom_reward_function": {
        "path": rougekit.rewards.verl.__file__, "name": "compute_score",
        "reward_kwargs": {"rouge_type": "rouge1"}}})
    compute_score = get_custom_reward_fn(config)
    assert [o["reward_score"] for o in reward_loop(compute_score)] == \
        expected("rouge1", "fmeasure")


def test_bad_input_is_refused_naming_verls_arguments():
    with pytest.raises(ValueError, match="^ground_truth is None: verl passes"):
        verl.compute_score("x", "a b", None)
    with pytest.raises(TypeError, match="^solution_str must be a str, not bytes$"):
        verl.compute_score("x", b"a b", "a")
    with pytest.raises(TypeError, match=r"^ground_truth\[1\] must be a str, not int$"):
        verl.compute_score("x", "a b", ["a", 1])
    with pytest.raises(ValueError, match=r"^ground_truth is an empty list"):
        verl.compute_score("x", "a b", [])
    # a dataset's answer dict is not a conversation: say what is expected
    with pytest.raises(TypeError, match=r'^ground_truth must be a str, or \{"role", "content"\} '
                       r'messages, not dicts without "role" \(keys: \'answer\'\)$'):
        verl.compute_score("x", "a b", {"answer": "a b"})
    with pytest.raises(ValueError, match="^rougekit.rewards.verl.compute_score does not take "
                                         "bootstrap=: a reward is one number"):
        verl.compute_score("x", "a", "a", bootstrap=100)
    with pytest.raises(TypeError, match=r"^rougekit.rewards.verl.compute_score\(\) got an "
                                        "unexpected keyword argument 'use_stemer'"):
        verl.compute_score("x", "a", "a", use_stemer=True)
    with pytest.raises(ValueError, match="^rougekit.rewards.verl.make_compute_score does not "
                                         "take bootstrap="):
        verl.make_compute_score(bootstrap=100)
    with pytest.raises(ValueError, match="measure must be one of"):
        verl.make_compute_score(measure="f1")
    with pytest.raises(TypeError, match="unexpected keyword argument 'rouge_type' \\(its "
                                        "options are make_compute_score's\\)"):
        verl.make_compute_score()("x", "a", "a", rouge_type="rouge1")


def test_the_functions_show_their_options_and_keep_them():
    params = inspect.signature(verl.compute_score).parameters
    assert list(params)[:4] == ["data_source", "solution_str", "ground_truth", "extra_info"]
    assert {"options", "flavor", "use_stemmer", "multi_ref", "lang"} <= set(params)
    assert "bootstrap" not in params
    assert {"options", "flavor", "use_stemmer"} <= \
        set(inspect.signature(verl.make_compute_score).parameters)
