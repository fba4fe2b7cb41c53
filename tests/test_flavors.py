"""``score_corpus(..., flavor=...)`` equals the package each flavor names, run
here: pltrdy's ``rouge`` 1.0.1, ``rouge-chinese`` 1.0.3, ROUGE-1.5.5.pl
(through the shared oracle), rouge-score's scorer and aggregator as Hugging
Face evaluate's ``rouge`` calls them, XL-Sum's ``multilingual_rouge``; and
the signature names the flavor and reads back."""
import random

import numpy as np
import pytest

import rougekit
from _compat import require_recorded_files
from _rouge155 import oracle
from rougekit import ScoringOptions, score_corpus
from rougekit.flavors import flavor_fields, flavor_of, flavor_options

# The flavors' counts come from the kernels (LCS, the ROUGE-1.5.5 bootstrap)
# or their pure twins: both backends must give the packages' numbers.
pytestmark = pytest.mark.backend

TYPES3 = ["rouge1", "rouge2", "rougeL"]
WORDS = ["the", "cat", "sat", "on", "mat", "a", "the", "cat", "dog", "Dog", "x",
         "é", "l'été", "1,000", "mat,", "sat!"]
BREAKS = [" ", " ", " ", "  ", ". ", " . ", "\n", "\t", ",", " ! "]
ROUGE_NAMES = {"rouge1": "rouge-1", "rouge2": "rouge-2", "rougeL": "rouge-l"}


