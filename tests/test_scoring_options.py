"""``rougekit.ScoringOptions``: every option that changes a number, checked
once, accepted by every front-end as ``options=`` beside its keyword
arguments, and the source of the signature."""
import dataclasses
import pickle

import pytest

import rougekit
from rougekit import ScoringOptions, parse_signature, score_corpus, score_frame

CANDIDATES = ["the cat sat on the mat\nit was warm", "a quick brown fox", ""]
REFERENCES = [["the cat is on the mat\nit is warm", "a cat sat"], ["the quick fox"], ["x y"]]

OPTION_SETS = [
    dict(),
    dict(rouge_types=["rouge1", "rougeLsum"], use_stemmer=True),
    dict(rouge_types=("rouge2", "rougeL"), multi_ref="pooled"),
    dict(multi_ref="jackknife", bootstrap=50, confidence=0.9, seed=3),
    dict(tokenizer="whitespace", multi_ref="mean"),
    dict(lang="english", use_stemmer=True, stem_stopwords=True),
    dict(aggregation="bootstrap-median", bootstrap=20),
]


@pytest.mark.parametrize("kwargs", OPTION_SETS, ids=str)
def test_score_corpus_options_equal_keywords(kwargs):
    np = pytest.importorskip("numpy")
    np.random.seed(0)
    by_keywords = score_corpus(CANDIDATES, REFERENCES, **kwargs)
    np.random.seed(0)
    by_options = score_corpus(CANDIDATES, REFERENCES, options=ScoringOptions(**kwargs))
    assert by_options == by_keywords


@pytest.mark.parametrize("kwargs", [k for k in OPTION_SETS
                                    if not {"bootstrap", "aggregation"} & set(k)], ids=str)
def test_score_frame_options_equal_keywords(kwargs):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"candidate": CANDIDATES, "references": REFERENCES})
    by_keywords = score_frame(df, **kwargs)
    by_options = score_frame(df, options=ScoringOptions(**kwargs))
    pd.testing.assert_frame_equal(by_options, by_keywords)


def test_signature_is_derived_from_the_options_and_read_back():
    for kwargs in OPTION_SETS:
        if "tokenizer" in kwargs and kwargs["tokenizer"] != "rouge-score":
            continue
        options = ScoringOptions(**kwargs)
        result = score_corpus(CANDIDATES, REFERENCES, options=options)
        assert result.signature == options.signature()
        back = ScoringOptions.from_signature(result.signature)
        assert back == dataclasses.replace(options, **{
            k: v for k, v in dataclasses.asdict(options).items()
            if k in parse_signature(result.signature)})
        assert ScoringOptions(**parse_signature(result.signature)) == back


def test_fields_are_checked_with_the_messages_score_corpus_gives():
    bad = [
        (dict(rouge_types=["rougeX"]), ValueError),
        (dict(rouge_types=[]), ValueError),
        (dict(multi_ref="best"), ValueError),
        (dict(multi_ref=1), TypeError),
        (dict(bootstrap=-1), ValueError),
        (dict(confidence=2), ValueError),
        (dict(seed="x"), TypeError),
        (dict(aggregation="median"), ValueError),
        (dict(aggregation="bootstrap-median"), ValueError),
        (dict(sentence_split="lines"), ValueError),
        (dict(tokenizer="nope"), ValueError),
        (dict(tokenizer=42), TypeError),
        (dict(lang="english", tokenizer="whitespace"), ValueError),
        (dict(stem_stopwords=True), ValueError),
        (dict(lang="klingon"), ValueError),
    ]
    for kwargs, error in bad:
        with pytest.raises(error) as by_options:
            ScoringOptions(**kwargs)
        with pytest.raises(error) as by_corpus:
            score_corpus(["a"], ["a"], **kwargs)
        assert str(by_options.value) == str(by_corpus.value), kwargs


def test_options_and_keywords_together():
    options = ScoringOptions(rouge_types=["rouge1"], use_stemmer=True)
    # keywords at their defaults (or equal to the options') are no conflict
    plain = score_corpus(CANDIDATES, REFERENCES, options=options)
    assert score_corpus(CANDIDATES, REFERENCES, ["rouge1"], options=options,
                        use_stemmer=True) == plain
    with pytest.raises(ValueError, match="not both: multi_ref, bootstrap"):
        score_corpus(CANDIDATES, REFERENCES, options=options, multi_ref="mean", bootstrap=5)
    with pytest.raises(TypeError, match="options must be a rougekit.ScoringOptions, not dict"):
        score_corpus(CANDIDATES, REFERENCES, options={"rouge_types": ["rouge1"]})


def test_frozen_hashable_picklable_and_replace_checks_again():
    options = ScoringOptions(rouge_types=["rouge1", "rougeL"], lang="english",
                             use_stemmer=True, stem_stopwords=True)
    assert options.rouge_types == ("rouge1", "rougeL")
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.multi_ref = "mean"
    assert hash(options) == hash(ScoringOptions(rouge_types=("rouge1", "rougeL"),
                                                lang="english", use_stemmer=True,
                                                stem_stopwords=True))
    again = pickle.loads(pickle.dumps(options))
    assert again == options
    assert again.tokenizer_object.tokenize("Running dogs") == \
        options.tokenizer_object.tokenize("Running dogs")
    with pytest.raises(ValueError, match="unknown multi_ref policy"):
        dataclasses.replace(options, multi_ref="median")


def test_public_name():
    assert rougekit.ScoringOptions is ScoringOptions
    assert "ScoringOptions" in rougekit.__all__
