"""The signature of a score: every option that changes the numbers, in one line.

As sacreBLEU prints a signature with every BLEU, rougekit records with every
corpus score the options that produced it, as ``key:value`` fields joined by
"|" (``CorpusResult.signature``, ``compute(..., return_signature=True)``, the
CLI's output). ``Signature`` builds and reads that line; ``parse_signature``
turns one back into the keyword arguments of ``score_corpus`` that reproduce
the numbers (on the same data, with the same versions).

A value may end with a provenance in parentheses, the library and version
(or data digest) behind it: ``lang:chinese(jieba-0.42.1)``. Reading a
signature back uses what comes before the parentheses; the provenance says
why numbers from another installation may differ.

Fields, in order:

- ``rougekit:VERSION``: the package version;
- ``types:T1,T2,...``: the rouge types;
- ``tok:NAME``: the tokenizer (``rougekit.word_tokenizers`` names; ``xlsum``
  for ``lang=``; a custom tokenizer without a ``name`` attribute is
  ``custom:ClassName``);
- ``lang:NAME(SEGMENTER)`` or ``lang:none``: the ``lang=`` language, with its
  word segmenter and version;
- ``stem:no``, ``stem:porter``, or with ``lang=`` the language's stemmer:
  ``snowball-LANG(nltk-V)``, ``hindi``, ``bengali``, ``turkish(TurkishStemmer-V)``;
- ``stop:none``, or ``stop:nltk(DIGEST)``: NLTK's stopwords left unstemmed
  (XL-Sum's Snowball stemming), the list named by 8 hex digits of its sha256;
- ``split:newline``, ``split:nltk(V)`` or ``split:sentencex-ISO(V)``:
  rougeLsum's sentence splitting;
- ``multi:POLICY``: the multi-reference policy;
- ``agg:mean`` (the mean of the per-item scores), ``agg:bootstrap-median``
  (rouge-score's ``BootstrapAggregator``: the median of the resampled means,
  drawn from numpy's global random state; ``compute``'s default) or
  ``agg:none`` (per-item scores only), ``agg:mean-in-order`` (pltrdy's),
  ``agg:rouge155-bootstrap`` (ROUGE-1.5.5.pl's);
- ``boot:none``, or ``boot:N,ci:C,seed:S`` with bootstrap resampling (N
  resamples, coverage C, seed S: an int, ``rougekit.DEFAULT_SEED`` unless
  given, ``none`` for fresh entropy, ``numpy-global`` for numpy's global
  random state, ``perl-srand`` for ROUGE-1.5.5.pl's draws);
- then, only where they differ from rouge-score's, the stages where other
  packages' ROUGE differs (``ScoringOptions``): ``count:sets`` (distinct
  n-grams), ``L:summary`` (rougeL is the summary-level LCS), ``F:epsilon``
  or ``F:rouge155(alpha:A)``, ``empty:skip`` (items with an empty text left
  out); and ``flavor:NAME`` when the options are a flavor's
  (``rougekit.flavors``; its switches are in the fields above; not written
  for the default, rouge-score);
- then any further ``key:value`` fields of ``extra``, in order: options of
  modes ``score_corpus`` does not have. The ROUGE-1.5.5 mode records its
  flags this way, as ``rouge155:-c 95 -r 1000 -n 2 -m``, beside the
  standard fields that apply (``tok:rouge155``, ``multi:rouge155-A``,
  ``agg:bootstrap-mean``, ``seed:perl-srand``;
  ``rougekit.rouge155.Options.signature``); ``parse_signature``
  refuses a signature with extra fields, which its own mode reads back
  (``Options.from_signature``).

>>> sig = Signature(rouge_types=("rouge1", "rougeL"), tokenizer="rouge-score",
...                 stemmer="porter", multi_ref="mean", version="1.0")
>>> str(sig)
'rougekit:1.0|types:rouge1,rougeL|tok:rouge-score|lang:none|stem:porter|stop:none|split:newline|multi:mean|agg:mean|boot:none'
>>> kwargs = parse_signature(str(sig))
>>> kwargs["rouge_types"], kwargs["tokenizer"], kwargs["use_stemmer"], kwargs["multi_ref"]
(['rouge1', 'rougeL'], 'rouge-score', True, 'mean')
"""
from typing import Any, Dict

from rougekit._options import fields_of_signature
from rougekit._signature import Signature

__all__ = ["Signature", "parse_signature"]


def parse_signature(text: str) -> Dict[str, Any]:
    """The keyword arguments of ``score_corpus`` that reproduce a signature.

    ``score_corpus(candidates, references, **parse_signature(sig))`` gives
    the numbers ``sig`` was printed with (on the same data and versions; for
    ``seed:numpy-global``, from the same state of numpy's global random
    generator). Its signature is ``sig`` again, but for ``agg:none``
    (``compute(..., use_aggregator=False)``, whose per-item scores it gives).
    A ValueError names a field no options give.
    """
    return fields_of_signature(Signature.parse(text))