def _texts(seed, count, words=WORDS, breaks=BREAKS, min_len=1, max_len=25):
    """Random texts with at least one word (the packages raise on none)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(min_len, max_len)
        out.append("".join(rng.choice(words) + rng.choice(breaks) for _ in range(n)))
    return out


def _assert_equal_to_package(result, package_avg, types=TYPES3):
    for t in types:
        theirs = package_avg[ROUGE_NAMES[t]]
        mine = result.scores[t]
        assert (mine.precision, mine.recall, mine.fmeasure) == \
            (theirs["p"], theirs["r"], theirs["f"]), t


def _scorable(rouge_class, hyps, refs):
    """The pairs the package scores alone without raising (it raises on a
    text with no sentence, and recurses too deep on long sentences)."""
    kept = []
    for h, r in zip(hyps, refs):
        try:
            rouge_class().get_scores(h, r)
        except (ValueError, RecursionError):
            continue
        kept.append((h, r))
    return [h for h, _ in kept], [r for _, r in kept]


# --- pltrdy's rouge --------------------------------------------------------------

@pytest.fixture(scope="module")
def pltrdy():
    require_recorded_files("rouge", ("rouge/", "bin/"))
    from rouge import Rouge
    return Rouge


def test_pltrdy_flavor_equals_rouge_on_the_shared_news_pairs(pltrdy, corpus_pairs):
    pairs = corpus_pairs(300, 13)
    hyps, refs = _scorable(pltrdy, [p["candidate"] for p in pairs],
                           [p["references"][0] for p in pairs])
    assert len(hyps) > 250
    result = score_corpus(hyps, refs, TYPES3, flavor="pltrdy")
    _assert_equal_to_package(result, pltrdy().get_scores(hyps, refs, avg=True))


@pytest.mark.parametrize("seed", range(6))
def test_pltrdy_flavor_equals_rouge_on_random_texts(pltrdy, seed):
    hyps, refs = _scorable(pltrdy, _texts(seed, 40), _texts(seed + 100, 40))
    result = score_corpus(hyps, refs, TYPES3, flavor="pltrdy")
    _assert_equal_to_package(result, pltrdy().get_scores(hyps, refs, avg=True))
    # pltrdy's ROUGE-L is summary-level: rougekit's rougeL and rougeLsum are it
    both = score_corpus(hyps, refs, ["rougeL", "rougeLsum"], flavor="pltrdy").scores
    assert both["rougeL"] == both["rougeLsum"] == result.scores["rougeL"]


def test_pltrdy_flavor_scores_what_rouge_refuses_as_zero(pltrdy):
    with pytest.raises(ValueError, match="Hypothesis is empty"):
        pltrdy().get_scores(["..."], ["the cat"], avg=True)
    result = score_corpus(["...", "the cat"], ["the cat", "the cat"], TYPES3,
                          flavor="pltrdy", options=None)
    per_item = result.per_item
    assert per_item[0]["rouge1"] == (0.0, 0.0, 0.0)
    assert result.scores["rouge1"].fmeasure == per_item[1]["rouge1"].fmeasure / 2


# --- rouge-chinese ----------------------------------------------------------------

CHINESE = ["我爱北京天安门。", "今天天气很好！", "他说：“我们明天去公园。”", "这个问题很难吗？",
           "学生们在教室里认真学习。", "北京是中国的首都……", "我们一起去吃饭吧", "天安门很大。"]


@pytest.fixture(scope="module")
def rouge_chinese():
    require_recorded_files("rouge_chinese", ("rouge_chinese/",))
    from rouge_chinese import Rouge
    return Rouge


def _segmented(seed, count):
    jieba = pytest.importorskip("jieba")
    rng = random.Random(seed)
    return [" ".join(jieba.cut("".join(rng.choice(CHINESE) for _ in range(rng.randint(1, 4)))))
            for _ in range(count)]


@pytest.mark.parametrize("seed", range(3))
def test_rouge_chinese_flavor_equals_rouge_chinese_on_jieba_segmented_text(rouge_chinese,
                                                                          seed):
    hyps, refs = _scorable(rouge_chinese, _segmented(seed, 40), _segmented(seed + 50, 40))
    result = score_corpus(hyps, refs, TYPES3, flavor="rouge-chinese")
    _assert_equal_to_package(result, rouge_chinese().get_scores(hyps, refs, avg=True))


def test_rouge_chinese_flavor_equals_rouge_chinese_on_the_news_pairs(rouge_chinese,
                                                                     corpus_pairs):
    pairs = corpus_pairs(200, 5)
    hyps, refs = _scorable(rouge_chinese, [p["candidate"] for p in pairs],
                           [p["references"][0] for p in pairs])
    result = score_corpus(hyps, refs, TYPES3, flavor="rouge-chinese")
    _assert_equal_to_package(result, rouge_chinese().get_scores(hyps, refs, avg=True))


# --- ROUGE-1.5.5.pl ---------------------------------------------------------------

PERL_LABELS = {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rougeL": "ROUGE-L"}


@pytest.mark.parametrize("flags", ["-n 2 -m", "-n 2", "-n 1 -s -m -p 0.3", "-n 2 -r 200 -c 90"])
def test_rouge155_flavor_equals_the_perl_script(corpus_pairs, flags):
    pairs = corpus_pairs(60, 21)
    candidates = [p["candidate"] for p in pairs]
    references = [p["references"] for p in pairs]
    words = flags.split()
    perl = oracle().run_rouge155(
        [{"candidate": c, "references": r} for c, r in zip(candidates, references)],
        words)
    result = score_corpus(candidates, references, flavor=f"rouge155:{flags}")
    n = int(words[words.index("-n") + 1])
    assert result.scores.keys() == {f"rouge{k}" for k in range(1, n + 1)} | {"rougeL"}
    for t, score in result.scores.items():
        avg = perl["averages"][PERL_LABELS[t]]
        assert (score.recall, score.precision, score.fmeasure) == (avg["R"], avg["P"], avg["F"])
        iv = result.intervals[t]
        assert [iv.low.recall, iv.high.recall] == avg["R_ci"]
        assert [iv.low.fmeasure, iv.high.fmeasure] == avg["F_ci"]
    assert "flavor:rouge155" in result.signature


def test_rouge155_flavor_refuses_flags_it_cannot_honour():
    for flags in ("-w 1.2", "-f B", "-l 10"):
        with pytest.raises(ValueError, match="rouge155"):
            flavor_options(f"rouge155:{flags}")
    with pytest.raises(ValueError, match="-n needs a value|-n 0"):
        flavor_options("rouge155:-n 0")


# --- Hugging Face evaluate and XL-Sum --------------------------------------------

def _bootstrap_medians(scorer, candidates, references, seed):
    """What evaluate's rouge (and rouge-score's rouge.py, as XL-Sum runs it)
    reports: per item ``score_multi`` (``score`` for one reference) into
    rouge-score's BootstrapAggregator, numpy's global state seeded."""
    from rouge_score import scoring
    np.random.seed(seed)
    aggregator = scoring.BootstrapAggregator()
    for cand, refs in zip(candidates, references):
        aggregator.add_scores(scorer.score_multi(refs, cand) if len(refs) > 1
                              else scorer.score(refs[0], cand))
    return {t: s.mid for t, s in aggregator.aggregate().items()}


def test_evaluate_flavor_equals_rouge_scores_bootstrap_medians(corpus_pairs):
    from rouge_score import rouge_scorer
    pairs = corpus_pairs(120, 8)
    candidates = [p["candidate"] for p in pairs]
    references = [p["references"] for p in pairs]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    expected = _bootstrap_medians(rouge_scorer.RougeScorer(types), candidates, references, 7)
    result = score_corpus(candidates, references, types, flavor="evaluate", seed=7)
    assert {t: tuple(s) for t, s in result.scores.items()} == \
        {t: tuple(s) for t, s in expected.items()}
    # seed="numpy-global": numpy's global state, as evaluate draws
    np.random.seed(7)
    again = score_corpus(candidates, references, types, flavor="evaluate",
                         seed="numpy-global")
    assert again.scores == result.scores
    # without seed=, rougekit.DEFAULT_SEED: evaluate after numpy.random.seed(it)
    expected = _bootstrap_medians(rouge_scorer.RougeScorer(types), candidates, references,
                                  rougekit.DEFAULT_SEED)
    default = score_corpus(candidates, references, types, flavor="evaluate")
    assert {t: tuple(s) for t, s in default.scores.items()} == \
        {t: tuple(s) for t, s in expected.items()}


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_xlsum_flavor_equals_multilingual_rouge():
    mr = pytest.importorskip("multilingual_rouge.rouge_scorer")
    sentences = ["लड़कियाँ स्कूल जाती हैं।", "लड़कों ने खेल खेला।", "वे पढ़ाई करती हैं",
                 "आज मौसम अच्छा है।", "हम कल बाज़ार जाएँगे।"]
    rng = random.Random(4)
    candidates = [" ".join(rng.sample(sentences, 2)) for _ in range(30)]
    references = [[" ".join(rng.sample(sentences, 3))] for _ in range(30)]
    types = ["rouge1", "rouge2", "rougeL"]
    expected = _bootstrap_medians(mr.RougeScorer(types, use_stemmer=True, lang="hindi"),
                                  candidates, references, 3)
    result = score_corpus(candidates, references, types, flavor="xlsum:hindi", seed=3)
    assert {t: tuple(s) for t, s in result.scores.items()} == \
        {t: tuple(s) for t, s in expected.items()}


# --- options, signature ------------------------------------------------------------

FLAVOR_SPECS = ["rouge-score", "evaluate", "rouge155", "rouge155:-m -s -p 0.3 -r 200 -c 90",
                "xlsum:hindi", "pltrdy", "rouge-chinese"]


@pytest.mark.parametrize("flavor", FLAVOR_SPECS)
def test_the_signature_names_the_flavor_and_reads_back(flavor):
    options = flavor_options(flavor, rouge_types=("rouge1", "rougeLsum"))
    signature = options.signature()
    assert flavor_of(options) is not None
    if flavor != "rouge-score":
        assert "|flavor:" + flavor_of(options) in signature
    back = ScoringOptions.from_signature(signature)
    assert back == options
    assert flavor_of(back) == flavor_of(options)
    assert flavor_fields(flavor_of(options)) == flavor_fields(flavor)


def test_a_signature_whose_fields_are_not_its_flavors_is_refused():
    signature = flavor_options("pltrdy").signature()
    assert signature.endswith("|count:sets|L:summary|F:epsilon|flavor:pltrdy")
    forged = signature.replace("|count:sets", "")
    with pytest.raises(ValueError, match="flavor:pltrdy, but its fields give "
                                         "counting='clipped'"):
        ScoringOptions.from_signature(forged)


def test_a_changed_stage_is_no_flavor():
    import dataclasses
    options = dataclasses.replace(flavor_options("pltrdy"), counting="clipped")
    assert flavor_of(options) is None
    assert "flavor:" not in options.signature()


def test_flavor_with_an_option_it_sets_is_an_error_naming_it():
    with pytest.raises(ValueError, match="use_stemmer"):
        score_corpus(["a"], ["a"], flavor="pltrdy", use_stemmer=True)
    with pytest.raises(ValueError, match="unknown flavor 'rouge'"):
        score_corpus(["a"], ["a"], flavor="rouge")
    with pytest.raises(ValueError, match="xlsum needs a parameter: xlsum:LANGUAGE"):
        score_corpus(["a"], ["a"], flavor="xlsum")
    with pytest.raises(TypeError, match="flavor must be a str"):
        score_corpus(["a"], ["a"], flavor=3)


def test_stage_options_are_checked():
    with pytest.raises(ValueError, match="counting"):
        ScoringOptions(counting="set")
    with pytest.raises(ValueError, match="rouge_l"):
        ScoringOptions(rouge_l="text")
    with pytest.raises(ValueError, match="alpha"):
        ScoringOptions(alpha=0.3)
    with pytest.raises(ValueError, match="remove_stopwords"):
        ScoringOptions(remove_stopwords=True)
    with pytest.raises(ValueError, match="rouge155-bootstrap"):
        ScoringOptions(aggregation="rouge155-bootstrap")


EDGE_ITEMS = [("", ["the cat sat"]), ("...", ["the cat sat"]), ("!!! ,,,", ["..."]),
              ("the the the the", ["the cat the mat"]), ("café naïve über", ["cafe naive uber"]),
              ("The Cat sat.\nOn the mat.\n\nIt purred.", ["the cat sat on the mat",
                                                           "A cat.\nA mat."]),
              ("well-known 4:00pm 1,000 can't", ["well known 4 00pm 1 000 can t"]),
              ("a b a b a b", ["b a b a", "a a a b b b"])]


@pytest.mark.parametrize("flags", ["-n 2 -m", "-n 2 -s"])
def test_rouge155_flavor_equals_the_perl_script_on_edge_texts(flags):
    candidates = [c for c, _ in EDGE_ITEMS]
    references = [r for _, r in EDGE_ITEMS]
    perl = oracle().run_rouge155(
        [{"candidate": c, "references": r} for c, r in EDGE_ITEMS], flags.split())
    result = score_corpus(candidates, references, flavor=f"rouge155:{flags}")
    for t, score in result.scores.items():
        avg = perl["averages"][PERL_LABELS[t]]
        assert (score.recall, score.precision, score.fmeasure) == (avg["R"], avg["P"], avg["F"])


def test_pltrdy_and_rouge_chinese_flavors_equal_the_packages_on_edge_texts(pltrdy,
                                                                            rouge_chinese):
    hyps = ["the the the the", "a. . b  c.", "The Cat. the CAT", "x", "café  é\u00a0e",
            "one two three. three two one. one", "a b a b a b\nb a b a", "我 爱 北京 。 天安门"]
    refs = ["the cat the mat", "a b c", "the cat", "y", "café e", "one two. three",
            "b a b a", "我 爱 天安门 。"]
    for package, flavor in ((pltrdy, "pltrdy"), (rouge_chinese, "rouge-chinese")):
        h, r = _scorable(package, hyps, refs)
        assert len(h) == len(hyps)
        _assert_equal_to_package(score_corpus(h, r, TYPES3, flavor=flavor),
                                 package().get_scores(h, r, avg=True))


# --- each flavor's own switches, against its package called that way ---------------

def _exact_mean(values):
    """The float nearest the exact mean: score_corpus's "mean"."""
    from fractions import Fraction
    return float(sum(map(Fraction, values)) / len(values))


