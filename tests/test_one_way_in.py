"""One way in: every door takes the same options and gives the same numbers.

The same request (option fields as keywords, ``options=``, a flavor with its
package's switches: tests/_requests.py) goes through ``score_corpus``,
``RougeScorer``, ``score_frame``, ``compute``, ``explain``, ``audit``,
``RougeIndex``, ``deduplicate``, ``score_ids``, ``rouge_reward`` and the
command line's ``score``, ``compare``, ``report``, ``explain``, ``audit``;
every number is ``==`` ``score_corpus``'s and every signature the same (the
Dask and Spark doors: test_dask.py, test_spark.py). A door that cannot
honour a field refuses it by name. The table of doors in docs/ is the one
the code declares.
"""
import dataclasses
import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import rougekit
from _helpers import run_cli
from _requests import CANDIDATES, FLAGS, REFERENCES, REQUESTS
from rougekit import ScoringOptions, score_corpus

pytestmark = [pytest.mark.backend]

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ("precision", "recall", "fmeasure")


def corpus(name):
    return score_corpus(CANDIDATES, REFERENCES, **REQUESTS[name])


def honoured(door, request):
    """The request's keywords that ``door`` takes, and the others (which it
    refuses by name)."""
    from rougekit._doors import DOORS
    from rougekit._options import option_fields
    scopes = DOORS[door].scopes
    fields = option_fields()
    kept = {k: v for k, v in request.items() if k not in fields or fields[k].scope in scopes}
    return kept, sorted(set(request) - set(kept))


def options_of(name):
    return rougekit.RougeScorer(**REQUESTS[name]).options


def per_item_columns(result):
    return {f"{t}_{m}": [getattr(item[t], m) for item in result.per_item]
            for t in result.scores for m in MEASURES}


# --- the in-process doors ---------------------------------------------------------------

@pytest.mark.parametrize("name", REQUESTS)
def test_rouge_scorer_gives_score_corpus_per_item_scores_and_signature(name):
    expected = corpus(name)
    scorer = rougekit.RougeScorer(**REQUESTS[name])
    got = scorer.score_multi_batch(REFERENCES, CANDIDATES)
    assert [{t: tuple(map(float, s)) for t, s in item.items()} for item in got] == \
        [{t: tuple(s) for t, s in item.items()} for item in expected.per_item]
    assert scorer.signature == expected.signature
    assert scorer.options.signature() == expected.signature
    assert rougekit.RougeScorer is rougekit.rouge_scorer.RougeScorer


@pytest.mark.parametrize("name", REQUESTS)
def test_score_frame_gives_score_corpus_per_item_scores(name):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"candidate": CANDIDATES, "references": REFERENCES})
    scored = rougekit.score_frame(df, **REQUESTS[name])
    expected = per_item_columns(corpus(name))
    assert {k: scored[k].tolist() for k in expected} == expected


@pytest.mark.parametrize("name", REQUESTS)
def test_compute_gives_score_corpus_per_item_f_and_signature(name):
    expected = corpus(name)
    # without flavor=, evaluate's defaults with the fields on top: with
    # use_aggregator=False, rouge-score's
    got, signature = rougekit.compute(CANDIDATES, REFERENCES, use_aggregator=False,
                                      return_signature=True, **REQUESTS[name])
    assert got == {t: [item[t].fmeasure for item in expected.per_item]
                   for t in expected.scores}
    assert signature == expected.signature.replace(
        "|agg:" + aggregation_of(expected.signature), "|agg:none")


def aggregation_of(signature):
    return rougekit.Signature.parse(signature).aggregation


def exact_mean(values):
    """The float nearest the exact mean (Fraction to float rounds correctly)."""
    return float(sum(map(Fraction, values)) / len(values))


@pytest.mark.parametrize("name", REQUESTS)
def test_explain_scores_equal_the_scorers(name):
    request, refused = honoured("explain", REQUESTS[name])
    for field in refused:      # one pair: no references to combine, no corpus
        with pytest.raises(ValueError, match=f"^explain does not take {field}="):
            rougekit.explain(CANDIDATES[0], REFERENCES[0][0],
                             **{**request, field: REQUESTS[name][field]})
    scorer = rougekit.RougeScorer(**request)
    if not scorer.options.rouge_score_arithmetic:
        # explain shows rouge-score's matches: another arithmetic is refused, by name
        with pytest.raises(ValueError, match="^explain (cannot use|does not take) "
                                             "(counting|f_measure|rouge_l)="):
            rougekit.explain(CANDIDATES[0], REFERENCES[0][0], **request)
        return
    for cand, refs in zip(CANDIDATES, REFERENCES):
        explanations = rougekit.explain(refs[0], cand, **request)
        assert {t: e.score for t, e in explanations.items()} == scorer.score(refs[0], cand)


