"""ROUGE scores between two texts, as rouge-score's ``rouge_scorer`` module.

``RougeScorer`` has rouge-score 0.1.2's constructor, methods and results:
every float is equal with ``==`` to rouge-score's, and so is every type (the
empty-input ROUGE-L scores are the int 0, as there). Replacing
``from rouge_score import rouge_scorer`` with
``from rougekit import rouge_scorer`` changes nothing but the speed.

Differences, all on inputs rouge-score fails on or mishandles:

- an invalid rouge type raises ``ValueError`` when the scorer is built, not
  at the first ``score`` call;
- a target or prediction that is neither ``str`` nor ``bytes`` (with the
  default tokenizer) raises ``TypeError`` naming the argument;
- ``score_multi`` with no targets raises ``ValueError`` naming ``targets``;
- ``score_multi`` with a single str or bytes as ``targets`` raises
  ``TypeError`` (rouge-score would score each character as a target);
- ``rouge_types`` is read once, so a generator works for every call.

>>> scorer = RougeScorer(["rouge1", "rougeL"])
>>> scorer.score("The cat sat on the mat.", "The cat is on the mat.")["rouge1"]
Score(precision=0.8333333333333334, recall=0.8333333333333334, fmeasure=0.8333333333333334)
"""
import os
import queue
import re
from concurrent.futures import ThreadPoolExecutor, TimeoutError as _FutureTimeout
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from rougekit import _backend, scoring, tokenizers
from rougekit._checks import as_list
from rougekit._counts import lcs_counts, ngram_counts, summary_lcs_counts

try:
    from rougekit._engine import Cancel as _Cancel, Engine as _Engine
except ImportError:  # pure-Python install
    _Engine = _Cancel = None  # type: ignore[assignment,misc]
from rougekit.tokenize import ensure_str

__all__ = ["RougeScorer"]

Text = Union[str, bytes]

# rouge-score's test for rougeN (so "$" also matches before a final "\n").
_ROUGE_N_RE = re.compile(r"rouge[0-9]$")
_L, _LSUM = -1, -2


def _parse_rouge_types(rouge_types):
    """[(rouge_type, kind)]: kind is n for rougeN, _L or _LSUM."""
    try:
        types = list(rouge_types)
    except TypeError:
        raise TypeError("rouge_types must be an iterable of rouge type names, "
                        f"not {type(rouge_types).__name__}") from None
    parsed = []
    for rouge_type in types:
        if rouge_type == "rougeL":
            parsed.append((rouge_type, _L))
        elif rouge_type == "rougeLsum":
            parsed.append((rouge_type, _LSUM))
        elif isinstance(rouge_type, (str, bytes)) and _ROUGE_N_RE.match(
                ensure_str(rouge_type, "rouge type")):
            n = int(rouge_type[5:])
            if n <= 0:
                raise ValueError(f"rougen requires positive n: {rouge_type!r}")
            parsed.append((rouge_type, n))
        elif isinstance(rouge_type, (str, bytes)):
            raise ValueError(
                f"Invalid rouge type: {rouge_type!r}; valid types are rouge1 "
                "to rouge9, rougeL and rougeLsum")
        else:
            raise TypeError("rouge_types must contain str, not "
                            f"{type(rouge_type).__name__}")
    return parsed


def _zero_int():
    # rouge-score returns ints here, not floats.
    return scoring.Score(precision=0, recall=0, fmeasure=0)


def _prf(precision, recall):
    return scoring.Score(precision=precision, recall=recall,
                         fmeasure=scoring.fmeasure(precision, recall))


def _score_ngrams(target_tokens, prediction_tokens, n):
    hits, count_t, count_p = ngram_counts(target_tokens, prediction_tokens, n)
    return _prf(hits / max(count_p, 1), hits / max(count_t, 1))


def _score_lcs(target_tokens, prediction_tokens):
    if not target_tokens or not prediction_tokens:
        return _zero_int()
    lcs, len_t, len_p = lcs_counts(target_tokens, prediction_tokens)
    return _prf(lcs / len_p, lcs / len_t)


def _score_summary_lcs(target_sents, prediction_sents):
    if not target_sents or not prediction_sents:
        return _zero_int()
    hits, m, n = summary_lcs_counts(target_sents, prediction_sents)
    if not n or not m:
        return _zero_int()
    return _prf(hits / n, hits / m)


def _sentence_splitter():
    """nltk's sentence splitter, or an error that says what to install."""
    try:
        import nltk
    except ImportError:
        raise ImportError(
            "split_summaries=True splits sentences with nltk, which is not "
            "installed: pip install 'rougekit[nltk]', then "
            "python -m nltk.downloader punkt_tab") from None
    try:
        nltk.sent_tokenize("One. Two.")
    except LookupError:
        raise LookupError(
            "split_summaries=True needs nltk's punkt sentence model: "
            "python -m nltk.downloader punkt_tab") from None
    return nltk.sent_tokenize


