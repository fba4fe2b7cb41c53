"""rougekit.rewards.rouge_reward: reward functions called the way TRL's
trainers call ``reward_funcs`` (``GRPOTrainer._calculate_rewards``):
``f(prompts=..., completions=..., completion_ids=..., **columns)`` with one
entry per completion in each list, plus ``trainer_state`` and other extras;
each result equal to rouge-score's score of the same texts. The
asynchronous form (awaited on an event loop, beside other tasks); bad input
refused naming the caller's arguments; and every reward door (TRL's, verl's,
one item or a batch) giving score_corpus's per-item numbers for the same
request. In a real trainer: test_rewards_trl.py; verl's and OpenRLHF's
calling code: test_rewards_verl.py, test_rewards_openrlhf.py.
"""
import asyncio
import dataclasses
import functools
import inspect
import multiprocessing
import pickle
import sys
import threading

import numpy as np
import pytest
from rouge_score import rouge_scorer as ref
from rouge_score.tokenize import tokenize

from _requests import CANDIDATES as REQUEST_CANDIDATES
from _requests import REFERENCES as REQUEST_REFERENCES
from _requests import REQUESTS
from rougekit import score_corpus
from rougekit._multi_ref import MULTI_REF_POLICIES
from rougekit.rewards import rouge_reward, verl
from rougekit.rewards._scoring import INLINE_PAIRS

pytestmark = [pytest.mark.backend, pytest.mark.threads]

PROMPTS = ["Summarize: the cat sat on the mat all day.", "Summarize: dogs ran fast."]
COMPLETIONS = ["The cat sat on a mat.", "A dog runs quickly."]
REFERENCES = ["The cat sat on the mat.", "Dogs ran fast."]


def trl_call(reward, completions, prompts=PROMPTS, **columns):
    """The call TRL makes: every argument by keyword, extras included."""
    completion_ids = [[len(w) for w in str(c).split()] for c in completions]
    return reward(prompts=prompts, completions=completions, completion_ids=completion_ids,
                  trainer_state=object(), **columns)


def expected(rouge_type, measure, completions, references, use_stemmer=False):
    scorer = ref.RougeScorer([rouge_type], use_stemmer=use_stemmer)
    out = []
    for c, r in zip(completions, references):
        targets = [r] if isinstance(r, str) else r
        out.append(getattr(scorer.score_multi(targets, c)[rouge_type], measure))
    return out


# A batch of more than INLINE_PAIRS pairs goes to the worker threads; a few
# pairs are scored on the calling thread.
MANY = 20
assert MANY * len(COMPLETIONS) > INLINE_PAIRS >= len(COMPLETIONS)


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
@pytest.mark.parametrize("measure", ["precision", "recall", "fmeasure"])
@pytest.mark.parametrize("copies", [1, MANY])
def test_plain_completions(rouge_type, measure, copies):
    reward = rouge_reward(rouge_type, measure)
    completions, references = COMPLETIONS * copies, REFERENCES * copies
    got = trl_call(reward, completions, prompts=PROMPTS * copies, reference=references)
    assert isinstance(got, list) and all(type(x) is float for x in got)
    assert got == expected(rouge_type, measure, completions, references)


def test_conversational_completions_score_the_last_assistant_message():
    conversations = [[{"role": "assistant", "content": c}] for c in COMPLETIONS]
    conversations[1] = [{"role": "assistant", "content": "draft"},
                        {"role": "user", "content": "again"},
                        {"role": "assistant", "content": COMPLETIONS[1]}]
    prompts = [[{"role": "user", "content": p}] for p in PROMPTS]
    reward = rouge_reward("rougeL", use_stemmer=True)
    got = trl_call(reward, conversations, prompts=prompts, reference=REFERENCES)
    assert got == expected("rougeL", "fmeasure", COMPLETIONS, REFERENCES, use_stemmer=True)