@pytest.mark.parametrize("name", [n for n, r in REQUESTS.items() if "flavor" in r])
def test_audit_numbers_equal_score_corpus_with_the_flavor(name):
    request = dict(REQUESTS[name])
    flavor = request.pop("flavor")
    result = rougekit.audit(CANDIDATES, REFERENCES, flavors=[(flavor, request)],
                            rouge_types=corpus(name).scores.keys())
    (label,) = result.numbers
    assert result.numbers[label] == corpus(name).scores
    assert result.options[label].signature() == corpus(name).signature


@pytest.mark.parametrize("name", REQUESTS)
def test_index_and_deduplicate_give_the_scorers_f_or_refuse_by_name(name):
    options = options_of(name)
    rouge_type = next(t for t in options.rouge_types if t != "rougeLsum")
    request, refused = honoured("RougeIndex", REQUESTS[name])
    request.pop("rouge_types", None)
    for field in refused:
        with pytest.raises(ValueError, match=f"^RougeIndex does not take {field}="):
            rougekit.RougeIndex(**{**request, field: REQUESTS[name][field]})
    if "options" in request:
        request["options"] = dataclasses.replace(request["options"],
                                                 rouge_types=(rouge_type,))
    elif "flavor" not in request:
        request["rouge_type"] = rouge_type
    if not options.rouge_score_arithmetic:
        if refused:
            return          # refused above, as keywords
        # through options= or a flavor: refused by value
        with pytest.raises(ValueError, match=r"^RougeIndex cannot use \w+="):
            rougekit.RougeIndex(**request)
        with pytest.raises(ValueError, match=r"^deduplicate cannot use \w+="):
            rougekit.deduplicate(CANDIDATES, **request)
        return
    if "flavor" in request:
        request["rouge_types"] = [rouge_type]
    texts = [refs[0] for refs in REFERENCES]
    index = rougekit.RougeIndex(texts, **request)
    scorer = rougekit.RougeScorer([rouge_type], options=dataclasses.replace(
        index.options, rouge_types=(rouge_type,)))
    for cand in CANDIDATES:
        assert index.scores(cand).tolist() == [
            float(scorer.score(cand, text)[rouge_type].fmeasure) for text in texts]
    kept = rougekit.deduplicate(CANDIDATES, 0.5, **request)
    pool, expected = [], []
    for i, text in enumerate(CANDIDATES):
        if all(scorer.score(text, p)[rouge_type].fmeasure <= 0.5 for p in pool):
            expected.append(i)
            pool.append(text)
    assert kept == expected


def test_score_ids_gives_score_corpus_numbers_on_texts_of_the_same_tokens():
    """Texts whose tokens are numbers score as their ids do (rougeLsum's
    sentences split at a separator id as at a newline)."""
    rng = np.random.default_rng(5)
    sep = 99
    preds = [rng.integers(0, 6, rng.integers(0, 12)).tolist() for _ in range(40)]
    refs = [[rng.integers(0, 6, rng.integers(1, 12)).tolist() for _ in range(2)]
            for _ in range(40)]
    for seq in preds + [r for rs in refs for r in rs]:
        if len(seq) > 3:
            seq[2] = sep

    def text(ids):
        return " ".join("\n" if i == sep else str(i) for i in ids)

    request = dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"], multi_ref="mean")
    expected = score_corpus([text(p) for p in preds], [[text(r) for r in rs] for rs in refs],
                            **request)
    columns = rougekit.score_ids(preds, [[rs[0] for rs in refs], [rs[1] for rs in refs]],
                                 sentence_sep=sep, **request)
    got = {k: v.tolist() for k, v in columns.items()}
    want = per_item_columns(expected)
    # the texts' rouge1/2/L count the separator as no token; the ids count it: compare
    # rougeLsum, where both drop it, and the others without separators
    assert got["rougeLsum_fmeasure"] == want["rougeLsum_fmeasure"]
    with pytest.raises(ValueError, match="score_ids does not take use_stemmer="):
        rougekit.score_ids(preds, refs, use_stemmer=True)
    with pytest.raises(ValueError, match="score_ids cannot use counting='sets'"):
        rougekit.score_ids(preds, refs, options=ScoringOptions(counting="sets"))


