"""The compiled default path (tokenizer, engine, score_batch) against
rouge-score, aimed at its internal boundaries: token counts around 64 and
512 (one-word and table paths of the LCS kernels), every code point through
the C tokenizer, and score_batch equal to score."""
import importlib
import os
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer
from rouge_score import tokenize as ref_tokenize

from _helpers import assert_same_scores, examples, sweep, x86_64_v3_loops
from rougekit import BACKEND, rouge_scorer

pytestmark = [pytest.mark.kernel, pytest.mark.simd]

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]


def compiled(name):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if os.environ.get("ROUGEKIT_REQUIRE_EXTENSIONS", "") not in ("", "0"):
            pytest.fail(f"{name} required but not importable: {exc}")
        pytest.skip(f"{name} not built: {exc}")


def text(rng, n, words, sentence_every=0):
    out = []
    for i in range(n):
        out.append(rng.choice(words))
        if sentence_every and i % sentence_every == sentence_every - 1:
            out.append("\n")
    return " ".join(out).replace(" \n ", "\n")


@pytest.mark.parametrize("n_target,n_pred", [
    (1, 1), (63, 64), (64, 64), (64, 65), (65, 130), (128, 129), (200, 7),
    (511, 512), (512, 513), (600, 40),
])
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_boundaries_match_rouge_score(n_target, n_pred, use_stemmer):
    rng = random.Random(n_target * 1000 + n_pred)
    words = ["the", "cats", "sat", "on", "mats", "running", "a", "dog", "Ran", "far", "7"]
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    theirs = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    for every in (0, 10, 70):     # one sentence; short ones; around 64 tokens
        t = text(rng, n_target, words, every)
        p = text(rng, n_pred, words, every)
        assert_same_scores(ours.score(t, p), theirs.score(t, p), f"{n_target}x{n_pred}/{every}")


@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_predictions_through_the_character_loop_match_rouge_score(use_stemmer):
    """A text with "İ" goes through the tokenizer's character loop, which, for
    a prediction, reads each token's number once the target's numbering is
    closed: tokens the target has, tokens it lacks (one number for them
    all), repeats and stems, with "İ" in either text or both."""
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    theirs = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    rng = random.Random(26)
    shared = ["the", "cats", "running", "sat", "\u0130stanbul"]
    target_only = ["mats", "dog", "ran"]
    prediction_only = ["owls", "flying", "zebras", "\u0130zmir", "runs"]
    for _ in range(examples(200)):
        t = text(rng, rng.randrange(0, 30), shared + target_only, rng.choice([0, 5]))
        p = text(rng, rng.randrange(0, 30), shared + prediction_only, rng.choice([0, 5]))
        for a, b in ((t, p + " \u0130"), (t + " \u0130", p + " \u0130"), (t + " \u0130", p)):
            assert_same_scores(ours.score(a, b), theirs.score(a, b), repr((a, b)))


@pytest.mark.parametrize("types", [["rouge1"], ["rouge2"], ["rougeL"],
                                   ["rouge1", "rouge2", "rougeL"], ["rougeLsum"]])
def test_texts_of_many_lines_without_rouge_lsum(types):
    # Without rougeLsum the engine reads each text as one run of words (no
    # sentence breaks): newlines anywhere, runs of them, a word cut by one at
    # a 64-character block's edge, still give rouge-score's numbers.
    rng = random.Random(len(types))
    words = ["the", "cats", "sat", "on", "mats", "running", "a", "dog", "Ran", "far", "7"]
    ours = rouge_scorer.RougeScorer(types)
    theirs = ref_rouge_scorer.RougeScorer(types)
    pairs = [("\n".join("abc " * 15 + "d" for _ in range(4)), "abc d\n" * 9),
             ("\n\n\n", "a\nb"), ("a" * 63 + "\n" + "b" * 70, "b" * 70 + "\n" + "a" * 63)]
    for n in (5, 40, 130):
        pairs.append((text(rng, n, words, 3), text(rng, n + 7, words, 1)))
    for t, p in pairs:
        assert_same_scores(ours.score(t, p), theirs.score(t, p), repr((t[:20], p[:20])))
        assert ours.score_batch([t, p], [p, t]) == [theirs.score(t, p), theirs.score(p, t)]