def _means(per_item, types):
    return {t: tuple(_exact_mean([getattr(s[t], m) for s in per_item])
                     for m in ("precision", "recall", "fmeasure")) for t in types}


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_rouge_score_flavor_with_its_stemmer_equals_rouge_score(corpus_pairs, use_stemmer):
    """flavor="rouge-score", use_stemmer=True: rouge-score 0.1.2's
    RougeScorer(use_stemmer=True), score_multi per item, the items' mean."""
    from rouge_score import rouge_scorer
    pairs = corpus_pairs(80, 31)
    candidates = [p["candidate"] for p in pairs] + ["", "...", "running runners ran"]
    references = [p["references"] for p in pairs] + [["a"], ["!!"], ["the runner runs"]]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    theirs = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    expected = [theirs.score_multi(r, c) for c, r in zip(candidates, references)]
    result = score_corpus(candidates, references, flavor="rouge-score",
                          use_stemmer=use_stemmer)
    assert [{t: tuple(map(float, s)) for t, s in e.items()} for e in expected] == \
        [{t: tuple(s) for t, s in item.items()} for item in result.per_item]
    assert {t: tuple(s) for t, s in result.scores.items()} == _means(expected, types)
    assert ScoringOptions.from_signature(result.signature).use_stemmer is use_stemmer