@pytest.mark.parametrize("name", REQUESTS)
def test_rouge_reward_gives_score_corpus_per_item_f(name):
    request = dict(REQUESTS[name])
    expected = corpus(name)
    rouge_type = list(expected.scores)[0]
    request.pop("rouge_types", None)
    if "options" in request:
        request["options"] = dataclasses.replace(request["options"],
                                                 rouge_types=(rouge_type,))
    else:
        request["rouge_type"] = rouge_type
    if request.get("flavor") == "pltrdy":
        request.pop("metrics")
    reward = rougekit.rewards.rouge_reward(reference_column="summary", **request)
    assert reward(completions=CANDIDATES, summary=REFERENCES) == \
        [item[rouge_type].fmeasure for item in expected.per_item]


# --- the command line -----------------------------------------------------------------

@pytest.fixture(scope="module")
def items_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("one-way-in") / "items.jsonl"
    path.write_text("".join(json.dumps({"candidate": c, "references": r}) + "\n"
                            for c, r in zip(CANDIDATES, REFERENCES)), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", REQUESTS)
def test_cli_score_prints_score_corpus_numbers_and_signature(items_file, name):
    out = run_cli("score", "--jsonl", items_file, "--format", "json", *FLAGS[name])
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    expected = corpus(name)
    assert got["signature"] == expected.signature
    assert got["scores"] == {t: {m: float(v) for m, v in s._asdict().items()}
                             for t, s in expected.scores.items()}


@pytest.mark.parametrize("name", ["keywords", "rouge-score with its stemmer",
                                  "pltrdy with its metrics"])
def test_cli_explain_compare_and_audit_sign_the_same_options(items_file, tmp_path, name):
    expected = corpus(name)
    sig = expected.signature
    explained = run_cli("explain", "--target", REFERENCES[0][0], "--prediction",
                        CANDIDATES[0], "--format", "json",
                        *[f for f in FLAGS[name] if f != "--multi-ref" and f != "mean"])
    if rougekit.RougeScorer(**REQUESTS[name]).options.rouge_score_arithmetic:
        assert explained.returncode == 0, explained.stderr
        assert json.loads(explained.stdout)["signature"].split("|")[1:7] == \
            sig.split("|")[1:7]
    else:
        assert explained.returncode == 2
        assert explained.stderr.startswith("rougekit: error: rougekit explain cannot use")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"candidate_a": c, "candidate_b": c,
                                         "references": r}) + "\n"
                             for c, r in zip(CANDIDATES, REFERENCES)), encoding="utf-8")
    compared = run_cli("compare", "--jsonl", pairs, "--format", "json", *FLAGS[name])
    assert compared.returncode == 0, compared.stderr
    got = json.loads(compared.stdout)
    assert got["signature"].startswith(sig + "|test:")
    for t in expected.scores:   # A's mean F: the exact mean of score_corpus's per-item F
        assert got["results"][t]["fmeasure"]["a"] == \
            exact_mean([item[t].fmeasure for item in expected.per_item])


def test_rougekit_scorer_is_at_the_top_level_with_options_and_signature():
    scorer = rougekit.RougeScorer(["rouge1"], use_stemmer=True)
    assert scorer.options == ScoringOptions(rouge_types=["rouge1"], use_stemmer=True)
    assert scorer.signature == score_corpus(["a"], ["a"], ["rouge1"],
                                            use_stemmer=True).signature
    assert rougekit.RougeScorer(options=scorer.options).signature == scorer.signature
    assert rougekit.RougeScorer(flavor="pltrdy").options.counting == "sets"
    assert "RougeScorer" in rougekit.__all__ and "RougeScorer" in dir(rougekit)


# --- refusals, by name ------------------------------------------------------------------

