"""Why a pair scored what it did: the tokens, the matches, the counts.

``explain(target, prediction)`` (and ``RougeScorer.explain``) returns, per
rouge type, an ``Explanation``: the tokens of both texts as the tokenizer
produced them, with their character spans in the texts; the matches, one per
counted hit; and the three numbers P and R are made of (``hits``,
``target_count``, ``prediction_count``). ``score`` is computed from those
three with rouge-score's arithmetic, so it equals ``score()``'s with ``==``.

What a match pairs, per rouge type:

rougeN
    a matched n-gram: ``n`` consecutive target positions and ``n``
    consecutive prediction positions holding equal tokens. An n-gram found
    ``a`` times in the target and ``b`` times in the prediction gives
    ``min(a, b)`` matches (rouge-score's clipped count): its i-th occurrence
    in the target, left to right, with its i-th in the prediction.
rougeL
    one LCS alignment, ``(target position,)`` with ``(prediction
    position,)``: the one rouge-score's table walk picks (its
    ``_backtrack_norec`` on ``_lcs_table``), positions strictly increasing on
    both sides.
rougeLsum
    the union-LCS hits of each target sentence, as rouge-score's
    ``_summary_level_lcs`` counts them: a target token on the LCS of its
    sentence with at least one prediction sentence, counted while its token
    is left on both sides (the clipping by token counts). The prediction
    position is the token it is aligned to in the first prediction sentence
    whose LCS holds it; as the clipping counts tokens, not positions, two
    matches may name the same prediction position. rougeLsum's tokens are
    the sentences' (``Token.sentence`` says which, among the non-empty ones),
    which can differ from the whole text's (``lang=`` does not segment them).

Spans: ``Token.start`` and ``Token.end`` index the text (a ``bytes`` text is
decoded as UTF-8 first, and the explanation holds the decoded text), so
``text[start:end]`` is the word the token came from: with stemming, the whole
unstemmed word. With the default tokenizer and with ``lang=``, the words are
found by the tokenizer's own rules; with any other tokenizer each token is
looked for in the text, left to right, as written and then lowercased, and a
token that is not found there (a normalized or non-str token) has
``start = end = None``.

The LCS alignments are rouge-score's table walk without its table (the
``alignment`` kernel: bit-parallel rows, checkpointed and recomputed as the
walk goes back), so a long pair is explained in time that grows like
``score()``'s and memory that grows like the texts (docs/guides/explain.md
says how long); to score many pairs, use ``score()`` or ``score_corpus``.

Examples:
    >>> result = explain("The cat sat on the mat.", "The cat is on the mat.",
    ...                  rouge_types=["rouge2", "rougeL"])
    >>> r2 = result["rouge2"]
    >>> r2.hits, r2.target_count, r2.prediction_count
    (3, 5, 5)
    >>> [r2.target_tokens[i].text for i in r2.matches[0].target]
    ['the', 'cat']
    >>> result["rougeL"].matches[:2]
    (Match(target=(0,), prediction=(0,)), Match(target=(1,), prediction=(1,)))
    >>> print(result["rougeL"].highlighted("target", "[", "]"))
    [The cat] sat [on the mat].
"""
import bisect
import collections
import dataclasses
import html
import json
from typing import (
    Any,
    Dict,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
)

from rougekit import _backend, tokenizers
from rougekit import tokenize as _tokenize_mod
from rougekit._core._prf_py import lcs_prf, ngram_prf
from rougekit._core._tokenizer_py import WORD_RE
from rougekit._counts import Numbering
from rougekit._doors import resolve, takes_options
from rougekit._options import ScoringOptions
from rougekit._pipeline import PairScorer, pair_scorer, score_of
from rougekit._rouge_types import ROUGE_L, ROUGE_LSUM
from rougekit.lang import LangTokenizer
from rougekit.scoring import Score
from rougekit.tokenize import ensure_str

__all__ = ["explain", "Explanation", "Explanations", "Token", "Match", "explain_pair"]


class Token(NamedTuple):
    """A token and where it came from.

    ``text`` is the token as the tokenizer gave it (stemmed when stemming);
    ``start``/``end`` the span of its word in the text (None when it cannot
    be located: module docstring); ``sentence`` rougeLsum's sentence index
    (None for the other types).
    """

    text: Any
    start: Optional[int]
    end: Optional[int]
    sentence: Optional[int] = None