def test_every_code_point_tokenizes_as_rouge_score():
    tok = compiled("rougekit._core._tokenizer")
    # Each code point between two letters: how lower() treats it decides
    # whether it joins, splits or adds to the tokens (only U+0130 and U+212A
    # lower to ASCII in current Unicode; this checks the running Python's).
    # Under the sanitizers every third code point, and the two that lower to
    # ASCII (the reference tokenizer's regexes are most of the cost there).
    step = sweep(1, 1, sanitized=3)
    chars = [chr(c) for c in sorted({*range(0, sys.maxunicode + 1, step), 0x130, 0x212A})
             if c != 10]
    for start in range(0, len(chars), 65536):
        s = "".join("a" + c + "b " for c in chars[start:start + 65536])
        assert tok.tokenize(s, False) == ref_tokenize.tokenize(s, None)


@pytest.mark.parametrize("v3", [True, False], ids=["x86-64-v3", "baseline"])
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_words_of_every_length_across_blocks_and_chunks(use_stemmer, v3):
    # The scanner reads word starts and ends per 64-character block, 16
    # blocks (1,024 characters) at a time, as offsets from the chunk's first
    # character (a word that runs into the next chunk keeps its start,
    # rebased there), and hashes and compares a word of up to 16 characters
    # as two 8-byte chunks, longer ones byte by byte: words of 1 to 40
    # characters at every offset, with sentence breaks, over several chunks;
    # words that share their first 8 or 16 characters, or are prefixes of
    # each other, must stay apart. Both the AVX2 word bounds (a byte at a
    # time) and the portable ones.
    from rouge_score import tokenizers as ref_tokenizers
    tok = compiled("rougekit._core._tokenizer")
    ref = ref_tokenizers.DefaultTokenizer(use_stemmer=use_stemmer)
    rng = random.Random(26)
    stem = "abcdefghijklmnopqrstuvwxyzabcdefghijklmn"
    for shift in range(0, 64, 5):
        parts, size = [" " * shift], shift
        while size < 3 * 1024 + 100:
            n = rng.randint(1, 40)
            word = stem[:n] if rng.random() < 0.5 else "".join(
                rng.choice("abcXYZ019") for _ in range(n))
            sep = rng.choice([" ", " ", ". ", "\n", " \n\n ", "-"])
            parts.append(word + sep)
            size += len(word) + len(sep)
        text = "".join(parts)
        expected = [toks for line in text.split("\n") if (toks := ref.tokenize(line))]
        with x86_64_v3_loops(tok, v3):
            assert tok.sentences(text, use_stemmer) == expected, shift


@pytest.mark.parametrize("v3", [True, False], ids=["x86-64-v3", "baseline"])
def test_every_pattern_of_eight_characters(v3):
    """Each of the 256 patterns of word and non-word characters over 8
    characters, at a multiple of 8 and shifted by 1 to 7: the word bounds
    read a byte of the bitmap at a time (the AVX2 loop looks each byte up in
    a table) meet every byte value, after a word character or not."""
    from rouge_score import tokenizers as ref_tokenizers
    tok = compiled("rougekit._core._tokenizer")
    ref = ref_tokenizers.DefaultTokenizer(use_stemmer=False)
    letters = "abcdefgh"
    groups = "".join("".join(letters[i] if b >> i & 1 else " " for i in range(8))
                     for b in range(256))
    with x86_64_v3_loops(tok, v3):
        for shift in range(8):
            for lead in ("", "x"):
                text = lead + " " * shift + groups + groups[::-1]
                assert tok.tokenize(text, False) == ref.tokenize(text), (shift, lead)


@pytest.mark.parametrize("shared", [8, 16])
def test_many_words_that_differ_only_after_their_first_chunks_stay_apart(shared):
    # Words of one length that share their first 8 (or 16) characters
    # differ only in a later chunk: thousands of them fill the hash table,
    # so lookups probe past each other's slots, where everything but the
    # later chunk matches (and the table is rehashed as it grows).
    tok = compiled("rougekit._core._tokenizer")
    letters = "abcdefghijklmnopqrstuvwxyz0123456789"
    head = "commonprefixword"[:shared]
    words = [head + a + b + c for a in letters[:12] for b in letters for c in letters[:8]]
    random.Random(8).shuffle(words)
    text = " ".join(words + words[::-1])
    assert tok.tokenize(text, False) == words + words[::-1]