@pytest.mark.parametrize("door,call", [
    ("score_frame", lambda **kw: rougekit.score_frame(
        __import__("pandas").DataFrame({"candidate": ["a"], "references": ["a"]}), **kw)),
    ("RougeScorer", lambda **kw: rougekit.RougeScorer(["rouge1"], **kw)),
    ("explain", lambda **kw: rougekit.explain("a", "a", **kw)),
    ("rouge_reward", lambda **kw: rougekit.rewards.rouge_reward(**kw)),
    ("score_ids", lambda **kw: rougekit.score_ids([[1]], [[1]], **kw)),
])
def test_a_door_refuses_a_corpus_field_naming_it_and_itself(door, call):
    pytest.importorskip("pandas")
    with pytest.raises(ValueError, match=f"^{door} does not take bootstrap=: "):
        call(bootstrap=1000)
    with pytest.raises(ValueError, match=f"^{door} does not take flavor 'evaluate''s "
                                         "use_aggregator="):
        call(flavor="evaluate", use_aggregator=False)


def test_an_unknown_keyword_is_a_type_error_with_a_hint():
    with pytest.raises(TypeError, match=r"score_corpus\(\) got an unexpected keyword "
                                        r"argument 'use_stemer'$"):
        score_corpus(["a"], ["a"], use_stemer=True)
    with pytest.raises(TypeError, match="'split_summaries' .*a switch of flavor "
                                        "'rouge-score'"):
        score_corpus(["a"], ["a"], split_summaries=True)


def test_options_and_a_disagreeing_keyword_are_refused():
    with pytest.raises(ValueError, match="not both: use_stemmer"):
        rougekit.RougeScorer(options=ScoringOptions(), lang=None, use_stemmer=True)


# --- the table of doors in docs/ -------------------------------------------------------

def test_the_docs_table_of_doors_is_the_codes():
    from rougekit._doors import doors_table
    # every door module declares itself on import
    for library, module in (("dask", "rougekit.dask"), ("pyspark", "rougekit.spark"),
                            ("polars", "rougekit.polars"), ("duckdb", "rougekit.duckdb"),
                            ("ray", "rougekit.ray")):
        pytest.importorskip(library)
        __import__(module)
    from rougekit._doors import fields_table
    page = (ROOT / "docs" / "guides" / "options.md").read_text(encoding="utf-8")
    for name, table in (("doors", doors_table()), ("fields", fields_table())):
        block = re.search(f"<!-- {name} table -->\n(.*?)\n<!-- end -->", page, re.S)
        assert block, f"docs/guides/options.md lacks the {name} table's markers"
        assert block.group(1) == table, (
            f"docs/guides/options.md's {name} table differs from rougekit._doors."
            f"{name}_table(): paste its output between the markers")


def test_every_door_takes_options_flavor_and_the_fields_of_its_scopes():
    import inspect

    from rougekit._doors import DOORS
    from rougekit._options import option_fields
    functions = {"score_corpus": rougekit.score_corpus, "score_frame": rougekit.score_frame,
                 "compute": rougekit.compute, "explain": rougekit.explain,
                 "audit": rougekit.audit, "RougeIndex": rougekit.RougeIndex,
                 "deduplicate": rougekit.deduplicate, "score_ids": rougekit.score_ids,
                 "rouge_reward": rougekit.rewards.rouge_reward,
                 "RougeScorer": rougekit.RougeScorer}
    for name, function in functions.items():
        params = inspect.signature(function).parameters
        assert "options" in params and "flavor" in params, name
        scopes = DOORS[name].scopes
        for field, info in option_fields().items():
            if info.scope in scopes and field != "rouge_types":
                assert field in params or any(p.kind == p.VAR_KEYWORD
                                              for p in params.values()), (name, field)


# --- deterministic by default, the same default everywhere -----------------------------

