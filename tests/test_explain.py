"""``rougekit.explain`` and ``RougeScorer.explain``: what one pair matched.

The counts an explanation shows give ``score()``'s P/R/F with ``==``
(recomputed here with rouge-score's formulas, not rougekit's), its matches
are the hits it counts, matched tokens are equal, the LCS is the one
rouge-score's backtrack picks, and every span slices the text to its token's
word. On the shared corpus, on hypothesis texts and on edge cases, with
stemming on and off, ``lang=`` and other tokenizers; the suite runs on both
backends. Then the HTML of the explanation and of ``CorpusResult``.
"""
import html
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer

from _helpers import ALL_TYPES, EDGE_TEXTS, examples, sweep
from rougekit import ScoringOptions, explain, score_corpus
from rougekit.explanation import Explanations, Match, Token
from rougekit.rouge_scorer import RougeScorer
from rougekit.tokenize import tokenize as rouge_tokenize

# The texts are meant to provoke them (one-line sentences, non-ASCII letters).
pytestmark = [pytest.mark.backend, pytest.mark.filterwarnings("ignore::rougekit.RougekitWarning")]

TYPES = ALL_TYPES          # rouge1 to rouge9, rougeL, rougeLsum
STEMMING = [pytest.param(False, id="nostem"), pytest.param(True, id="stem")]
SCORERS = {stem: RougeScorer(TYPES, use_stemmer=stem) for stem in (False, True)}
SETTINGS = settings(max_examples=examples(100), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# Words that collide, stem alike, are not tokens, or lowercase to more letters.
WORDS = ["the", "cat", "cats", "running", "runs", "run", "a", "A", "on", "mat", "2",
         "x9", "caf\u00e9", "--", "\u00e9t\u00e9", "jumping", "dog's", "\u0130stanbul",
         "\u212aelvin", "<script>"]
SEPS = [" ", " ", " ", "\n", ". ", ", ", "\t", "\n\n"]


@st.composite
def texts(draw, max_words=25):
    parts = []
    for _ in range(draw(st.integers(0, max_words))):
        parts += [draw(st.sampled_from(WORDS)), draw(st.sampled_from(SEPS))]
    return "".join(parts)


# --- rouge-score's arithmetic, written out (the oracle) ---------------------------

def rouge_score_prf(kind, hits, target_count, prediction_count):
    """P/R/F as rouge-score 0.1.2 computes them from the counts."""
    if kind in ("rougeL", "rougeLsum"):
        if not target_count or not prediction_count:
            return 0, 0, 0           # its int zeros
        p, r = hits / prediction_count, hits / target_count
    else:
        p, r = hits / max(prediction_count, 1), hits / max(target_count, 1)
    return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


def same(a, b):
    return tuple(a) == tuple(b) and [type(x) for x in a] == [type(x) for x in b]


def check_explanation(explanations, scores, rouge_types=None):
    """Every property an explanation promises, against ``score()``'s result."""
    assert isinstance(explanations, Explanations)
    assert list(explanations) == list(rouge_types or scores)
    for rouge_type, e in explanations.items():
        assert e.rouge_type == rouge_type
        want = scores[rouge_type]
        assert same(e.score, want), (rouge_type, e.score, want)
        assert same(rouge_score_prf(rouge_type, e.hits, e.target_count, e.prediction_count),
                    want), (rouge_type, e.hits, e.target_count, e.prediction_count, want)
        assert len(e.matches) == e.hits
        tt, pt = e.target_tokens, e.prediction_tokens
        for m in e.matches:
            assert isinstance(m, Match)
            assert [tt[i].text for i in m.target] == [pt[j].text for j in m.prediction]
        if rouge_type == "rougeLsum":
            assert e.target_count == len(tt) and e.prediction_count == len(pt)
            # each target token counted once, and sentence indices in order
            assert len({m.target for m in e.matches}) == e.hits
            for toks in (tt, pt):
                sentences = [t.sentence for t in toks]
                assert sentences == sorted(sentences) and None not in sentences
        elif rouge_type == "rougeL":
            assert e.target_count == len(tt) and e.prediction_count == len(pt)
            ti = [m.target[0] for m in e.matches]
            pi = [m.prediction[0] for m in e.matches]
            assert all(a < b for a, b in zip(ti, ti[1:]))
            assert all(a < b for a, b in zip(pi, pi[1:]))
        else:
            n = int(rouge_type[5:])
            assert e.target_count == max(len(tt) - n + 1, 0)
            assert e.prediction_count == max(len(pt) - n + 1, 0)
            for m in e.matches:
                assert m.target == tuple(range(m.target[0], m.target[0] + n))
                assert m.prediction == tuple(range(m.prediction[0], m.prediction[0] + n))
            # an occurrence is used by one match at most
            assert len({m.target for m in e.matches}) == e.hits
            assert len({m.prediction for m in e.matches}) == e.hits
        for toks, text in ((tt, e.target), (pt, e.prediction)):
            for t in toks:
                assert isinstance(t, Token)
                if t.start is not None:
                    assert 0 <= t.start < t.end <= len(text)


def check_default_spans(explanations, use_stemmer):
    """With the default tokenizer every token has a span, the spans are in
    order, and the span's word gives the token by the tokenizer's rules."""
    stemmer = SCORERS[True]._tokenizer._stemmer if use_stemmer else None
    for e in explanations.values():
        for toks, text in ((e.target_tokens, e.target), (e.prediction_tokens, e.prediction)):
            ends = [0]
            for t in toks:
                assert t.start is not None and t.start >= ends[-1], (t, text)
                ends.append(t.end)
                word = text[t.start:t.end]
                if word.isascii() and not use_stemmer:
                    assert word.lower() == t.text
                else:
                    assert t.text in rouge_tokenize(word, stemmer), (word, t)


def check_pair(target, prediction, use_stemmer):
    scorer = SCORERS[use_stemmer]
    got = scorer.explain(target, prediction)
    check_explanation(got, scorer.score(target, prediction))
    check_default_spans(got, use_stemmer)
    return got


# --- parity on the shared corpus and on hypothesis texts ------------------------

@pytest.mark.parametrize("use_stemmer", STEMMING)
def test_corpus_pairs(corpus_pairs, use_stemmer):
    for pair in corpus_pairs(sweep(200, 60), 23):
        for reference in pair["references"][:2]:
            check_pair(reference, pair["candidate"], use_stemmer)


@pytest.mark.parametrize("use_stemmer", STEMMING)
def test_module_function_equals_the_scorer(corpus_pairs, use_stemmer):
    options = ScoringOptions(rouge_types=TYPES, use_stemmer=use_stemmer)
    for pair in corpus_pairs(sweep(40, 15), 5):
        target, prediction = pair["references"][0], pair["candidate"]
        ours = explain(target, prediction, options=options)
        assert ours == SCORERS[use_stemmer].explain(target, prediction)
        assert ours == explain(target, prediction, TYPES, use_stemmer=use_stemmer)


@SETTINGS
@given(texts(), texts(), st.booleans())
def test_hypothesis_pairs(target, prediction, use_stemmer):
    check_pair(target, prediction, use_stemmer)


@SETTINGS
@given(texts(12), texts(12))
def test_lcs_is_rouge_scores_backtrack(target, prediction):
    """The rougeL alignment's target positions are rouge-score's own
    ``_backtrack_norec`` on its ``_lcs_table``."""
    e = explain(target, prediction, ["rougeL"])["rougeL"]
    t = [tok.text for tok in e.target_tokens]
    p = [tok.text for tok in e.prediction_tokens]
    expected = ref_rouge_scorer._backtrack_norec(ref_rouge_scorer._lcs_table(t, p), t, p) \
        if t and p else []
    assert [m.target[0] for m in e.matches] == expected


# --- edge cases ------------------------------------------------------------------------

EDGE_PAIRS = [
    ("", ""), ("", "the cat"), ("the cat", ""), ("   ", "\n\n"), ("!!! ...", "???"),
    ("the the the", "the"), ("the", "the the the"), ("a b a b a b", "a b a b"),
    ("a b", "b a"), ("a b c a b", "b a c b a"), ("a b\nb a", "b a\na b"),
    ("a b c d e\nc d e a b", "a b\nc d e\ne d c b a"), ("the the\nthe cat the", "the the the\ncat"),
    ("!!\n??\nthe cat", "the cat\n???"), ("\nthe cat sat\n", "the cat\n"),
    ("the cat\r\n\r\nsat", "sat\r\nthe cat"),
    ("\u0130stanbul \u212aelvin ko", "istanbul kelvin"),
    ("caf\u00e9 na\u00efve r\u00e9sum\u00e9", "cafe naive resume"),
    ("Running runs ran runner", "run running"),
    ("\u039f\u0394\u039f\u03a3 \u03a3 word", "word"),   # Greek: final sigma
]


@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("target,prediction", EDGE_PAIRS + [(a, b) for a in EDGE_TEXTS[:5]
                                                             for b in EDGE_TEXTS[5:]])
def test_edge_cases(target, prediction, use_stemmer):
    check_pair(target, prediction, use_stemmer)
    check_pair(prediction, target, use_stemmer)


def test_empty_texts_have_nothing_to_show():
    e = explain("", "...", ALL_TYPES)
    for x in e.values():
        assert (x.hits, x.target_count, x.prediction_count, x.matches) == (0, 0, 0, ())
        assert x.target_tokens == x.prediction_tokens == ()
    assert e["rougeL"].score == (0, 0, 0) and type(e["rougeL"].score.fmeasure) is int
    assert type(e["rouge1"].score.fmeasure) is float


def test_repeated_ngrams_pair_in_order():
    """The i-th occurrence in the target goes with the i-th in the prediction."""
    e = explain("a b x a b y a b", "a b a b", ["rouge2"])["rouge2"]
    assert e.matches == (Match((0, 1), (0, 1)), Match((3, 4), (2, 3)))
    assert (e.hits, e.target_count, e.prediction_count) == (2, 7, 3)


def test_lcs_tie_and_summary_union():
    e = explain("a b", "b a", ["rougeL"])["rougeL"]
    assert e.matches == (Match((0,), (1,)),)          # rouge-score's backtrack: "a"
    # per target sentence, the union of its LCS with each prediction sentence
    # (rouge-score's _union_lcs gives [0, 1, 2] and [0, 1]); a target token
    # goes with its partner in the first prediction sentence that aligns it
    lsum = explain("a b c\nc a", "a c\nb c a", ["rougeLsum"])["rougeLsum"]
    assert [t.sentence for t in lsum.target_tokens] == [0, 0, 0, 1, 1]
    assert lsum.matches == (Match((0,), (0,)), Match((1,), (2,)), Match((2,), (1,)),
                            Match((3,), (1,)), Match((4,), (4,)))
    # clipping: three "the" in the target, two in the prediction; the union
    # of the first sentence is its last "the", and both go with the
    # prediction's first (the clipping counts tokens, not positions)
    clipped = explain("the the\nthe", "the\nthe", ["rougeLsum"])["rougeLsum"]
    assert clipped.matches == (Match((1,), (0,)), Match((2,), (0,)))


def test_stemmed_tokens_span_their_whole_word():
    e = explain("Cats were RUNNING!", "a cat ran", ["rouge1"], use_stemmer=True)["rouge1"]
    assert [(t.text, e.target[t.start:t.end]) for t in e.target_tokens] == \
        [("cat", "Cats"), ("were", "were"), ("run", "RUNNING")]
    assert e.matches == (Match((0,), (1,)),)


def test_newlines_and_sentences_keep_their_offsets():
    text = "First line here.\n\nSecond, line!\nthird"
    e = explain(text, "second line", ["rougeLsum", "rouge1"])
    for x in e.values():
        assert [text[t.start:t.end] for t in x.target_tokens] == \
            ["First", "line", "here", "Second", "line", "third"]
    # sentences are counted among the non-empty ones, as rougeLsum reads them
    assert [t.sentence for t in e["rougeLsum"].target_tokens] == [0, 0, 0, 1, 1, 2]
    assert e["rouge1"].target_tokens[0].sentence is None


def test_non_ascii_spans_follow_the_lowercasing():
    text = "\u0130stanbul \u212aelvin"         # İ lowercases to two characters
    e = explain(text, "stanbul kelvin", ["rouge1"])["rouge1"]
    assert [(t.text, text[t.start:t.end]) for t in e.target_tokens] == \
        [("i", "\u0130"), ("stanbul", "stanbul"), ("kelvin", "\u212aelvin")]


def test_bytes_are_explained_as_their_text():
    target = "caf\u00e9 au lait".encode()
    e = explain(target, b"cafe", ["rouge1", "rougeLsum"])
    assert e["rouge1"].target == "caf\u00e9 au lait"
    check_explanation(e, RougeScorer(["rouge1", "rougeLsum"]).score(target, b"cafe"))


@pytest.mark.parametrize("target,prediction,message", [
    (b"\xff cat", "cat", "target is not UTF-8: invalid byte at offset 0"),
    ("cat", b"the cat \xc3", "prediction is not UTF-8: invalid byte at offset 8"),
    (b"caf\xc3\xa9 \xe9t\xe9", b"\xff", "target is not UTF-8: invalid byte at offset 6"),
])
@pytest.mark.parametrize("rouge_types", [["rouge1"], ["rougeLsum"], ALL_TYPES])
def test_undecodable_bytes_name_the_argument(target, prediction, message, rouge_types):
    for call in (lambda: explain(target, prediction, rouge_types),
                 lambda: RougeScorer(rouge_types).explain(target, prediction)):
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == message


# --- lang= and other tokenizers -----------------------------------------------------------

LANG_PAIRS = [("लड़कियाँ स्कूल जाती हैं। लड़के भी।", "लड़की स्कूल जाती है"),
              ("Москва — столица России, 2024 г.\nПривет мир", "столица россии мир"),
              ("", "мир")]


@pytest.mark.parametrize("lang", ["hindi", "other"])
@pytest.mark.parametrize("use_stemmer", STEMMING)
@pytest.mark.parametrize("target,prediction", LANG_PAIRS)
def test_lang(lang, use_stemmer, target, prediction):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # "other" has no stemmer
        scorer = RougeScorer(TYPES, use_stemmer=use_stemmer, lang=lang)
    e = scorer.explain(target, prediction)
    check_explanation(e, scorer.score(target, prediction))
    tok = scorer._tokenizer
    for x in e.values():
        for toks, text in ((x.target_tokens, x.target), (x.prediction_tokens, x.prediction)):
            for t in toks:
                assert t.start is not None
                assert tok.tokenize(text[t.start:t.end]) == [t.text]


class Upper:
    """Tokens the text does not hold as written: found lowercased."""

    def tokenize(self, text):
        return text.upper().split()


class Tagged:
    """Tokens that are nowhere in the text: no spans."""

    def tokenize(self, text):
        return ["w:" + w for w in text.split()]


class Ids:
    """Non-str tokens: no spans."""

    def tokenize(self, text):
        return [len(w) for w in text.split()]


class Lists:
    """Unhashable tokens: rougeL compares them with ==, rougeN cannot count them."""

    def tokenize(self, text):
        return [[w] for w in text.split()]


@pytest.mark.parametrize("tokenizer,spans", [
    ("whitespace", True), ("unicode", True), ("char", True), (Upper(), True),
    (Tagged(), False), (Ids(), False)])
def test_custom_tokenizers(tokenizer, spans):
    target, prediction = "The cat  sat.\nOn the mat", "the Cat sat on a mat"
    options = ScoringOptions(rouge_types=TYPES, tokenizer=tokenizer)
    e = explain(target, prediction, options=options)
    scores = score_corpus([prediction], [target], options=options).per_item[0]
    check_explanation(e, scores)
    scorer = RougeScorer(TYPES, tokenizer=options.tokenizer_object)
    check_explanation(scorer.explain(target, prediction), scorer.score(target, prediction))
    for x in e.values():
        for toks, text in ((x.target_tokens, x.target), (x.prediction_tokens, x.prediction)):
            for t in toks:
                if spans:
                    assert text[t.start:t.end].lower() == str(t.text).lower()
                else:
                    assert t.start is None and t.end is None


def test_unhashable_tokens_as_score_handles_them():
    scorer = RougeScorer(["rougeL"], tokenizer=Lists())
    e = scorer.explain("a b c", "a c")
    check_explanation(e, scorer.score("a b c", "a c"))
    assert e["rougeL"].target_tokens[0] == Token(["a"], None, None)
    with pytest.raises(TypeError):
        RougeScorer(["rouge1"], tokenizer=Lists()).explain("a", "a")


def test_sentence_split_rules():
    pytest.importorskip("sentencex")
    text = "The cat sat. The dog ran! Birds fly."
    scorer = RougeScorer(["rougeLsum"], sentence_split="sentencex")
    e = scorer.explain(text, "the dog sat. birds fly")
    check_explanation(e, scorer.score(text, "the dog sat. birds fly"))
    assert [t.sentence for t in e["rougeLsum"].target_tokens] == [0, 0, 0, 1, 1, 1, 2, 2]
    assert all(t.start is not None for t in e["rougeLsum"].target_tokens)


def test_nltk_sentences(punkt_data):
    scorer = RougeScorer(["rougeLsum"], split_summaries=True)
    text = "The cat sat. The dog ran!  Birds fly."
    scores = scorer.score(text, "the dog sat. birds fly")
    e = scorer.explain(text, "the dog sat. birds fly")
    check_explanation(e, scores)
    assert [t.sentence for t in e["rougeLsum"].target_tokens] == [0, 0, 0, 1, 1, 1, 2, 2]
    assert [text[t.start:t.end] for t in e["rougeLsum"].target_tokens][-2:] == ["Birds", "fly"]


def test_errors_are_scores():
    with pytest.raises(ValueError, match="rouge0"):
        RougeScorer(["rouge0"]).explain("a", "a")
    with pytest.raises(TypeError, match="target"):
        RougeScorer(["rouge1"]).explain(None, "a")
    with pytest.raises(TypeError, match="unexpected keyword argument 'use_stemer'"):
        explain("a", "a", use_stemer=True)
    with pytest.raises(ValueError, match="not both: use_stemmer"):
        explain("a", "a", options=ScoringOptions(), use_stemmer=True)


# --- what is shown ------------------------------------------------------------------------

def test_highlighting_marks_matched_runs():
    e = explain("The cat sat on the mat.\nRunning dogs!", "the cat is on a mat", ["rouge1"])
    # one "the" in the prediction: the target's first "The" is its match
    assert e["rouge1"].highlighted("target", "[", "]") == \
        "[The cat] sat [on] the [mat].\nRunning dogs!"
    assert e["rouge1"].highlighted("prediction", "<", ">") == "<the cat> is <on> a <mat>"
    with pytest.raises(ValueError, match="side"):
        e["rouge1"].segments("reference")


def test_to_dict_is_json_of_the_explanation():
    import json
    e = explain("a cat", "the cat", ["rouge1", "rougeL"])
    data = json.loads(e.to_json())
    assert list(data) == ["target", "prediction", "explanations"]
    one = data["explanations"]["rouge1"]
    assert list(one) == ["precision", "recall", "fmeasure", "hits", "target_count",
                         "prediction_count", "target_tokens", "prediction_tokens", "matches"]
    assert one["matches"] == [{"target": [1], "prediction": [1]}]
    assert one["target_tokens"][1] == {"text": "cat", "start": 2, "end": 5, "sentence": None}


def test_html_of_an_explanation_escapes_the_texts():
    e = explain("<script>alert(1)</script> cat & dog", "cat <b>dog</b>", ["rouge1", "rougeL"])
    for page in (e._repr_html_(), e["rouge1"]._repr_html_()):
        assert "<script>" not in page and "<b>" not in page
        assert html.escape("<script>") in page
        ET.fromstring(page)                              # well-formed
    assert "<mark>cat</mark>" in e._repr_html_()


def test_html_of_a_corpus_result():
    result = score_corpus(["the cat sat", "a dog"], [["the cat"], ["the dog"]],
                          bootstrap=20, seed=1)
    page = result._repr_html_()
    ET.fromstring(page)
    assert "2 items" in page and html.escape(result.signature) in page
    assert f"{result.scores['rouge1'].fmeasure:.4f}" in page and "interval" in page
    odd = type(result)(scores={"<script>x</script>": result.scores["rouge1"]},
                       intervals=None, per_item=None, n_items=1, signature="<script>")
    assert "<script>" not in odd._repr_html_()
    ET.fromstring(odd._repr_html_())


# --- the command line: rougekit explain ---------------------------------------------------

TARGET = "The cat sat on the mat.\nDogs <b>run</b>!"
PREDICTION = "the cat is on a mat; a dog runs"


def run_cli(*args, env=None):
    """``rougekit explain`` with stdout on a pipe."""
    import subprocess
    import sys

    from _helpers import child_env
    return subprocess.run([sys.executable, "-m", "rougekit", "explain", *args],
                          capture_output=True, text=True, timeout=120,
                          env=child_env(**(env or {})))


def run_cli_on_pty(*args, env=None, unset=()):
    """``rougekit explain`` with stdout on a pseudo-terminal: (exit code, output)."""
    import sys
    pytest.importorskip("pty")                    # POSIX only

    from _helpers import child_env, run_on_terminal
    environ = child_env(**(env or {}))
    for name in unset:
        environ.pop(name, None)
    return run_on_terminal([sys.executable, "-m", "rougekit", "explain", *args], "stdout",
                           env=environ, timeout=60)


def expected_lines(types, use_stemmer=False):
    """The first line of each type's block, from the library."""
    e = explain(TARGET, PREDICTION, types, use_stemmer=use_stemmer)
    return [f"{t}  P {x.score.precision:.4f}  R {x.score.recall:.4f}  "
            f"F {x.score.fmeasure:.4f}  ({x.hits} hits; {x.prediction_count} in "
            f"prediction, {x.target_count} in target)" for t, x in e.items()]


def test_cli_through_a_pipe_marks_matches_with_brackets():
    proc = run_cli("--target", TARGET, "--prediction", PREDICTION, "--stemmer")
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout
    lines = proc.stdout.splitlines()
    heads = [line for line in lines if line.startswith("rouge") and " P " in line]
    assert heads == expected_lines(["rouge1", "rouge2", "rougeL", "rougeLsum"], True)
    assert lines[1] == "  target:     [The cat] sat [on] the [mat]."
    assert lines[2] == "              [Dogs] <b>[run]</b>!"
    assert lines[3] == "  prediction: [the cat] is [on] a [mat]; a [dog runs]"
    assert lines[-1].startswith("rougekit:") and "|stem:porter|" in lines[-1]


def test_cli_on_a_terminal_uses_colour():
    code, out, err = run_cli_on_pty("--target", TARGET, "--prediction", PREDICTION,
                                    "--rouge-types", "rouge1", unset=["NO_COLOR"])
    assert code == 0, err
    assert "\x1b[1;32mThe cat\x1b[0m sat" in out
    assert "[The cat]" not in out
    assert "\x1b[1mrouge1\x1b[0m  P " in out


@pytest.mark.parametrize("value", ["1", "0", "no"])
def test_cli_on_a_terminal_with_no_color_has_none(value):
    code, out, err = run_cli_on_pty("--target", TARGET, "--prediction", PREDICTION,
                                    "--rouge-types", "rouge1", env={"NO_COLOR": value})
    assert code == 0, err
    assert "\x1b" not in out
    assert out.splitlines()[:2] == [expected_lines(["rouge1"])[0],
                                    "  target:     [The cat] sat [on] the [mat]."]


def test_cli_empty_no_color_is_unset():
    """no-color.org: NO_COLOR counts when present and not empty."""
    code, out, err = run_cli_on_pty("--target", TARGET, "--prediction", PREDICTION,
                                    "--rouge-types", "rouge1", env={"NO_COLOR": ""})
    assert code == 0, err
    assert "\x1b[1;32m" in out


def test_cli_json_is_the_explanation():
    import json
    types = ["rouge2", "rougeLsum"]
    proc = run_cli("--target", TARGET, "--prediction", PREDICTION, "--rouge-types",
                   ",".join(types), "--format", "json", "--tokenizer", "unicode")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    options = ScoringOptions(rouge_types=types, tokenizer="unicode")
    expected = explain(TARGET, PREDICTION, options=options).to_dict()
    assert data == {**expected, "signature": options.signature(aggregation="none")}
    assert list(data["explanations"]) == types


def test_cli_lang():
    import json
    proc = run_cli("--target", "लड़कियाँ स्कूल जाती हैं", "--prediction", "लड़की स्कूल",
                   "--lang", "hindi", "--stemmer", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["explanations"]["rouge1"]["target_tokens"][0] == \
        {"text": "लड़क", "start": 0, "end": 8, "sentence": None}
    assert "|lang:hindi|" in data["signature"]


@pytest.mark.parametrize("args,fragment", [
    (["--rouge-types", "rouge0"], "unknown rouge type 'rouge0'"),
    (["--lang", "klingon"], "unknown language 'klingon'"),
    (["--format", "xml"], "invalid choice: 'xml'"),
    (["--tokenizer", "whitespace", "--lang", "hindi"], "give --lang or --tokenizer, not both"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args, fragment):
    proc = run_cli("--target", "a", "--prediction", "b", *args)
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert fragment in proc.stderr


def test_cli_needs_both_texts():
    proc = run_cli("--target", "a")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "--prediction" in proc.stderr