def test_a_stem_met_first_is_stemmed_again_as_a_word():
    # "abuse" stems to "abus", which is interned as a stem; "abus" met later
    # as a word of 4 letters is stemmed itself ("abu"), not numbered as is
    # (only words of up to 3 letters are their own stems).
    types = ["rouge1", "rouge2", "rougeL"]
    ours = rouge_scorer.RougeScorer(types, use_stemmer=True)
    ref = ref_rouge_scorer.RougeScorer(types, use_stemmer=True)
    for target, prediction in [("abuse agree cause", "x"), ("abus agre caus", "abu agr cau"),
                               ("abus the", "abu the"), ("agre abus", "abused")]:
        assert ours.score(target, prediction) == ref.score(target, prediction)


@pytest.mark.threads
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_score_batch_equals_score(corpus_pairs, threads):
    pairs = corpus_pairs(400, 5)
    targets = [p["references"][0] for p in pairs]
    preds = [p["candidate"] for p in pairs]
    # Non-str items mixed in take the Python path inside the batch.
    targets[7] = targets[7].encode("utf-8")
    for stem in (False, True):
        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        batch = scorer.score_batch(targets, preds, threads=threads)
        assert batch == [scorer.score(t, p) for t, p in zip(targets, preds)]
        assert [type(v.precision) for d in batch for v in d.values()] == \
            [type(v.precision) for t, p in zip(targets, preds)
             for v in scorer.score(t, p).values()]


@pytest.mark.threads
def test_score_batch_arguments():
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    with pytest.raises(ValueError, match="differ in length: 2 and 1"):
        scorer.score_batch(["a", "b"], ["a"])
    with pytest.raises(TypeError, match="threads must be an int"):
        scorer.score_batch(["a"], ["a"], threads=1.5)
    with pytest.raises(ValueError, match="threads must be >= 1"):
        scorer.score_batch(["a"], ["a"], threads=0)
    with pytest.raises(TypeError, match="targets must be a list of texts"):
        scorer.score_batch("a", ["a"])
    assert scorer.score_batch([], []) == []


def test_engine_used_for_every_tokenizer_that_behaves_as_the_default():
    from rougekit import tokenizers, word_tokenizers
    engine_module = "rougekit._core._engine" + ("" if BACKEND == "compiled" else "_py")
    for use_stemmer in (False, True):
        for tokenizer in (None, tokenizers.DefaultTokenizer(use_stemmer),
                          word_tokenizers.RougeScoreTokenizer(use_stemmer),
                          word_tokenizers.get_tokenizer("rouge-score", use_stemmer=use_stemmer)):
            scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=use_stemmer,
                                              tokenizer=tokenizer)
            assert type(scorer._pairs.engine).__module__ == engine_module, tokenizer
            assert scorer._pairs.use_stemmer is use_stemmer

    class Overriding(tokenizers.DefaultTokenizer):
        def tokenize(self, text):
            return super().tokenize(text)[::-1]

    class Restemmed(tokenizers.DefaultTokenizer):
        def __init__(self):
            super().__init__(False)
            self._stemmer = type("S", (), {"stem": staticmethod(lambda w: w[:2])})()

    for other in (type("T", (), {"tokenize": staticmethod(lambda s: s.split())})(),
                  Overriding(), Restemmed()):
        assert rouge_scorer.RougeScorer(["rouge1"], tokenizer=other)._pairs.engine is None, other
    assert rouge_scorer.RougeScorer(["rouge1"], tokenizer=Restemmed()).score(
        "abcd abxx", "abyy")["rouge1"].fmeasure == 0.6666666666666666


@pytest.mark.threads
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_score_multi_batch_equals_score_multi(corpus_pairs, use_stemmer):
    pairs = corpus_pairs(300, 17)
    targets_list = [p["references"] for p in pairs]
    preds = [p["candidate"] for p in pairs]
    assert any(len(t) > 1 for t in targets_list)
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    batch = scorer.score_multi_batch(targets_list, preds, threads=2)
    assert batch == [scorer.score_multi(t, p) for t, p in zip(targets_list, preds)]
    ref = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    for got, t, p in list(zip(batch, targets_list, preds))[:60]:
        assert_same_scores(got, ref.score_multi(t, p))