def test_cli_flavor_rouge_score_with_stemmer_equals_rouge_score(tmp_path, corpus_pairs):
    import json

    from rouge_score import rouge_scorer

    from _helpers import run_cli
    pairs = corpus_pairs(40, 32)
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps({"candidate": p["candidate"],
                                        "references": p["references"]}) + "\n"
                            for p in pairs), encoding="utf-8")
    out = run_cli("score", "--jsonl", path, "--flavor", "rouge-score", "--stemmer",
                  "--format", "json")
    assert out.returncode == 0, out.stderr
    theirs = rouge_scorer.RougeScorer(list(rougekit.DEFAULT_ROUGE_TYPES), use_stemmer=True)
    expected = [theirs.score_multi(p["references"], p["candidate"]) for p in pairs]
    got = json.loads(out.stdout)
    assert {t: tuple(s.values()) for t, s in got["scores"].items()} == \
        _means(expected, rougekit.DEFAULT_ROUGE_TYPES)
    assert "|stem:porter|" in got["signature"]


def test_rouge_score_flavor_split_summaries_equals_rouge_score(monkeypatch):
    """split_summaries=True: rougeLsum on nltk's sentences (the same stand-in
    splitter for both: punkt's data cannot be downloaded here)."""
    import re as regex

    nltk = pytest.importorskip("nltk")
    from rouge_score import rouge_scorer
    monkeypatch.setattr(nltk, "sent_tokenize",
                        lambda text: regex.split(r"(?<=[.!?])\s*", text))
    candidates = ["The cat sat. The dog ran! Did it?", "One sentence only", "x. y. x."]
    references = [["The dog sat. A cat ran."], ["One. Two. Three."], ["x y. x."]]
    theirs = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], split_summaries=True)
    expected = [theirs.score(r[0], c) for c, r in zip(candidates, references)]
    result = score_corpus(candidates, references, ["rouge1", "rougeLsum"],
                          flavor="rouge-score", split_summaries=True)
    assert [{t: tuple(map(float, s)) for t, s in e.items()} for e in expected] == \
        [{t: tuple(s) for t, s in item.items()} for item in result.per_item]
    assert result.signature.split("|")[6].startswith("split:nltk")


