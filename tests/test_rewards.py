"""rougekit.rewards.rouge_reward: reward functions called the way TRL's
trainers call ``reward_funcs`` (``GRPOTrainer._calculate_rewards``):
``f(prompts=..., completions=..., completion_ids=..., **columns)`` with one
entry per completion in each list, plus ``trainer_state`` and other extras;
each result equal to rouge-score's score of the same texts.
"""
import numpy as np
import pytest
from rouge_score import rouge_scorer as ref

from rougekit.rewards import rouge_reward

pytestmark = [pytest.mark.backend]

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


@pytest.mark.parametrize("rouge_type", ["rouge1", "rouge2", "rougeL", "rougeLsum"])
@pytest.mark.parametrize("measure", ["precision", "recall", "fmeasure"])
def test_plain_completions(rouge_type, measure):
    reward = rouge_reward(rouge_type, measure)
    got = trl_call(reward, COMPLETIONS, reference=REFERENCES)
    assert isinstance(got, list) and all(type(x) is float for x in got)
    assert got == expected(rouge_type, measure, COMPLETIONS, REFERENCES)


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