def test_score_multi_batch_arguments():
    scorer = rouge_scorer.RougeScorer(["rouge1"])
    with pytest.raises(ValueError, match=r"targets_list\[1\] must contain at least one"):
        scorer.score_multi_batch([["a"], []], ["a", "b"])
    with pytest.raises(TypeError, match=r"targets_list\[0\] must be a list of texts"):
        scorer.score_multi_batch(["a"], ["a"])
    with pytest.raises(ValueError, match="differ in length"):
        scorer.score_multi_batch([["a"]], ["a", "b"])


class _Overrides(rouge_scorer.RougeScorer):
    def score(self, target, prediction):
        result = super().score(target, prediction)
        result["seen"] = True
        return result


def test_subclass_override_of_score_is_respected():
    s = _Overrides(["rouge1"])
    assert s.score("a b", "a")["seen"] is True
    assert s.score("a b", "a")["rouge1"] == rouge_scorer.RougeScorer(["rouge1"]).score("a b", "a")["rouge1"]


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_scorer_pickles_like_rouge_score(use_stemmer):
    # rouge-score's scorer pickles (multiprocessing sends it to workers).
    import pickle
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    scorer.score("warm the running cache", "the caches")
    clone = pickle.loads(pickle.dumps(scorer))
    ref = ref_rouge_scorer.RougeScorer(TYPES, use_stemmer=use_stemmer)
    for t, p in [("The cats were running.\nFast!", "a cat ran fast"), ("", "x"), (b"bytes in", "in")]:
        assert_same_scores(clone.score(t, p), ref.score(t, p))
    assert clone.score_batch(["a b"], ["b a"]) == scorer.score_batch(["a b"], ["b a"])
    assert (clone._pairs.engine is not None) == (scorer._pairs.engine is not None)