class Match(NamedTuple):
    """One counted hit: the token positions it pairs (indices into
    ``target_tokens`` and ``prediction_tokens``): ``n`` each for rougeN, one
    each for rougeL and rougeLsum."""

    target: Tuple[int, ...]
    prediction: Tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Explanation:
    """What one rouge type matched in one pair (module docstring).

    ``precision = hits / prediction_count`` and ``recall = hits /
    target_count`` (rouge-score's conventions when a count is 0), and
    ``score`` is that ``Score``; ``len(matches) == hits``.
    """

    rouge_type: Any
    score: Score
    hits: int
    target_count: int
    prediction_count: int
    target_tokens: Tuple[Token, ...]
    prediction_tokens: Tuple[Token, ...]
    matches: Tuple[Match, ...]
    target: str
    prediction: str

    def matched_positions(self, side: str) -> List[int]:
        """The sorted positions of ``side`` ("target" or "prediction") that
        some match names."""
        index = _side_index(side)
        return sorted({p for match in self.matches for p in match[index]})

    def segments(self, side: str) -> List[Tuple[str, bool]]:
        """The text of ``side`` cut into ``(piece, matched)``: matched tokens
        (with a span) are matched pieces, joined into one when they are
        neighbours in the token list with only spaces between them."""
        first = _side_index(side) == 0
        tokens = self.target_tokens if first else self.prediction_tokens
        text = self.target if first else self.prediction
        runs: List[List[int]] = []           # [start, end] of each matched run
        last = None
        for p in self.matched_positions(side):
            token = tokens[p]
            if token.start is None or token.end is None:
                last = None
                continue
            if last is not None and p == last + 1 and token.start >= runs[-1][1] and \
                    _joins(text[runs[-1][1]:token.start]):
                runs[-1][1] = token.end
            elif not runs or token.start >= runs[-1][1]:
                runs.append([token.start, token.end])
            last = p
        out, at = [], 0
        for start, end in runs:
            if start > at:
                out.append((text[at:start], False))
            out.append((text[start:end], True))
            at = end
        if at < len(text) or not out:
            out.append((text[at:], False))
        return out

    def highlighted(self, side: str, before: str, after: str) -> str:
        """The text of ``side`` with each matched piece between ``before`` and
        ``after`` (brackets, ANSI codes, HTML tags: already escaped text is
        the caller's business)."""
        return "".join(f"{before}{piece}{after}" if hit else piece
                       for piece, hit in self.segments(side))

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict (keys documented in docs/guides/explain.md)."""
        return {
            "precision": self.score.precision, "recall": self.score.recall,
            "fmeasure": self.score.fmeasure, "hits": self.hits,
            "target_count": self.target_count, "prediction_count": self.prediction_count,
            "target_tokens": [_token_dict(t) for t in self.target_tokens],
            "prediction_tokens": [_token_dict(t) for t in self.prediction_tokens],
            "matches": [{"target": list(m.target), "prediction": list(m.prediction)}
                        for m in self.matches],
        }

    def _repr_html_(self) -> str:
        return _html_table([self])


class Explanations(Dict[Any, Explanation]):
    """What ``explain`` returns: a dict rouge type -> ``Explanation``, which
    Jupyter shows as a table with the matches highlighted."""

    def to_dict(self) -> Dict[str, Any]:
        """``{"target", "prediction", "explanations": {type: ...}}``, JSON-ready."""
        first = next(iter(self.values()), None)
        return {"target": first.target if first else "",
                "prediction": first.prediction if first else "",
                "explanations": {_name(t): e.to_dict() for t, e in self.items()}}

    def to_json(self, **kwargs: Any) -> str:
        """``json.dumps(self.to_dict(), **kwargs)``."""
        return json.dumps(self.to_dict(), **kwargs)

    def _repr_html_(self) -> str:
        return _html_table(list(self.values()))


def _joins(gap: str) -> bool:
    return gap.strip(" \t") == ""


def _side_index(side: str) -> int:
    if side not in ("target", "prediction"):
        raise ValueError(f"side must be 'target' or 'prediction', not {side!r}")
    return 0 if side == "target" else 1


def _name(rouge_type: Any) -> str:
    return rouge_type.decode("utf-8") if isinstance(rouge_type, bytes) else str(rouge_type)


def _token_dict(token: Token) -> Dict[str, Any]:
    text = token.text if isinstance(token.text, (str, int, float)) else repr(token.text)
    return {"text": text, "start": token.start, "end": token.end, "sentence": token.sentence}


# --- explaining ---------------------------------------------------------------------

@takes_options("explain")
def explain(target: Any, prediction: Any, rouge_types: Optional[Sequence[str]] = None, *,
            options: Optional[ScoringOptions] = None, flavor: Optional[str] = None,
            **fields: Any) -> Explanations:
    """What each rouge type matched between ``target`` and ``prediction``.

    Args:
      target: the reference text (str, or UTF-8 bytes).
      prediction: the predicted text.
      rouge_types: as ``score_corpus``'s (default: ``ScoringOptions``'s).
      options: a ``rougekit.ScoringOptions``, instead of the keywords.
      flavor: another package's ROUGE, with its switches (``rougekit.flavors``);
        one whose pairs are counted as rouge-score's (``rouge-score``,
        ``evaluate``, ``xlsum:LANGUAGE``), since the matches shown are
        rouge-score's.
      **fields: the ``ScoringOptions`` fields of how text becomes tokens
        (``use_stemmer``, ``tokenizer``, ``lang``, ``sentence_split``, ...);
        a corpus field (``multi_ref``, ``bootstrap``, ...) is refused: one
        pair has no corpus.

    Returns an ``Explanations`` dict, rouge type -> ``Explanation`` (module
    docstring); each ``.score`` equals ``score_corpus``'s per-item score of
    the pair, and ``RougeScorer.score``'s with the same options.

    Examples:
        >>> e = explain("Cats running home", "the cat runs", ["rouge1"], use_stemmer=True)
        >>> e["rouge1"].score
        Score(precision=0.6666666666666666, recall=0.6666666666666666, fmeasure=0.6666666666666666)
        >>> [(t.text, t.start, t.end) for t in e["rouge1"].target_tokens]
        [('cat', 0, 4), ('run', 5, 12), ('home', 13, 17)]
    """
    if rouge_types is not None:
        fields["rouge_types"] = rouge_types
    options = resolve("explain", options, flavor, **fields)
    return explain_pair(pair_scorer(options), target, prediction)


def explain_pair(pairs: PairScorer, target: Any, prediction: Any) -> Explanations:
    """``explain`` with a pipeline's ``PairScorer`` (what ``RougeScorer.explain``
    runs): the tokens, sentences and tokenizer are the scorer's own."""
    if pairs.type_error is not None:
        raise ValueError(*pairs.type_error.args)
    pairs.check_text(target, "target")
    pairs.check_text(prediction, "prediction")
    texts = (_decoded(target, "target"), _decoded(prediction, "prediction"))
    if pairs.lines_to_check > 0:        # the SentenceSplitWarning, as score() gives it
        pairs.check_lines((target, prediction))
    whole: Optional[Tuple[List[Token], List[Token]]] = None
    sentences: Optional[Tuple[List[Token], List[Token]]] = None
    out = Explanations()
    for rouge_type, kind in pairs.types or []:
        if kind == ROUGE_LSUM:
            if sentences is None:
                sentences = (_sentence_tokens(pairs, target, texts[0], "target"),
                             _sentence_tokens(pairs, prediction, texts[1], "prediction"))
            tokens = sentences
            counts = _summary_lcs_matches(*tokens)
            prf = lcs_prf(counts[0], len(tokens[0]), len(tokens[1]))
        else:
            if whole is None:
                whole = (_whole_tokens(pairs, target, texts[0]),
                         _whole_tokens(pairs, prediction, texts[1]))
            tokens = whole
            values = ([t.text for t in tokens[0]], [t.text for t in tokens[1]])
            if kind == ROUGE_L:
                counts = _lcs_matches(*values)
                prf = lcs_prf(*counts[:3])
            else:
                counts = _ngram_matches(*values, kind)
                prf = ngram_prf(*counts[:3])
        hits, target_count, prediction_count, matches = counts
        out[rouge_type] = Explanation(
            rouge_type=rouge_type, score=score_of(prf), hits=hits,
            target_count=target_count, prediction_count=prediction_count,
            target_tokens=tuple(tokens[0]), prediction_tokens=tuple(tokens[1]),
            matches=tuple(matches), target=texts[0], prediction=texts[1])
    return out