@pytest.mark.parametrize("use_stemmer", [False, True])
@pytest.mark.parametrize("use_aggregator", [True, False])
def test_evaluate_flavor_with_its_switches_equals_evaluate(corpus_pairs, use_stemmer,
                                                           use_aggregator):
    from _evaluate import evaluate_compute
    pairs = corpus_pairs(60, 33)
    candidates = [p["candidate"] for p in pairs]
    references = [p["references"] for p in pairs]
    np.random.seed(5)
    theirs = evaluate_compute(candidates, references, use_stemmer=use_stemmer,
                              use_aggregator=use_aggregator)
    np.random.seed(5)
    result = score_corpus(candidates, references, flavor="evaluate", use_stemmer=use_stemmer,
                          use_aggregator=use_aggregator, seed="numpy-global")
    if use_aggregator:
        assert {t: s.fmeasure for t, s in result.scores.items()} == theirs
    else:
        assert {t: [item[t].fmeasure for item in result.per_item] for t in theirs} == theirs
        # evaluate returns no corpus number then; the flavor's is the items' mean
        assert result.signature.split("|")[8] == "agg:mean"


@pytest.mark.parametrize("flavor", ["pltrdy", "rouge-chinese"])
@pytest.mark.parametrize("metrics,stats,avg,ignore_empty", [
    (None, None, True, False),
    (["rouge-1", "rouge-l"], None, True, False),
    (["rouge-2", "rouge-5"], ["f"], True, True),
    (None, ["p", "r"], False, False),
    (["rouge-l"], None, False, True),
])
def test_pltrdy_flavors_with_their_switches_equal_their_packages(flavor, metrics, stats, avg,
                                                                 ignore_empty):
    if flavor == "pltrdy":
        require_recorded_files("rouge", ("rouge/", "bin/"))
        from rouge import Rouge
        hyps, refs = _scorable(Rouge, _texts(7, 40), _texts(107, 40))
    else:
        require_recorded_files("rouge_chinese", ("rouge_chinese/",))
        from rouge_chinese import Rouge
        hyps, refs = _scorable(Rouge, _segmented(7, 30), _segmented(57, 30))
    if ignore_empty:             # what ignore_empty leaves out: empty texts
        hyps, refs = hyps + ["", hyps[0]], refs + [refs[1], ""]
    theirs = Rouge(metrics=metrics, stats=stats).get_scores(hyps, refs, avg=avg,
                                                            ignore_empty=ignore_empty)
    switches = {k: v for k, v in dict(metrics=metrics, stats=stats).items() if v is not None}
    result = score_corpus(hyps, refs, flavor=flavor, avg=avg, ignore_empty=ignore_empty,
                          **switches)
    names = {v: k for k, v in ROUGE_NAMES.items()} | {"rouge-5": "rouge5"}
    wanted = stats or ["f", "p", "r"]
    fields = {"f": "fmeasure", "p": "precision", "r": "recall"}
    if avg:
        assert {m: {s: getattr(result.scores[names[m]], fields[s]) for s in wanted}
                for m in theirs} == theirs
    else:
        assert [{m: {s: getattr(item[names[m]], fields[s]) for s in wanted}
                 for m in row} for row, item in zip(theirs, result.per_item)] == theirs
        assert result.n_items == len(theirs)