class RougeScorer(scoring.BaseScorer):
    """Calculates ROUGE scores between a target and a prediction.

    Args:
      rouge_types: names to compute: "rouge1" to "rouge9", "rougeL",
        "rougeLsum" (sentences split on "\\n").
      use_stemmer: stem words longer than 3 characters with the Porter
        stemmer (as NLTK's), in the default tokenizer.
      split_summaries: for rougeLsum, split sentences with nltk's
        ``sent_tokenize`` instead of on newlines (needs nltk and its data).
      tokenizer: an object with ``tokenize(text) -> list of tokens`` used
        instead of the default tokenizer. Tokens are compared with ``==``;
        hashable ones (str, int, tuple) are also hashed, so equal tokens
        must hash alike, as for dict keys.

    >>> scorer = RougeScorer(["rougeL"], use_stemmer=True)
    >>> scorer.score("The quick brown fox", "the quick fox jumps")["rougeL"].fmeasure
    0.75
    """

    def __init__(self, rouge_types: Iterable[str], use_stemmer: bool = False,
                 split_summaries: bool = False, tokenizer: Optional[Any] = None) -> None:
        self.rouge_types = rouge_types
        self._types = _parse_rouge_types(rouge_types)
        if tokenizer:
            if not callable(getattr(tokenizer, "tokenize", None)):
                raise TypeError("tokenizer must have a tokenize(text) method; "
                                f"got {type(tokenizer).__name__}")
            self._tokenizer = tokenizer
        else:
            self._tokenizer = tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        self._sent_tokenize = _sentence_splitter() if split_summaries else None
        # rouge-score skips whole-text tokenization when rougeLsum is alone.
        self._lsum_only = len(self._types) == 1 and self._types[0][1] == _LSUM
        self._setup_engine()

    def _setup_engine(self):
        """The compiled engine scores str pairs with the default tokenizer."""
        self._keys = [t for t, _ in self._types]
        self._kinds = [k for _, k in self._types]
        self._engine = None
        self._engine_pool: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        if (_Engine is not None and _backend.NAME == "compiled" and self._types
                and not self._split_summaries
                and type(self._tokenizer) is tokenizers.DefaultTokenizer):
            self._use_stemmer = self._tokenizer._stemmer is not None
            self._engine = self._new_engine()
            if type(self).score is RougeScorer.score:
                # Skip a Python frame per call: the engine itself sends
                # anything but a pair of str back to _score_python. (Not
                # when a subclass overrides score.)
                self.score = self._engine.score  # type: ignore[method-assign]

    # Pickling (multiprocessing, for one) carries the settings; the engine,
    # its caches and the nltk splitter are rebuilt on the other side.
    _UNPICKLED = ("_engine", "_engine_pool", "_sent_tokenize", "score")

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k not in self._UNPICKLED}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._sent_tokenize = _sentence_splitter() if self._split_summaries else None
        self._setup_engine()

    def _new_engine(self):
        return _Engine(self._kinds, self._use_stemmer, self._keys, scoring.Score,
                       self._score_python, self._score_pooled)

    def _score_pooled(self, target, prediction):
        """score() on an engine from the pool: what the scorer's own engine
        does with a pair while another thread is using it. That happens only
        when the GIL is disabled (free-threaded CPython); with the GIL, one
        engine.score call runs start to end without letting other threads in."""
        try:
            engine = self._engine_pool.get_nowait()
        except queue.Empty:
            engine = self._new_engine()
        try:
            return engine.score(target, prediction)
        finally:
            self._engine_pool.put(engine)

    def _check_text(self, text, name):
        if isinstance(self._tokenizer, tokenizers.DefaultTokenizer) and \
                not isinstance(text, (str, bytes)):
            raise TypeError(f"{name} must be str or bytes, not {type(text).__name__}")

    def _sentences(self, text, name):
        if self._sent_tokenize is not None:
            sents = self._sent_tokenize(text)
        else:
            sents = ensure_str(text, name).split("\n")
        return [self._tokenizer.tokenize(s) for s in sents if len(s)]

    def score(self, target: Text, prediction: Text) -> Dict[str, scoring.Score]:
        """Scores ``prediction`` against ``target``: a dict type -> Score."""
        engine = self._engine
        if engine is not None:
            # str pairs in C; anything else comes back to _score_python.
            return engine.score(target, prediction)
        return self._score_python(target, prediction)

    def _score_python(self, target, prediction):
        self._check_text(target, "target")
        self._check_text(prediction, "prediction")
        if self._lsum_only:
            target_tokens = prediction_tokens = None
        else:
            target_tokens = self._tokenizer.tokenize(target)
            prediction_tokens = self._tokenizer.tokenize(prediction)
        result = {}
        for rouge_type, kind in self._types:
            if kind == _L:
                result[rouge_type] = _score_lcs(target_tokens, prediction_tokens)
            elif kind == _LSUM:
                result[rouge_type] = _score_summary_lcs(
                    self._sentences(target, "target"),
                    self._sentences(prediction, "prediction"))
            else:
                result[rouge_type] = _score_ngrams(target_tokens,
                                                   prediction_tokens, kind)
        return result

    def score_multi(self, targets: Sequence[Text], prediction: Text
                    ) -> Dict[str, scoring.Score]:
        """Scores ``prediction`` against each target; per rouge type, keeps
        the score of the first target with the highest F-measure."""
        targets = _as_list(targets, "targets")
        score_dicts = [self.score(t, prediction) for t in targets]
        if not score_dicts and self._types:
            raise ValueError("targets must contain at least one text")
        return _first_best(score_dicts, self._types)

    def score_batch(self, targets: Sequence[Text], predictions: Sequence[Text],
                    threads: Optional[int] = None) -> List[Dict[str, scoring.Score]]:
        """Scores each prediction against the target at the same position.

        Returns a list of dicts in input order, each equal to what
        ``score(target, prediction)`` returns. With the compiled backend and
        the default tokenizer, the pairs are scored without the GIL on
        ``threads`` threads (default: all cores); otherwise one by one.
        Ctrl-C (KeyboardInterrupt) stops the workers after their current pair.

        >>> RougeScorer(["rouge1"]).score_batch(["a b", "c"], ["a", "c"])[1]
        {'rouge1': Score(precision=1.0, recall=1.0, fmeasure=1.0)}
        """
        targets = _as_list(targets, "targets")
        predictions = _as_list(predictions, "predictions")
        if len(targets) != len(predictions):
            raise ValueError(f"targets and predictions differ in length: "
                             f"{len(targets)} and {len(predictions)}")
        threads = _thread_count(threads)
        if not targets:
            return []
        if self._engine is None:
            return [self.score(t, p) for t, p in zip(targets, predictions)]
        n = len(targets)
        size = max(16, min(1024, n // (threads * 8) or 1))
        chunks = [(i, min(i + size, n)) for i in range(0, n, size)]
        cancel = _Cancel()

        def run(bounds):
            lo, hi = bounds
            # Pairs that are not both str come back to _score_python.
            ts, ps = targets[lo:hi], predictions[lo:hi]
            try:
                engine = self._engine_pool.get_nowait()
            except queue.Empty:
                engine = self._new_engine()
            try:
                return engine.score_range(ts, ps, cancel)
            finally:
                self._engine_pool.put(engine)

        # Even with one thread the chunks run on a worker: the main thread
        # waits in short slices, so Ctrl-C is seen at once and the workers
        # stop after their current pair.
        with ThreadPoolExecutor(max_workers=min(threads, len(chunks))) as pool:
            futures = [pool.submit(run, c) for c in chunks]
            try:
                out = []
                for f in futures:
                    out.extend(_wait(f))
                return out
            except BaseException:
                cancel.set()
                for f in futures:
                    f.cancel()
                raise


    def score_multi_batch(self, targets_list: Sequence[Sequence[Text]],
                          predictions: Sequence[Text], threads: Optional[int] = None
                          ) -> List[Dict[str, scoring.Score]]:
        """``score_multi(targets_list[i], predictions[i])`` for every i, in
        order, with the pairs scored as ``score_batch`` does (all cores).

        >>> RougeScorer(["rouge1"]).score_multi_batch([["a b", "a"]], ["a"])
        [{'rouge1': Score(precision=1.0, recall=1.0, fmeasure=1.0)}]
        """
        return _score_multi_batch(self, targets_list, predictions, threads)

def _multi_targets(item, i):
    targets = _as_list(item, f"targets_list[{i}]")
    if not targets:
        raise ValueError(f"targets_list[{i}] must contain at least one text")
    return targets


def _first_best(score_dicts, types):
    """Per rouge type, the score of the first dict with the highest F."""
    best = {}
    for rouge_type, _ in types:
        fs = [s[rouge_type].fmeasure for s in score_dicts]
        # max() keeps the first of equal maxima, as numpy.argmax does.
        best[rouge_type] = score_dicts[max(range(len(fs)), key=fs.__getitem__)][rouge_type]
    return best


def _score_multi_batch(scorer, targets_list, predictions, threads):
    targets_list = _as_list(targets_list, "targets_list")
    predictions = _as_list(predictions, "predictions")
    if len(targets_list) != len(predictions):
        raise ValueError(f"targets_list and predictions differ in length: "
                         f"{len(targets_list)} and {len(predictions)}")
    groups = [_multi_targets(item, i) for i, item in enumerate(targets_list)]
    flat_t = [t for g in groups for t in g]
    flat_p = [p for g, p in zip(groups, predictions) for _ in g]
    flat = scorer.score_batch(flat_t, flat_p, threads=threads)
    out, k = [], 0
    for g in groups:
        out.append(_first_best(flat[k:k + len(g)], scorer._types))
        k += len(g)
    return out


def _wait(future):
    # A timeout keeps the main thread responsive to Ctrl-C while it waits.
    while True:
        try:
            return future.result(timeout=0.2)
        except _FutureTimeout:
            continue


def _as_list(x, name):
    return as_list(x, name, "a list of texts")


def _thread_count(threads):
    if threads is None:
        return os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    return threads