def test_several_references_per_completion_take_the_policy():
    refs = [["The cat sat on the mat.", "A cat sat."], ["Dogs ran fast."]]
    got = trl_call(rouge_reward("rouge1", reference_column="summaries"), COMPLETIONS,
                   summaries=refs)
    assert got == expected("rouge1", "fmeasure", COMPLETIONS, refs)
    mean = trl_call(rouge_reward("rouge1", reference_column="summaries", multi_ref="mean"),
                    COMPLETIONS, summaries=refs)
    assert mean[1] == got[1] and mean[0] != got[0]


def test_conversational_references():
    refs = [[{"role": "assistant", "content": r}] for r in REFERENCES]
    got = trl_call(rouge_reward("rouge2"), COMPLETIONS, reference=refs)
    assert got == expected("rouge2", "fmeasure", COMPLETIONS, REFERENCES)


def test_token_id_references_are_scored_against_completion_ids():
    ids = [[5, 6, 7, 8], [9, 10]]
    refs = [[5, 6, 8], [10, 9, 11]]
    got = rouge_reward("rougeL")(completions=["x", "y"], completion_ids=ids, reference=refs)
    assert got == [ref._score_lcs(r, c).fmeasure for c, r in zip(ids, refs)]
    padded = np.array([[5, 6, 8, 0], [10, 9, 11, 0]])
    got = rouge_reward("rougeL", pad_id=0)(completions=["x", "y"], completion_ids=ids,
                                           reference=list(padded))
    assert got == [ref._score_lcs(r, c).fmeasure for c, r in zip(ids, refs)]
    with pytest.raises(ValueError, match="pass completion_ids"):
        rouge_reward()(completions=["x"], reference=[[1, 2]])


def test_the_function_is_named_for_trl_logs_and_takes_no_completions_as_empty():
    reward = rouge_reward("rouge2", "recall")
    assert reward.__name__ == "rouge2_recall"
    assert reward(completions=[], reference=[]) == []


@pytest.mark.parametrize("call,error,message", [
    (lambda f: f(completions=["a"], answer=["a"]), KeyError,
     "no 'reference' column among the keyword arguments \\(answer\\)"),
    (lambda f: f(completions=["a", "b"], reference=["a"]), ValueError,
     "2 completions but 1 'reference' entries"),
    (lambda f: f(completions=[[{"role": "user", "content": "a"}]], reference=["a"]),
     ValueError, r"completions\[0\] has no assistant message"),
    (lambda f: f(completions=[3], reference=["a"]), TypeError,
     r"completions\[0\] must be a str or a list of messages"),
    (lambda f: f(completions=["a"], reference=[3]), TypeError,
     r"reference\[0\] must be a str or a list of str"),
])
def test_bad_calls_are_clear_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(rouge_reward())


def test_bad_options_are_clear_errors():
    with pytest.raises(ValueError, match="measure must be one of"):
        rouge_reward(measure="f1")
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        rouge_reward(colour="red")
    with pytest.raises(ValueError, match="rougeX"):
        rouge_reward("rougeX")
    with pytest.raises(ValueError, match="pad_id apply to token ids"):
        rouge_reward(pad_id=0)(completions=["a"], reference=["a"])


# --- the asynchronous reward (TRL awaits it on its event loop) ---------------------------

def test_the_asynchronous_reward_is_a_coroutine_function_with_the_same_numbers():
    sync = rouge_reward("rouge2", "recall", reference_column="summaries")
    reward = rouge_reward("rouge2", "recall", reference_column="summaries", asynchronous=True)
    # TRL's test (trl/trainer/utils.py is_async_callable): the object or its __call__
    assert is_async_callable(reward) and not is_async_callable(sync)
    if sys.version_info >= (3, 12):     # inspect.markcoroutinefunction
        assert inspect.iscoroutinefunction(reward)
    assert reward.__name__ == sync.__name__ == "rouge2_recall"
    refs = [["The cat sat on the mat.", "A cat sat."], ["Dogs ran fast."]]
    got = asyncio.run(reward(prompts=PROMPTS, completions=COMPLETIONS, summaries=refs))
    assert got == trl_call(sync, COMPLETIONS, summaries=refs)
    assert got == expected("rouge2", "recall", COMPLETIONS, refs)
    with pytest.raises(TypeError, match="asynchronous must be True or False"):
        rouge_reward(asynchronous="yes")