def test_pltrdy_stats_changes_no_number_and_a_bad_switch_value_is_refused():
    a = score_corpus(["the cat sat"], ["the cat"], flavor="pltrdy", stats=["f"])
    b = score_corpus(["the cat sat"], ["the cat"], flavor="pltrdy")
    assert (a.scores, a.signature) == (b.scores, b.signature)
    with pytest.raises(ValueError, match="stats must be"):
        score_corpus(["a"], ["a"], flavor="pltrdy", stats=["x"])
    with pytest.raises(ValueError, match="unknown metric 'rouge-6'"):
        score_corpus(["a"], ["a"], flavor="pltrdy", metrics=["rouge-6"])
    with pytest.raises(ValueError, match="avg='yes' is not one of avg=True, avg=False"):
        score_corpus(["a"], ["a"], flavor="pltrdy", avg="yes")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("use_stemmer", [True, False])
def test_xlsum_flavor_with_its_stemmer_switch_equals_multilingual_rouge(use_stemmer):
    mr = pytest.importorskip("multilingual_rouge.rouge_scorer")
    sentences = ["लड़कियाँ स्कूल जाती हैं।", "लड़कों ने खेल खेला।", "वे पढ़ाई करती हैं",
                 "आज मौसम अच्छा है।", "हम कल बाज़ार जाएँगे।"]
    rng = random.Random(9)
    candidates = [" ".join(rng.sample(sentences, 2)) for _ in range(20)]
    references = [[" ".join(rng.sample(sentences, 3))] for _ in range(20)]
    types = ["rouge1", "rouge2", "rougeL"]
    expected = _bootstrap_medians(mr.RougeScorer(types, use_stemmer=use_stemmer, lang="hindi"),
                                  candidates, references, 4)
    result = score_corpus(candidates, references, types, flavor="xlsum:hindi",
                          use_stemmer=use_stemmer, seed=4)
    assert {t: tuple(s) for t, s in result.scores.items()} == \
        {t: tuple(s) for t, s in expected.items()}
    assert result.signature.endswith("|flavor:xlsum:hindi")


@pytest.mark.parametrize("flavor,switch", [
    ("rouge-score", dict(multi_ref="mean")), ("rouge-score", dict(use_aggregator=False)),
    ("evaluate", dict(counting="sets")), ("pltrdy", dict(use_stemmer=True)),
    ("rouge155", dict(use_stemmer=True)), ("xlsum:hindi", dict(avg=True)),
])
def test_a_switch_the_package_does_not_have_is_refused_in_one_line(flavor, switch):
    with pytest.raises((ValueError, TypeError)) as info:
        score_corpus(["a"], ["a"], flavor=flavor, **switch)
    message = str(info.value)
    assert "\n" not in message and flavor.split(":")[0] in message, message
