"""The signature records every option that changes a number, and
parse_signature gives back score_corpus arguments that reproduce them."""
import json
import subprocess
import sys

import numpy as np
import pytest

import rougekit
from _helpers import forget_nltk_stopwords
from rougekit.signature import Signature, parse_signature

CANDIDATES = ["It purred. The cats sat on the mat.", "A dog barked loudly!",
              "लड़कियाँ स्कूल जाती हैं।", "Les enfants mangeaient des pommes.", ""]
REFERENCES = [["The cat sat on the mat. It purred.", "Cats sit on mats."],
              ["The dog barked.\nIt was loud."], ["लड़कियां स्कूल जाएंगी"],
              ["Les enfants mangent une pomme.", "Des pommes."], ["Nothing here."]]
BASE = dict(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"])


@pytest.fixture(scope="module")
def french_stopwords(tmp_path_factory):
    nltk = pytest.importorskip("nltk", reason="nltk is not installed (rougekit[stemmers])")
    root = tmp_path_factory.mktemp("nltk_data")
    folder = root / "corpora" / "stopwords"
    folder.mkdir(parents=True)
    (folder / "french").write_text("enfants\nmangeaient\n", encoding="utf-8")
    nltk.data.path.insert(0, str(root))
    forget_nltk_stopwords()
    yield
    nltk.data.path.remove(str(root))
    forget_nltk_stopwords()


def _variants():
    """(name, kwargs): each changes one option that changes numbers."""
    out = [
        ("types", dict(rouge_types=["rouge1", "rougeL"])),
        ("tokenizer", dict(tokenizer="unicode")),
        ("porter", dict(use_stemmer=True)),
        ("lang", dict(lang="hindi")),
        ("lang-stem", dict(lang="hindi", use_stemmer=True)),
        ("lang-snowball", dict(lang="french", use_stemmer=True)),
        ("stem-stopwords", dict(lang="french", use_stemmer=True, stem_stopwords=True)),
        ("split", dict(sentence_split="sentencex")),
        ("multi", dict(multi_ref="pooled")),
        ("bootstrap", dict(bootstrap=50, seed=3)),
        ("confidence", dict(bootstrap=50, seed=3, confidence=0.8)),
        ("seed", dict(bootstrap=50, seed=4)),
        ("aggregation", dict(aggregation="bootstrap-median", bootstrap=50)),
    ]
    return out


def _score(**kwargs):
    kw = dict(BASE, **kwargs)
    if kw.get("aggregation") == "bootstrap-median":
        np.random.seed(0)
    return rougekit.score_corpus(CANDIDATES, REFERENCES, **kw)


@pytest.mark.parametrize("name,kwargs", _variants(), ids=[n for n, _ in _variants()])
def test_each_option_changes_the_signature_and_round_trips(french_stopwords, name, kwargs):
    if kwargs.get("sentence_split") == "sentencex":
        pytest.importorskip("sentencex", reason="sentencex is not installed")
    base = _score()
    result = _score(**kwargs)
    assert result.signature != base.signature
    again = _score(**parse_signature(result.signature))
    assert again.signature == result.signature
    assert again.scores == result.scores and again.per_item == result.per_item
    assert again.intervals == result.intervals


def test_the_option_changes_the_numbers_too(french_stopwords):
    """The variants do change numbers on this corpus (so the signature must
    tell them apart); the split only changes rougeLsum."""
    pytest.importorskip("sentencex", reason="sentencex is not installed")
    base = _score()
    for name, kwargs in _variants():
        result = _score(**kwargs)
        if name in ("bootstrap", "confidence", "seed"):
            assert result.intervals != _score(bootstrap=50, seed=99).intervals
        else:
            assert result.per_item != base.per_item or result.scores != base.scores, name


def test_options_that_change_no_number_leave_it_alone():
    assert _score().signature == _score(threads=1).signature


def test_base_round_trip_and_fields():
    result = _score()
    kwargs = parse_signature(result.signature)
    assert kwargs == {"rouge_types": BASE["rouge_types"], "tokenizer": "rouge-score",
                      "use_stemmer": False}
    fields = Signature.parse(result.signature).fields()
    assert list(fields) == ["rougekit", "types", "tok", "lang", "stem", "stop", "split",
                            "multi", "agg", "boot"]


def test_lang_signature_has_provenance(french_stopwords):
    sig = _score(lang="french", use_stemmer=True).signature
    fields = Signature.parse(sig).fields()
    assert fields["tok"] == "xlsum" and fields["lang"] == "french"
    assert fields["stem"].startswith("snowball-french(nltk-")
    assert fields["stop"].startswith("nltk(") and len(fields["stop"]) == len("nltk(12345678)")
    pytest.importorskip("jieba", reason="jieba is not installed")
    sig = rougekit.score_corpus(["我爱北京"], ["我爱上海"], lang="chinese").signature
    assert "|lang:chinese(jieba-" in sig


def test_compute_signature_round_trips():
    preds = [c for c in CANDIDATES]
    refs = [r for r in REFERENCES]
    result, sig = rougekit.compute(preds, refs, use_stemmer=True, return_signature=True)
    assert sig.endswith("|agg:bootstrap-median|boot:1000,ci:0.95,seed:12345|flavor:evaluate")
    again = rougekit.score_corpus(preds, refs, **parse_signature(sig))
    assert again.signature == sig
    assert again.to_dict() == {t: float(v) for t, v in result.items()}
    # numpy's global state, when asked for by name, is read back as such
    np.random.seed(1)
    result, sig = rougekit.compute(preds, refs, use_stemmer=True, return_signature=True,
                                   seed="numpy-global")
    assert "|boot:1000,ci:0.95,seed:numpy-global|flavor:evaluate" in sig
    np.random.seed(1)
    again = rougekit.score_corpus(preds, refs, **parse_signature(sig))
    assert again.signature == sig
    assert again.to_dict() == {t: float(v) for t, v in result.items()}
    per_item, sig = rougekit.compute(preds, refs, use_aggregator=False, return_signature=True)
    assert "|agg:none|boot:none" in sig
    again = rougekit.score_corpus(preds, refs, **parse_signature(sig))
    assert {t: [item[t].fmeasure for item in again.per_item] for t in per_item} == per_item
    assert rougekit.compute(preds, refs, use_aggregator=False) == per_item


def test_cli_signature_round_trips(tmp_path):
    (tmp_path / "c.txt").write_text("\n".join(CANDIDATES) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(r[0].replace("\n", " ") for r in REFERENCES)
                                    + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rougekit", "score", "--candidates",
                          str(tmp_path / "c.txt"), "--references", str(tmp_path / "r.txt"),
                          "--stemmer", "--bootstrap", "40", "--seed", "2", "--format", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    again = rougekit.score_corpus(CANDIDATES, [r[0].replace("\n", " ") for r in REFERENCES],
                                  **parse_signature(got["signature"]))
    assert again.signature == got["signature"]
    assert {t: s._asdict() for t, s in again.scores.items()} == got["scores"]


def test_extra_fields_for_other_modes():
    sig = Signature(rouge_types=("rouge1",), multi_ref="pooled", version="1.0",
                    extra=(("rouge155", "-c 95 -n 2 -m"),))
    text = str(sig)
    assert text.endswith("|boot:none|rouge155:-c 95 -n 2 -m")
    assert Signature.parse(text) == sig
    with pytest.raises(ValueError, match="cannot reproduce field\\(s\\) rouge155:-c 95 -n 2 -m"):
        parse_signature(text)
    with pytest.raises(ValueError, match="repeats a standard field"):
        str(Signature(extra=(("tok", "x"),)))


@pytest.mark.parametrize("text,message", [
    ("rougekit:1.0|tok:rouge-score", "lacks field\\(s\\): types, lang, stem, stop, split"),
    ("nonsense", "has no ':'"),
    ("rougekit:1|rougekit:2", "repeats field 'rougekit'"),
])
def test_parse_errors(text, message):
    with pytest.raises(ValueError, match=message):
        Signature.parse(text)


def test_unreproducible_signatures():
    good = Signature.parse(_score().signature)
    import dataclasses
    for change, message in [(dict(tokenizer="custom:Mine"), "custom object"),
                            (dict(tokenizer="xlsum"), "tok:xlsum needs a lang"),
                            (dict(lang="hindi"), "goes with tok:xlsum"),
                            (dict(stemmer="lovins"), "unknown stemmer"),
                            (dict(aggregation="median"), "unknown aggregation")]:
        with pytest.raises(ValueError, match=message):
            parse_signature(str(dataclasses.replace(good, **change)))
    with pytest.raises(ValueError, match="is not N,ci:C,seed:S"):
        Signature.parse(_score().signature.replace("boot:none", "boot:12"))


# --- ROUGE-1.5.5 mode -------------------------------------------------------------

R155_CANDIDATES = ["The cats sat on the mat.\nThey were happy.", "Stocks fell sharply.",
                   "Rain is expected tomorrow in the north."]
R155_REFERENCES = [["A cat sat on a mat.", "The happy cats sat."],
                   ["Stock markets fell sharply on Monday."],
                   ["Heavy rain is expected tomorrow.", "Rain tomorrow, north."]]
R155_BASE = {"max_n": 2, "weight": 1.2, "skip_distance": 4, "skip_unigrams": True}


@pytest.mark.parametrize("change", [
    {"max_n": 3}, {"rouge_l": False}, {"weight": 1.5}, {"skip_distance": 2},
    {"skip_unigrams": False}, {"skip_unigrams": False, "skip_both": True}, {"stem": True},
    {"stem_models_only": True}, {"remove_stopwords": True}, {"word_limit": 4},
    {"byte_limit": 20}, {"formula": "B"}, {"alpha": 0.2}, {"confidence": 90},
    {"resamples": 50}, {"counting_unit": 1}, {"counting_unit": 2},
], ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_rouge155_options_change_the_signature_and_round_trip(change):
    """Each ROUGE-1.5.5 option that changes a printed number changes the
    result's signature, and the options read back from the signature print
    the same text."""
    from rougekit.rouge155 import Options, Rouge155

    base = Rouge155(**R155_BASE).score_corpus(R155_CANDIDATES, R155_REFERENCES)
    changed = Rouge155(**{**R155_BASE, **change}).score_corpus(R155_CANDIDATES,
                                                                R155_REFERENCES)
    assert changed.render() != base.render()
    assert changed.signature != base.signature
    again = Rouge155.from_options(Options.from_signature(changed.signature))
    assert again.score_corpus(R155_CANDIDATES, R155_REFERENCES).render() == changed.render()
    sig = Signature.parse(changed.signature)
    assert dict(sig.extra)["rouge155"].startswith("-c ")
    with pytest.raises(ValueError, match="cannot reproduce field"):
        parse_signature(changed.signature)


def test_rouge155_signature_fields():
    from rougekit.rouge155 import Rouge155

    result = Rouge155(max_n=2, stem=True, remove_stopwords=True, confidence=90,
                      resamples=200).score_corpus(R155_CANDIDATES, R155_REFERENCES)
    fields = Signature.parse(result.signature).fields()
    assert fields["types"] == "ROUGE-1,ROUGE-2,ROUGE-L"
    assert (fields["tok"], fields["stem"], fields["stop"]) == (
        "rouge155", "rouge155-porter(wordnet-2.0)", "smart")
    assert fields["boot"] == "200,ci:0.9,seed:perl-srand"
    assert fields["rouge155"] == "-c 90 -r 200 -n 2 -m -s"
    with pytest.raises(ValueError, match="no rouge155 field"):
        from rougekit.rouge155 import Options
        Options.from_signature(str(Signature()))


def test_rouge155_cli_signature(tmp_path):
    """``--signature`` adds the result's signature on stderr and leaves stdout
    the script's."""
    import subprocess
    import sys

    from rougekit.rouge155 import Rouge155

    (tmp_path / "c.txt").write_text(R155_CANDIDATES[1], encoding="utf-8")
    (tmp_path / "r.txt").write_text(R155_REFERENCES[1][0], encoding="utf-8")
    (tmp_path / "list").write_text("c.txt r.txt\n", encoding="utf-8")
    argv = [sys.executable, "-m", "rougekit", "rouge155", "-n", "2", "-m", "-z", "SPL", "list"]
    plain = subprocess.run(argv, cwd=tmp_path, capture_output=True)
    signed = subprocess.run(argv[:4] + ["--signature"] + argv[4:], cwd=tmp_path,
                            capture_output=True)
    assert plain.returncode == signed.returncode == 0, signed.stderr
    assert signed.stdout == plain.stdout and plain.stderr == b""
    direct = Rouge155(max_n=2, stem=True).score_corpus([R155_CANDIDATES[1]],
                                                       [R155_REFERENCES[1]])
    assert signed.stderr.decode() == direct.signature + "\n"