def is_async_callable(func):
    """trl/trainer/utils.py is_async_callable (TRL 1.16), how GRPOTrainer and
    AsyncGRPOTrainer tell an async reward."""
    while isinstance(func, functools.partial):
        func = func.func
    return inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(func.__call__)


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_reward_pickles_with_its_options(asynchronous):
    """TRL's AsyncGRPOTrainer hands its reward functions to a spawned process."""
    reward = rouge_reward("rougeLsum", "recall", reference_column="summaries",
                          use_stemmer=True, multi_ref="mean", asynchronous=asynchronous)
    again = pickle.loads(pickle.dumps(reward))
    assert type(again) is type(reward) and again.__name__ == "rougeLsum_recall"
    assert is_async_callable(again) == asynchronous
    assert again.scorer.options == reward.scorer.options
    refs = [["The cats sat on the mat.", "A cat sat."], ["Dogs ran fast."]]
    call = (lambda f: asyncio.run(f(completions=COMPLETIONS, summaries=refs))) if \
        asynchronous else (lambda f: f(completions=COMPLETIONS, summaries=refs))
    assert call(again) == call(reward)
    ids = rouge_reward("rougeL", pad_id=0)
    assert pickle.loads(pickle.dumps(ids))(completions=["x"], completion_ids=[[5, 6]],
                                           reference=[[5, 6, 0]]) == [1.0]


def score_in_child(reward, queue):
    queue.put(reward(completions=COMPLETIONS, reference=REFERENCES))


def test_a_reward_runs_in_a_spawned_process():
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    reward = rouge_reward("rouge2", use_stemmer=True)
    child = context.Process(target=score_in_child, args=(reward, queue))
    child.start()
    got = queue.get(timeout=300)
    child.join()
    assert got == expected("rouge2", "fmeasure", COMPLETIONS, REFERENCES, use_stemmer=True)


def waiting_tokenizer(mine, other):
    """A tokenizer (rouge-score's tokens) that sets ``mine`` and waits for
    ``other``: two rewards using them finish only if they run at once. The
    wait's limit is only there to fail rather than hang."""
    class Tokenizer:
        def tokenize(self, text):
            mine.set()
            if not other.wait(120):
                raise AssertionError("the other reward never ran meanwhile")
            return tokenize(text, None)
    return Tokenizer()


def test_asynchronous_rewards_run_while_the_event_loop_runs_other_tasks():
    scoring, released = threading.Event(), threading.Event()
    reward = rouge_reward("rouge1", tokenizer=waiting_tokenizer(scoring, released),
                          asynchronous=True)

    async def release_once_scoring():
        # runs on the event loop only if the reward left it free
        while not scoring.is_set():
            await asyncio.sleep(0)
        released.set()
        return "released"

    async def main():
        return await asyncio.gather(reward(completions=COMPLETIONS, reference=REFERENCES),
                                    release_once_scoring())
    got, note = asyncio.run(main())
    assert note == "released"
    assert got == expected("rouge1", "fmeasure", COMPLETIONS, REFERENCES)


def test_two_asynchronous_rewards_gathered_run_at_once():
    """TRL gathers its async reward functions (asyncio.gather): each waits
    here for the other to have begun, so they must run concurrently."""
    first, second = threading.Event(), threading.Event()
    a = rouge_reward("rouge1", tokenizer=waiting_tokenizer(first, second), asynchronous=True)
    b = rouge_reward("rougeL", tokenizer=waiting_tokenizer(second, first), asynchronous=True)

    async def main():
        return await asyncio.gather(a(completions=COMPLETIONS, reference=REFERENCES),
                                    b(completions=COMPLETIONS, reference=REFERENCES))
    got_a, got_b = asyncio.run(main())
    assert got_a == expected("rouge1", "fmeasure", COMPLETIONS, REFERENCES)
    assert got_b == expected("rougeL", "fmeasure", COMPLETIONS, REFERENCES)