def _decoded(text: Any, name: str) -> str:
    """``text`` as a str (``ensure_str``); bytes that are not UTF-8 are a
    ValueError naming the argument, as the command line names a file."""
    try:
        return ensure_str(text, name)
    except UnicodeDecodeError as e:
        raise ValueError(f"{name} is not UTF-8: invalid byte at offset {e.start}") from None


Counts = Tuple[int, int, int, List[Match]]


def _ngram_matches(target: List[Any], prediction: List[Any], n: int) -> Counts:
    """rouge-score's ``_score_ngrams`` of ``_create_ngrams``, with the
    positions: the i-th occurrence of an n-gram in the target with its i-th
    in the prediction."""
    def starts(tokens: List[Any]) -> Dict[Tuple[Any, ...], List[int]]:
        found: Dict[Tuple[Any, ...], List[int]] = collections.defaultdict(list)
        for k in range(len(tokens) - n + 1):
            found[tuple(tokens[k:k + n])].append(k)
        return found

    in_target, in_prediction = starts(target), starts(prediction)
    pairs = [(a, b) for gram, at in in_target.items()
             for a, b in zip(at, in_prediction.get(gram, ()))]
    pairs.sort()
    matches = [Match(tuple(range(a, a + n)), tuple(range(b, b + n))) for a, b in pairs]
    return (len(matches), sum(map(len, in_target.values())),
            sum(map(len, in_prediction.values())), matches)