def test_the_evaluate_flavor_prints_the_same_numbers_everywhere(items_file):
    """Two runs of `rougekit score --flavor evaluate` print the same numbers,
    equal to score_corpus(flavor="evaluate")'s and the audit's (the CLI's and
    the API's), with the one default seed; numpy's global state only by name."""
    runs = [run_cli("score", "--jsonl", items_file, "--flavor", "evaluate", "--format", "json")
            for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    printed = json.loads(runs[0].stdout)
    expected = score_corpus(CANDIDATES, REFERENCES, flavor="evaluate")
    assert printed["scores"] == {t: {m: float(v) for m, v in s._asdict().items()}
                                 for t, s in expected.scores.items()}
    assert f"seed:{rougekit.DEFAULT_SEED}|flavor:evaluate" in printed["signature"]
    assert rougekit.audit(CANDIDATES, REFERENCES, ["evaluate"]).numbers["evaluate"] == \
        expected.scores
    audited = run_cli("audit", "--jsonl", items_file, "--flavors", "evaluate", "--format",
                      "json")
    assert audited.returncode == 0, audited.stderr
    numbers = json.loads(audited.stdout)["flavors"]["evaluate"]["numbers"]
    assert numbers == printed["scores"]
    # the global state changes nothing unless asked for by name
    np.random.seed(1)
    assert score_corpus(CANDIDATES, REFERENCES, flavor="evaluate").scores == expected.scores
    np.random.seed(1)
    first = score_corpus(CANDIDATES, REFERENCES, flavor="evaluate", seed="numpy-global")
    np.random.seed(1)
    again = score_corpus(CANDIDATES, REFERENCES, flavor="evaluate", seed="numpy-global")
    assert first.scores == again.scores != expected.scores
    assert "seed:numpy-global" in first.signature


# --- resolutions remembered: the same answer as a fresh one -------------------------------

def _outcome(call):
    try:
        return ("ok", call())
    except (TypeError, ValueError) as exc:
        return (type(exc).__name__, str(exc))


def test_a_remembered_resolution_answers_as_a_fresh_one(monkeypatch):
    from rougekit import _doors
    same = ScoringOptions(use_stemmer=True)
    requests = [
        ("RougeScorer", None, None, {"use_stemmer": True}),
        ("RougeScorer", None, None, {"use_stemmer": 1}),       # 1 == True, another request
        ("RougeScorer", None, None, {"bootstrap": 1000}),      # outside the door's scopes
        ("score_corpus", None, None, {"bootstrap": 1000}),
        ("score_corpus", None, None, {"bootstrap": 1000.0}),
        ("score_corpus", same, None, {}),
        ("score_corpus", ScoringOptions(use_stemmer=True), None, {"use_stemmer": False}),
        ("score_corpus", None, "rouge-score", {"use_stemmer": True}),
        ("score_corpus", None, "rouge-score", {"use_aggregator": True}),
        ("score_corpus", None, None, {"rouge_types": ("rouge1", "rougeL")}),
        ("score_corpus", None, None, {"rouge_types": ["rouge1", "rougeL"]}),
        ("score_corpus", None, None, {"rouge_types": ["rouge1", "rougeX"]}),
        ("explain", None, None, {"bootstrap": 10}),
    ]
    fresh = []
    for door, options, flavor, given in requests:
        _doors._RESOLVED.clear()
        fresh.append(_outcome(lambda: _doors.resolve(door, options, flavor, **given)))
    _doors._RESOLVED.clear()
    for _ in range(2):          # the second pass answers from what the first remembered
        again = [_outcome(lambda: _doors.resolve(door, options, flavor, **given))
                 for door, options, flavor, given in requests]
        assert again == fresh
    assert _doors._RESOLVED, "plain requests are remembered"
    # bounded: a full memory starts again
    monkeypatch.setattr(_doors, "_RESOLVED_MAX", 3)
    _doors._RESOLVED.clear()
    for seed in range(10):
        _doors.resolve("score_corpus", seed=seed)
        assert len(_doors._RESOLVED) <= 3


def test_remembered_options_do_not_share_a_tokenizer():
    # a tokenizer keeps state (each warning once, its caches): equal requests
    # get their own, and so warn as often as before resolutions were remembered
    from rougekit import _doors
    _doors._RESOLVED.clear()
    for _ in range(3):
        with pytest.warns(rougekit.TokenizationWarning, match="has no stemmer"):
            rougekit.RougeScorer(["rouge1"], use_stemmer=True, lang="korean")
    a = _doors.resolve("score_corpus", use_stemmer=True)
    b = _doors.resolve("score_corpus", use_stemmer=True)
    assert a == b and a.tokenizer_object is not b.tokenizer_object
    # nor is a caller's tokenizer (and its stem cache) kept alive by the memory
    assert all(vars(entry[1])["_tokenizer"] is None for entry in _doors._RESOLVED.values())