def test_asynchronous_errors_are_raised_by_the_await():
    reward = rouge_reward(asynchronous=True)
    with pytest.raises(TypeError, match="completions must be a list"):
        asyncio.run(reward(completions="abc", reference=["a", "b", "c"]))


# --- hostile input: errors name the caller's arguments (issue 44) ------------------------

@pytest.mark.parametrize("call,error,message", [
    # a str iterates as its characters: three completions, silently
    (lambda f: f(completions="abc", summary=["abc", "abc", "abc"]), TypeError,
     r"^completions must be a list with one entry per completion, not a str \(a str would "
     r"be scored as one completion per character\)$"),
    (lambda f: f(completions=["ab", "cd"], summary="ab"), TypeError,
     "^summary must be a list with one entry per completion, not a str"),
    (lambda f: f(completions=b"ab", summary=[b"a", b"b"]), TypeError,
     "^completions must be a list .*, not a bytes"),
    (lambda f: f(completions={"a": 1}, summary=["a"]), TypeError,
     "^completions must be a list with one entry per completion, not a dict$"),
    # the references' errors name the column, not "completions" or "references"
    (lambda f: f(completions=["x"], summary=[["a", 3]]), TypeError,
     r"^summary\[0\]\[1\] must be a str, not int$"),
    (lambda f: f(completions=["x"], summary=[[]]), ValueError,
     r"^summary\[0\] is an empty list"),
    (lambda f: f(completions=["x"], summary=[None]), TypeError,
     r"^summary\[0\] must be a str or a list of str, not NoneType$"),
    (lambda f: f(completions=["x"], summary=[[{"role": "user", "content": "a"}]]),
     ValueError, r"^summary\[0\] has no assistant message to score$"),
])
def test_bad_batches_are_refused_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call(rouge_reward(reference_column="summary"))


@pytest.mark.parametrize("call,message", [
    (lambda f: f(completions=["x", "y"], completion_ids=[[1, 2], [3, -5]],
                 summary=[[1, 2], [3, 1]]),
     r"^completion_ids\[1\]\[1\]: token id -5 is outside \[0, 2147483647\)"),
    (lambda f: f(completions=["x", "y"], completion_ids=[[1, 2], [3, 4]],
                 summary=[[1, 2], [3, -1]]),
     r"^summary\[1\]\[1\]: token id -1 is outside"),
    (lambda f: f(completions=["x", "y"], completion_ids=[[1, 2]], summary=[[1, 2], [3, 1]]),
     "^completion_ids has 1 rows but summary has 2$"),
    (lambda f: f(completions=["x"], completion_ids=[[1, 2]], summary=[np.array([1.5, 2.0])]),
     r"^summary\[0\] must hold integer token ids, not floats \(dtype float64\)$"),
    (lambda f: f(completions=["x"], completion_ids=[[1, 2]], summary=[[1, "a"]]),
     r"^summary\[0\]\[1\] must be an int token id, not str$"),
    # numbers in messages are plain integers, never numpy reprs (np.int64(0))
    (lambda f: f(completions=["x"], summary=[[1, 2]],
                 completion_ids=np.array([[1, 2]], dtype=np.uint64) + np.uint64(2 ** 40)),
     r"^completion_ids\[0, 0\]: token id 1099511627777 is outside \[0, 2147483647\)$"),
])
def test_token_id_errors_name_completion_ids_and_the_reference_column(call, message):
    with pytest.raises((TypeError, ValueError), match=message) as info:
        call(rouge_reward(reference_column="summary"))
    assert "np." not in str(info.value) and "predictions" not in str(info.value)