def _lcs_matches(target: List[Any], prediction: List[Any]) -> Counts:
    """rouge-score's ``_score_lcs``, with its LCS as position pairs: the
    one its table walk picks (``_backend.alignment``, in linear memory)."""
    if not target or not prediction:
        return 0, len(target), len(prediction), []
    number = Numbering()
    at_target, at_prediction = _backend.alignment.lcs_alignment(number(target),
                                                                number(prediction))
    return (len(at_target), len(target), len(prediction),
            [Match((i,), (j,)) for i, j in zip(at_target, at_prediction)])


def _summary_lcs_matches(target: List[Token], prediction: List[Token]) -> Counts:
    """rouge-score's ``_summary_level_lcs``, with the positions: per target
    sentence, the union of its LCS with each prediction sentence, each union
    token counted while it is left on both sides (module docstring;
    ``_backend.alignment``)."""
    m, n = len(target), len(prediction)
    if not m or not n:
        return 0, m, n, []
    number = Numbering()
    refs = [number([t.text for t in sentence]) for _, sentence in _by_sentence(target)]
    cands = [number([t.text for t in sentence]) for _, sentence in _by_sentence(prediction)]
    at_target, at_prediction = _backend.alignment.summary_lcs_alignment(refs, cands)
    return (len(at_target), m, n,
            [Match((i,), (j,)) for i, j in zip(at_target, at_prediction)])


def _by_sentence(tokens: List[Token]) -> Iterator[Tuple[int, List[Token]]]:
    """(position of its first token, its tokens) of each sentence with tokens."""
    start = 0
    while start < len(tokens):
        end = start
        while end < len(tokens) and tokens[end].sentence == tokens[start].sentence:
            end += 1
        yield start, list(tokens[start:end])
        start = end


# --- where the tokens are -------------------------------------------------------------

Span = Tuple[Optional[int], Optional[int]]


def _whole_tokens(pairs: PairScorer, text: Any, decoded: str) -> List[Token]:
    tokens = pairs.tokens(text)
    tok = pairs.tokenizer
    words = tok.segments(text) if isinstance(tok, LangTokenizer) else None
    return [Token(value, *span)
            for value, span in zip(tokens, _spans(tok, decoded, tokens, words))]