def test_import_needs_neither_nltk_nor_rouge_score():
    # Runtime dependencies stay few: scoring (stemming included) must not
    # import nltk or rouge-score; only split_summaries=True uses nltk.
    import subprocess
    code = ("import sys, rougekit\n"
            "from rougekit import rouge_scorer\n"
            "rouge_scorer.RougeScorer(['rouge1', 'rougeLsum'], use_stemmer=True)"
            ".score('The cats ran.', 'A cat runs.')\n"
            "print(sorted(m for m in ('nltk', 'rouge_score') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


needs_engine = pytest.mark.skipif(BACKEND != "compiled",
                                  reason="the compiled engine is not in use")


@needs_engine
def test_engine_results_are_left_to_refcounting_until_they_need_the_gc():
    """The engine creates Scores (three numbers) untracked by the cyclic GC,
    as CPython does for a tuple of numbers, and on 3.13 and before also the
    result dict. Anything that could make a cycle tracks them again."""
    import gc
    import sysconfig
    import weakref
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    result = scorer.score("the cat sat", "the cat")
    score = result["rouge1"]
    # With the GIL disabled Scores stay tracked: re-tracking on demand would
    # race between threads.
    assert gc.is_tracked(score) == free_threaded
    if sys.version_info < (3, 14) and not free_threaded:
        assert not gc.is_tracked(result)
        result["mine"] = []            # CPython re-tracks a dict given a container
        assert gc.is_tracked(result)

    # An attribute may refer to anything: the Score is tracked first, so a
    # cycle through its __dict__ is collected.
    class Canary:
        pass
    canary = Canary()
    gone = weakref.ref(canary)
    score.itself = score
    score.canary = canary
    assert gc.is_tracked(score)
    del canary, score, result
    gc.collect()
    assert gone() is None

    # and the numbers are rouge-score's, of rouge-score's types
    from rouge_score import rouge_scorer as reference
    want = reference.RougeScorer(["rouge1", "rougeL"]).score("the cat sat", "the cat")
    got = scorer.score("the cat sat", "the cat")
    assert got == want
    assert [type(v) for v in got.values()] == [rouge_scorer.scoring.Score] * 2


@needs_engine
def test_engine_scores_hash_and_compare_as_tuples():
    """The engine fills Score tuples itself; they must hash as tuples do (on
    3.14+ a tuple caches its hash, and a hand-made one must start with the
    cache empty), so sets and dict keys of scores work."""
    from rougekit.scoring import Score
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    got = scorer.score("the cat sat on the mat", "the cat sat")
    got.update(scorer.score_batch(["a b", ""], ["a b", "x"])[0])
    for score in list(got.values()) + list(scorer.score("", "x").values()):
        assert hash(score) == hash(tuple(score)) == hash(Score(*score))
        assert score in {Score(*score)} and tuple(score) in {score}
    assert len({scorer.score("a", "a")["rouge1"], Score(1.0, 1.0, 1.0)}) == 1


@needs_engine
def test_engine_keeps_its_own_keys():
    """The engine reads its result keys without bounds checks, so it holds a
    copy: emptying the list it was given cannot make it read past the end."""
    from rouge_score import rouge_scorer as reference

    from rougekit._core._engine import Cancel, Engine
    from rougekit.scoring import Score
    types = ["rouge1", "rouge2", "rougeL"]
    keys = list(types)
    engine = Engine([1, 2, -1], False, keys, Score, lambda t, p: {})
    keys.clear()
    want = reference.RougeScorer(types).score("a b c", "a c")
    assert engine.score("a b c", "a c") == want
    assert engine.score_range(["a b c"], ["a c"], Cancel()) == [want]


@needs_engine
def test_a_score_cls_that_does_not_opt_in_stays_tracked():
    import collections
    import gc

    from rougekit._core._engine import Engine
    Plain = collections.namedtuple("Plain", "precision recall fmeasure")
    engine = Engine([1], False, ["rouge1"], Plain, lambda t, p: {})
    got = engine.score("a b", "a")
    assert type(got["rouge1"]) is Plain and gc.is_tracked(got["rouge1"])


@needs_engine
def test_pair_numbering_survives_the_round_wrapping():
    """The engine numbers each pair's tokens densely through tags stamped with
    the pair's round (32 bits); when the round wraps, every tag is forgotten,
    or tokens of the pair scored in the old round 1 would keep stale
    numbers."""
    from rougekit._core._engine import KIND_L, KIND_LSUM, Engine
    from rougekit.scoring import Score
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    reference = ref_rouge_scorer.RougeScorer(types)
    pairs = [("the cat sat on the mat\nit was red", "a cat sat\non a red mat"),
             ("dogs bark at night", "the dog barks"),
             ("mat cat red sat on", "the cat sat on the mat\nred")]
    engine = Engine([1, 2, KIND_L, KIND_LSUM], False, types, Score, lambda t, p: None)
    assert engine.score(*pairs[0]) == reference.score(*pairs[0])    # round 1
    engine._set_round(2 ** 32 - 2)
    for target, prediction in pairs[1:] + pairs:        # the round wraps to 1
        assert engine.score(target, prediction) == reference.score(target, prediction)


@needs_engine
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_vocabulary_grows_past_the_sparse_table(use_stemmer):
    """The token table keeps a load of at most 1/8 below 65,536 slots (to
    4,096 tokens), 1/4 at 65,536 (to 16,384 tokens), then 1/2: one engine's
    vocabulary grows across those changes, and past 65,536 tokens, pair by
    pair and within one pair, with the same scores as rouge-score."""
    rng = random.Random(11)
    fresh = ("w%dx%s" % (i, rng.choice(["", "ing", "s", "ed"])) for i in range(10 ** 6))
    types = ["rouge1", "rouge2"]
    reference = ref_rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    sizes = []
    for n in (1000, 3000, 3000, 3000, 3000, 3000, 3000, 36000):
        target = " ".join(next(fresh) for _ in range(n)) + " the cat"
        prediction = " ".join(next(fresh) for _ in range(n // 3)) + " the cats"
        assert scorer.score(target, prediction) == reference.score(target, prediction)
        assert scorer.score(prediction, target) == reference.score(prediction, target)
        sizes.append(scorer._pairs.engine._vocab_size())
    assert sizes[0] < 4096 < sizes[2] < 16384 < sizes[-2] < 65536 < sizes[-1]


@pytest.mark.threads
@needs_engine
@pytest.mark.parametrize("use_stemmer", [False, True], ids=["plain", "stem"])
def test_vocabulary_restarts_with_the_same_scores(use_stemmer):
    """Past VOCAB_RESET distinct tokens an engine starts afresh (vocabulary,
    stem cache, id tables and kernel scratch freed): scores stay rouge-score's
    across restarts, including for a pair that itself exceeds the limit."""
    from rougekit._core._engine import _set_vocab_reset
    rng = random.Random(7)
    words = ["run", "running", "cats", "the", "happiness", "x1"] + [
        "w%d%s" % (i, s) for i in range(400) for s in ("", "ing", "s")]
    pairs = [(text(rng, rng.randrange(0, 80), words, 9), text(rng, rng.randrange(0, 60), words, 7))
             for _ in range(sweep(300, 120, sanitized=40))]
    pairs.append((" ".join(words), " ".join(reversed(words))))   # > limit alone
    pairs.append(("the cat", "the cats"))
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    reference = ref_rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    old = _set_vocab_reset(100)
    try:
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
        sizes = []
        expected = [reference.score(t, p) for t, p in pairs]
        for (t, p), want in zip(pairs, expected):
            assert scorer.score(t, p) == want
            sizes.append(scorer._pairs.engine._vocab_size())
        assert scorer.score_batch([t for t, _ in pairs], [p for _, p in pairs],
                                  threads=2) == expected
    finally:
        _set_vocab_reset(old)
    # it did restart: the size fell, and never grew past the limit plus a pair
    assert any(b < a for a, b in zip(sizes, sizes[1:]))
    assert max(sizes[:-2]) <= 100 + 2 * 80 * 2


def _sentences_without(text, empty):
    """rouge-score's stemmed tokens of each line that has any, the words of
    ``empty`` (more than 3 characters) given an empty stem: dropped."""
    from nltk.stem import porter
    stemmer = porter.PorterStemmer()
    out = []
    for line in text.lower().split("\n"):
        words = [w for w in ref_tokenize.tokenize(line, None)
                 if not (len(w) > 3 and w in empty)]
        toks = [stemmer.stem(w) if len(w) > 3 else w for w in words]
        if toks:
            out.append(toks)
    return out


@pytest.mark.parametrize("numbered", [False, True], ids=["ids", "numbered"])
@pytest.mark.parametrize("v3", [True, False], ids=["x86-64-v3", "baseline"])
def test_words_with_an_empty_stem_move_no_sentence_break(numbered, v3):
    """The bitmap scanner finds a text's sentences after its tokens, by
    counting the words before each newline, less the words that gave no
    token: an empty stem (a hook gives some words one; the stemmer never
    does). Dropped words at sentence starts and ends, sentences of nothing
    else, over several chunks of 1,024 characters; numbered as the engine
    numbers a pair's tokens, or not."""
    tok = compiled("rougekit._core._tokenizer")
    rng = random.Random(27)
    words = ["the", "cats", "sat", "running", "dogs", "x9", "happily", "Quickly", "mats"]
    long_words = [w.lower() for w in words if len(w) > 3]
    with x86_64_v3_loops(tok, v3):
        for trial in range(60):
            empty = set(rng.sample(long_words, rng.randint(1, 3)))
            parts = []
            for _ in range(rng.randint(1, 500)):
                parts.append(rng.choice(words))
                parts.append(rng.choice([" ", " ", ". ", "\n", " \n\n ", "-"]))
            text = "".join(parts)
            expected = _sentences_without(text, empty)
            if numbered:
                number = {}
                expected = [[number.setdefault(t, len(number)) for t in sent]
                            for sent in expected]
            got = tok._sentences_with_empty_stems(text, sorted(empty), numbered)
            assert got == expected, (trial, sorted(empty))


def _reference_sentences(text, stem):
    from nltk.stem import porter
    stemmer = porter.PorterStemmer() if stem else None
    return [toks for toks in (ref_tokenize.tokenize(line, stemmer) for line in text.split("\n"))
            if toks]


# Every length to 200; a quick run takes those around the 8-byte hash chunk,
# the 16- and 64-character blocks and the longest.
LENGTHS = sweep(range(200), [*range(0, 20), *range(30, 35), *range(60, 70),
                             *range(126, 131), *range(195, 200)])


@pytest.mark.parametrize("v3", [True, False], ids=["x86-64-v3", "baseline"])
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stem"])
def test_texts_at_every_length_and_offset(stem, v3):
    """The bitmap scanner (1-, 2- and 4-byte texts classified 16 characters
    at a time, 1-byte texts 64 a step by either loop; word bounds read off by
    the BMI1 or the portable loop) and the character loop
    (texts with "İ"): words that start, end or run across a 16- or
    64-character boundary or the end of the text, of up to and past 8 bytes
    (one hash chunk), newlines anywhere, letters that are not word
    characters, the Kelvin sign."""
    tok = compiled("rougekit._core._tokenizer")
    with x86_64_v3_loops(tok, v3):
        _check_every_length_and_offset(tok, stem)


def _check_every_length_and_offset(tok, stem):
    every = "".join("a" + chr(c) + "B " for c in range(256))    # each Latin-1 character
    assert tok.sentences(every, stem) == _reference_sentences(every, stem)
    for k in (1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130):
        for sep in (" ", "\n", "\xe9", ".\n ", "\xff\x00",
                    # 2-byte texts (saturated to bytes), with the Kelvin sign
                    # (classified a character at a time), 4-byte texts, "İ"
                    "\u2019", "\u0100\n", "\u212a ", "\U0001f600", "\u0130", " \u0130\n"):
            unit = ("Ab9" * 50)[:k] + sep
            base = unit * (200 // len(unit) + 2)
            for offset in (0, 1, 5):
                for n in LENGTHS:
                    text = base[offset:offset + n]
                    assert tok.sentences(text, stem) == _reference_sentences(text, stem), text


@pytest.mark.parametrize("v3", [True, False], ids=["x86-64-v3", "baseline"])
def test_property_one_two_four_byte_texts(v3):
    tok = compiled("rougekit._core._tokenizer")

    @settings(max_examples=examples(300), deadline=None)
    @given(st.text(alphabet="aZ9q \n.\xe9\xdf\xff\x00\t\u2019\u0100\u212a\U0001f600\u0130",
                   max_size=400), st.booleans())
    def check(text, stem):
        assert tok.sentences(text, stem) == _reference_sentences(text, stem)

    with x86_64_v3_loops(tok, v3):
        check()


def test_every_code_point_on_each_classifier():
    """Each code point between letters, on each path: 2-byte texts without
    U+0130 and U+212A (16 at a time, saturated to bytes), 2-byte texts with
    the Kelvin sign and 4-byte texts (a character at a time), texts with "İ"
    (the character loop)."""
    tok = compiled("rougekit._core._tokenizer")
    special = (0x130, 0x212A)
    bmp = "".join("a" + chr(c) + "B " for c in range(0x10000) if c not in special)
    astral = "".join("a" + chr(c) + "B " for c in range(0x10000, 0x30000, 7))
    for text in (bmp, bmp + "\u212a", bmp + "\u0130", astral + bmp, astral + "\u0130"):
        assert tok.tokenize(text, False) == ref_tokenize.tokenize(text, None)


@needs_engine
def test_score_corpus_per_item_is_made_as_the_engines_own_results():
    """per_item's dicts of Scores come from ``engine.score_dicts``: equal to
    its pure twin's, Scores that hash as tuples, and left untracked by the
    cyclic GC as the engine's own results (the dicts too on 3.13 and
    before), so a corpus's per-item results cost no collection; a Score
    given an attribute is tracked again."""
    import gc
    import sysconfig

    import numpy as np

    from rougekit import score_corpus
    from rougekit._core import _engine, _engine_py
    from rougekit.scoring import Score
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    result = score_corpus(["the cat sat", "", "a b a"], ["the cat", "x", ["b a", "a"]],
                          ["rouge1", "rougeL"])
    item = result.per_item[0]
    assert gc.is_tracked(item["rouge1"]) == free_threaded
    if sys.version_info < (3, 14) and not free_threaded:
        assert not gc.is_tracked(item)
    item["rouge1"].note = "tracked again"
    assert gc.is_tracked(item["rouge1"])
    columns = np.array([[0.0, 1.0, 0.5], [1 / 3, 2 / 3, 0.25], [0.4, 0.8, 1e-300],
                        [1.0, 0.0, 0.0], [0.1, 0.2, 0.3], [5e-324, 1.0, 0.75]])
    keys = ["rouge1", "rougeL"]
    got = _engine.score_dicts(keys, Score, columns)
    assert got == _engine_py.score_dicts(keys, Score, columns) == [
        {k: Score(*columns[3 * j:3 * j + 3, i].tolist()) for j, k in enumerate(keys)}
        for i in range(3)]
    assert all(type(s) is Score and hash(s) == hash(tuple(s)) for d in got for s in d.values())
    assert _engine.score_dicts([], Score, np.zeros((0, 2))) == [{}, {}]
    for module in (_engine, _engine_py):
        with pytest.raises(ValueError, match=r"columns has 6 rows, not 3 per key \(3\)"):
            module.score_dicts(["rouge1"], Score, columns)
        with pytest.raises(TypeError, match="score_cls must be a subclass of tuple"):
            module.score_dicts(keys, dict, columns)