def test_numpy_arrays_of_strings_are_references():
    """A Parquet list column read by pandas: a 1-D array of str per row."""
    refs = [np.array(["The cat sat on the mat.", "A cat sat."]), np.array(["Dogs ran fast."])]
    got = rouge_reward("rouge1")(completions=COMPLETIONS, reference=refs)
    assert got == expected("rouge1", "fmeasure", COMPLETIONS, [list(r) for r in refs])


# --- every reward door gives score_corpus's per-item numbers -----------------------------

def reward_request(name):
    """A request of tests/_requests.py as a reward's keywords: its first rouge
    type as rouge_type (pltrdy's metrics switch dropped: it sets the types),
    and score_corpus's per-item scores of that type."""
    request = dict(REQUESTS[name])
    expected_result = score_corpus(REQUEST_CANDIDATES, REQUEST_REFERENCES, **REQUESTS[name])
    rouge_type = list(expected_result.scores)[0]
    request.pop("rouge_types", None)
    if request.get("flavor") == "pltrdy":
        request.pop("metrics")
    if "options" in request:
        request["options"] = dataclasses.replace(request["options"], rouge_types=(rouge_type,))
    else:
        request["rouge_type"] = rouge_type
    return request, [item[rouge_type] for item in expected_result.per_item]


@pytest.mark.parametrize("name", list(REQUESTS))
@pytest.mark.parametrize("measure", ["precision", "fmeasure"])
def test_each_item_alone_and_the_batch_give_score_corpus_per_item_scores(name, measure):
    """One completion per call (verl, OpenRLHF: the scorer's own pair path)
    and a batch (TRL: the worker threads) give the same numbers."""
    request, scores = reward_request(name)
    want = [getattr(s, measure) for s in scores]
    reward = rouge_reward(measure=measure, reference_column="summary", **request)
    pairs = list(zip(REQUEST_CANDIDATES, REQUEST_REFERENCES))
    assert reward(completions=REQUEST_CANDIDATES, summary=REQUEST_REFERENCES) == want
    assert sum(map(len, REQUEST_REFERENCES)) * 3 > INLINE_PAIRS    # the worker threads
    assert reward(completions=REQUEST_CANDIDATES * 3, summary=REQUEST_REFERENCES * 3) == \
        want * 3
    assert [reward(completions=[c], summary=[r])[0] for c, r in pairs] == want
    made = verl.make_compute_score(measure=measure, **request)
    assert [verl.compute_score("src", c, r, {}, measure=measure, **request)
            for c, r in pairs] == want
    assert [made("src", c, r) for c, r in pairs] == want


@pytest.mark.parametrize("policy", MULTI_REF_POLICIES)
@pytest.mark.parametrize("request_name", ["keywords", "counting and F"])
def test_one_completion_alone_combines_its_references_as_the_batch_does(policy, request_name):
    """One completion per call (verl, OpenRLHF) scores its references on the
    calling thread and combines them; a batch of more than INLINE_PAIRS pairs
    goes through score_corpus's per-item columns on the worker threads: the
    same numbers under every policy, one reference or several, with
    rouge-score's arithmetic or another."""
    request, _ = reward_request(request_name)
    want = score_corpus(REQUEST_CANDIDATES, REQUEST_REFERENCES, multi_ref=policy,
                        **{k: v for k, v in REQUESTS[request_name].items() if k != "multi_ref"})
    rouge_type = request.get("rouge_type") or request["options"].rouge_types[0]
    if "options" in request:
        request["options"] = dataclasses.replace(request["options"], multi_ref=policy)
    else:
        request["multi_ref"] = policy
    for measure in ("precision", "recall", "fmeasure"):
        reward = rouge_reward(measure=measure, **request)
        expected_values = [getattr(item[rouge_type], measure) for item in want.per_item]
        assert reward(completions=REQUEST_CANDIDATES * 3, reference=REQUEST_REFERENCES * 3) \
            == expected_values * 3, measure
        assert [reward(completions=[c], reference=[r])[0] for c, r in
                zip(REQUEST_CANDIDATES, REQUEST_REFERENCES)] == expected_values, measure
