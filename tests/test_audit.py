"""``rougekit.audit`` and ``rougekit audit``: each flavor's numbers are
``score_corpus(flavor=...)``'s (which tests/test_flavors.py holds equal to
the packages), each step of a path is a ``score_corpus`` call with its
options, and a path ends at its flavor's numbers."""
import dataclasses
import json
import warnings

import pytest

from _helpers import run_cli
from rougekit import AuditStep, Score, ScoringOptions, audit, score_corpus
from rougekit.flavors import STAGES

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
FLAVORS = ["rouge-score", "evaluate", "rouge155", "pltrdy", "rouge-chinese"]


@pytest.fixture(scope="module")
def texts(corpus_pairs):
    pairs = corpus_pairs(80, 17)
    return [p["candidate"] for p in pairs], [p["references"] for p in pairs]


@pytest.fixture(scope="module")
def result(texts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return audit(*texts)


def _scores(texts, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return score_corpus(*texts, **kwargs).scores


def test_numbers_hold_a_score_per_flavor_and_rouge_type(result):
    assert list(result.numbers) == FLAVORS
    for flavor in FLAVORS:
        assert tuple(result.numbers[flavor]) == TYPES
        for score in result.numbers[flavor].values():
            assert isinstance(score, Score)


@pytest.mark.parametrize("flavor", FLAVORS)
def test_each_flavors_numbers_are_score_corpus_with_that_flavor(result, texts, flavor):
    # the same default seed in the audit and in score_corpus
    assert result.numbers[flavor] == _scores(texts, rouge_types=TYPES, flavor=flavor)


PATHS = [("rouge-score", "rouge155"), ("rouge-score", "pltrdy"), ("pltrdy", "rouge155"),
         ("rouge155", "rouge-chinese"), ("evaluate", "pltrdy"), ("rouge-score", "evaluate")]


@pytest.mark.parametrize("a,b", PATHS)
def test_every_step_is_a_score_corpus_call_and_the_path_ends_at_b(result, texts, a, b):
    steps = result.path(a, b)
    assert steps, "the flavors differ: there is a step"
    for step in steps:
        assert isinstance(step, AuditStep)
        assert isinstance(step.options, ScoringOptions)
        assert step.numbers == _scores(texts, options=step.options), step.changed
    assert steps[-1].options == result.options[b]
    assert steps[-1].numbers == result.numbers[b]


@pytest.mark.parametrize("a,b", PATHS)
def test_a_path_changes_one_stage_a_step_in_the_stages_order(result, a, b):
    order = [name for name, _ in STAGES]
    stage_fields = dict(STAGES)
    previous = result.options[a]
    positions = []
    for step in result.path(a, b):
        assert step.changed in order, step.changed
        changed = [f.name for f in dataclasses.fields(ScoringOptions)
                   if getattr(step.options, f.name) != getattr(previous, f.name)]
        assert changed and set(changed) <= set(stage_fields[step.changed]), (step.changed,
                                                                             changed)
        positions.append(order.index(step.changed))
        previous = step.options
    assert len(set(positions)) == len(positions)


def test_the_path_from_rouge_score_to_rouge155_names_what_moved(result):
    changed = [s.changed for s in result.path("rouge-score", "rouge155")]
    assert changed == ["tokenizer", "ROUGE-L", "several references", "per-item to corpus",
                       "F's formula and rounding"]


def test_a_stage_that_cannot_change_alone_waits_for_one_that_can(texts):
    # rouge155 -m stems with its own stemmer: pltrdy's tokenizer has none,
    # so the stemmer changes before the tokenizer on the way to pltrdy.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = audit(*texts, flavors=["rouge155:-m", "pltrdy"], rouge_types=["rouge1"])
        changed = [s.changed for s in res.path("rouge155:-m", "pltrdy")]
    assert changed.index("stemmer") < changed.index("tokenizer")
    assert res.path("rouge155:-m", "pltrdy")[-1].numbers == res.numbers["pltrdy"]


def test_audit_cli_prints_the_table_and_the_path(tmp_path, texts):
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps({"candidate": c, "references": r}) + "\n"
                            for c, r in zip(*texts)), encoding="utf-8")
    proc = run_cli("audit", "--jsonl", str(path), "--from", "rouge-score", "--to", "pltrdy")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["flavor", *TYPES]
    assert any(line.startswith("n-gram counting") for line in lines)
    proc = run_cli("audit", "--jsonl", str(path), "--flavors", "rouge-score,pltrdy",
                   "--from", "rouge-score", "--to", "pltrdy", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    expected = _scores(texts, rouge_types=TYPES, flavor="pltrdy")
    assert out["flavors"]["pltrdy"]["numbers"]["rouge1"]["fmeasure"] == \
        expected["rouge1"].fmeasure
    steps = out["paths"][0]["steps"]
    assert steps[-1]["numbers"] == out["flavors"]["pltrdy"]["numbers"]
    assert ScoringOptions.from_signature(steps[-1]["signature"]) == \
        dataclasses.replace(ScoringOptions.from_signature(
            out["flavors"]["pltrdy"]["signature"]))


@pytest.mark.parametrize("args,message", [
    (["--from", "pltrdy"], "give --from A and --to B together"),
    (["--flavors", "rouge-score,nope"], "unknown flavor 'nope'"),
    (["--flavors", "rouge155:-w 1.2"], "-w is not available in a flavor"),
])
def test_audit_cli_errors_are_one_line_exit_2(tmp_path, args, message):
    path = tmp_path / "items.jsonl"
    path.write_text(json.dumps({"candidate": "a b", "references": ["a c"]}) + "\n")
    proc = run_cli("audit", "--jsonl", str(path), *args)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_score_cli_flavor_equals_score_corpus(tmp_path, texts):
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps({"candidate": c, "references": r}) + "\n"
                            for c, r in zip(*texts)), encoding="utf-8")
    for flavor in ("pltrdy", "rouge155:-n 2 -m"):
        proc = run_cli("score", "--jsonl", str(path), "--flavor", flavor, "--format", "json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        expected = score_corpus(*texts, flavor=flavor, rouge_types=list(out["scores"]))
        assert out["signature"] == expected.signature
        assert {t: tuple(s.values()) for t, s in out["scores"].items()} == \
            {t: tuple(s) for t, s in expected.scores.items()}
    proc = run_cli("score", "--jsonl", str(path), "--flavor", "pltrdy", "--stemmer")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "flavor 'pltrdy' has no switch --stemmer" in proc.stderr