def _sentence_tokens(pairs: PairScorer, text: Any, decoded: str, name: str) -> List[Token]:
    out: List[Token] = []
    tok = pairs.tokenizer
    at = 0
    for k, sentence in enumerate(pairs.sentence_texts(text, name)):
        tokens = pairs.sentence_tokens(sentence)
        words = tok.sentence_segments(sentence) if isinstance(tok, LangTokenizer) else None
        offset = decoded.find(sentence, at)
        spans: List[Span] = [(None, None)] * len(tokens)
        if offset >= 0:                   # (not found: a splitter that changed it)
            at = offset + len(sentence)
            spans = [(s + offset, e + offset) if s is not None and e is not None
                     else (None, None) for s, e in _spans(tok, sentence, tokens, words)]
        out += [Token(value, start, end, k) for value, (start, end) in zip(tokens, spans)]
    return out



class _Folded:
    """A text lowercased, and where each lowered character came from."""

    def __init__(self, text: str) -> None:
        self.text = text
        origin = [i for i, c in enumerate(text) for _ in c.lower()]
        lowered = text.lower()
        # str.lower() of the whole text has the per-character lengths (only
        # the final sigma depends on context); keep the whole text's letters.
        self.lowered = lowered if len(lowered) == len(origin) else \
            "".join(c.lower() for c in text)
        self.origin = origin

    def span(self, start: int, end: int) -> Tuple[int, int]:
        """The text's span of the lowered text's [start, end)."""
        return self.origin[start], self.origin[end - 1] + 1

    def at(self, index: int) -> int:
        """The first lowered position at or after the text's ``index``."""
        return bisect.bisect_left(self.origin, index)


def _spans(tokenizer: Any, text: str, tokens: List[Any],
           words: Optional[List[str]]) -> List[Span]:
    """The span of each token's word in ``text``, by the tokenizer's rules
    when they are known (and give the tokens), else found left to right."""
    folded = _Folded(text)
    stemming = tokenizers.default_stemming(tokenizer)
    if stemming is not None:
        stemmer = _backend.porter.StemCache() if stemming else None
        found: List[Tuple[Any, Span]] = [
            (stem, folded.span(*m.span())) for m in WORD_RE.finditer(folded.lowered)
            for stem in _tokenize_mod.tokenize(m.group(), stemmer)]
        if [stem for stem, _ in found] == tokens:
            return [span for _, span in found]
    elif words is not None and isinstance(tokenizer, LangTokenizer):
        located = _located(folded, words)
        found = [(stem, span) for word, span in zip(words, located)
                 for stem in tokenizer.stem_words([word])]
        if [stem for stem, _ in found] == tokens:
            return [span for _, span in found]
    return _located(folded, tokens)


def _located(folded: _Folded, tokens: Sequence[Any]) -> List[Span]:
    """Each str token looked for after the previous one found, as written in
    the text and lowercased in the lowered text, the first place either is
    found; (None, None) if neither is."""
    out: List[Span] = []
    at = 0
    for token in tokens:
        found: List[Tuple[int, int]] = []
        if isinstance(token, str) and token:
            k = folded.text.find(token, at)
            if k >= 0:
                found.append((k, k + len(token)))
            lower = token.lower()
            k = folded.lowered.find(lower, folded.at(at))
            if k >= 0:
                found.append(folded.span(k, k + len(lower)))
        if found:
            span = min(found)
            at = span[1]
            out.append(span)
        else:
            out.append((None, None))
    return out


# --- HTML -------------------------------------------------------------------------------

def _html_text(explanation: Explanation, side: str) -> str:
    return "".join(f"<mark>{html.escape(piece)}</mark>" if hit else html.escape(piece)
                   for piece, hit in explanation.segments(side)).replace("\n", "<br/>")


def _html_table(explanations: List[Explanation]) -> str:
    rows = []
    for e in explanations:
        s = e.score
        rows.append(
            f"<tr><th>{html.escape(_name(e.rouge_type))}</th>"
            f"<td>{s.precision:.4f}</td><td>{s.recall:.4f}</td><td>{s.fmeasure:.4f}</td>"
            f"<td>{e.hits} / {e.prediction_count} / {e.target_count}</td>"
            f"<td>{_html_text(e, 'target')}</td><td>{_html_text(e, 'prediction')}</td></tr>")
    return ("<table class=\"rougekit-explanation\"><thead><tr><th>type</th><th>P</th>"
            "<th>R</th><th>F</th><th>hits / prediction / target</th><th>target</th>"
            "<th>prediction</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")

