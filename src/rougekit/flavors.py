"""Flavors: the ROUGE of each package people report with, as named presets.

The same texts get different ROUGE numbers from different packages because
each makes different choices at a few stages: how words are found, whether
they are stemmed, how n-grams are counted, what ROUGE-L is, how an F is
formed, how items become a corpus score. A flavor is the package called
with its own arguments: the ``ScoringOptions`` stages it fixes, and its
switches, the package's own keywords that change a number, taken by every
door beside ``flavor=`` (``score_corpus(..., flavor="rouge-score",
use_stemmer=True)``; on the command line, the fields' flags:
``rougekit score --flavor rouge-score --stemmer``). A keyword the package
does not have is refused, naming the flavor. The signature names the flavor
(``flavor:NAME``; the switches are in its other fields) and
``ScoringOptions.from_signature`` reads it back.

=====================  ===================================================
``rouge-score``        Google's rouge-score 0.1.2 (the default): its
                       tokenizer, clipped n-gram counts, rougeL the LCS of
                       the texts, F = 2PR / (P + R), the mean of the items.
                       Switches: ``use_stemmer``, ``split_summaries``,
                       ``tokenizer`` (an object).
``evaluate``           Hugging Face ``evaluate.load("rouge")`` with its
                       defaults: rouge-score, then rouge-score's
                       ``BootstrapAggregator`` (1,000 resamples, the
                       medians; drawn from ``RandomState(seed)``, the draws
                       after ``numpy.random.seed(seed)``, seed
                       ``rougekit.DEFAULT_SEED`` unless given;
                       ``seed="numpy-global"``: numpy's global state, as
                       evaluate). Switches: ``use_stemmer``,
                       ``use_aggregator`` (False: per-item scores, whose
                       corpus number is their mean), ``tokenizer`` (a
                       callable).
``rouge155[:FLAGS]``   ROUGE-1.5.5.pl with FLAGS (``rouge155:-m -n 2``):
                       its tokens (``-m`` its stemmer, ``-s`` its
                       stopwords), ROUGE-L summary-level over the lines,
                       references pooled (``-f A``), P and R rounded to 5
                       decimals and its F (``-p``), the mean of its
                       bootstrap resample means (``-r``, ``-c``). ``-n N``
                       sets the rouge types when they are not given. The
                       flags are read as ``rougekit rouge155`` reads them.
``xlsum:LANGUAGE``     XL-Sum's evaluation (its rouge-score fork's
                       ``rouge.py --lang=LANGUAGE --use_stemmer=true``):
                       ``lang=LANGUAGE``, stemming where the language has a
                       stemmer (switch ``use_stemmer``), and rouge-score's
                       ``BootstrapAggregator`` medians, as ``evaluate``.
``pltrdy``             ``rouge`` 1.0.1 (pltrdy): ``Rouge().get_scores(hyps,
                       refs, avg=True)``: words split on spaces, case kept,
                       sentences split on "."; distinct n-grams (sets);
                       ROUGE-L the distinct words on the union LCS of the
                       sentences; F with ``1e-8`` in its denominator; the
                       items' values added in order, then divided.
                       Switches: ``metrics`` (default rouge-1, rouge-2,
                       rouge-l), ``stats`` (changes no number), ``avg``
                       (default True; False: per-item scores, whose corpus
                       number is their mean), ``ignore_empty``.
``rouge-chinese``      ``rouge-chinese`` 1.0.3 on space-segmented text (e.g.
                       ``" ".join(jieba.cut(text))``): as ``pltrdy``, but
                       sentences are its ``cut_sent``'s and ROUGE-L is the
                       LCS of the whole texts' words. Switches: as
                       ``pltrdy``'s.
``torchmetrics``       ``torchmetrics.text.rouge.ROUGEScore``: rouge-score's
                       pairs (rougeLsum on nltk's sentences), then float32:
                       an item's value from its references (``accumulate``
                       "best", the largest float32 F, or "avg", torch's
                       float32 mean) and the items' float32 mean. Switches:
                       ``use_stemmer``, ``accumulate``, ``rouge_keys``
                       (``rougekit.torchmetrics.ROUGEScore`` is the metric).
=====================  ===================================================

The packages' names for the measures map to rougekit's: ``rouge-1`` is
``rouge1``, and a package's one ROUGE-L is ``rougeL``; ``rougeLsum`` is the
summary-level ROUGE-L over the flavor's sentences (for ``rouge155`` and
``pltrdy``, whose ROUGE-L is summary-level, the same as ``rougeL``). Where a
package raises (pltrdy's "Hypothesis is empty."), or crashes (its recursion
limit on long sentences), the flavor scores the item as the algorithm
defines it: an empty text scores 0.

>>> from rougekit import score_corpus
>>> result = score_corpus(["the cat is on the mat"], ["the cat sat on the mat"],
...                       ["rouge1"], flavor="pltrdy")
>>> result.scores["rouge1"]
Score(precision=0.8, recall=0.8, fmeasure=0.7999999950000002)
>>> result.signature.split("|")[-1]
'flavor:pltrdy'
>>> flavor_options("rouge155:-m -n 2").rouge_types
('rouge1', 'rouge2', 'rougeL')
>>> flavor_options("rouge-score", split_summaries=True).sentence_split
'nltk'
"""
from typing import Any, Dict, List, Optional, Sequence

from rougekit import _flavors
from rougekit._options import STAGES, ScoringOptions

__all__ = ["FLAVORS", "STAGES", "flavor_options", "flavor_of", "flavor_fields",
           "flavor_names", "flavor_switches"]

#: The flavors' names (``rouge155`` and ``xlsum`` take a parameter after ":").
FLAVORS = tuple(f.name for f in _flavors.registered())

#: The flavors ``audit`` scores when none are named.
AUDITED = ("rouge-score", "evaluate", "rouge155", "pltrdy", "rouge-chinese")


def flavor_options(flavor: str, options: Optional[ScoringOptions] = None,
                   **given: Any) -> ScoringOptions:
    """The ``ScoringOptions`` of a flavor called with its package's switches
    (``given``), the caller's fields (``rouge_types``, ``seed``) and
    ``options``' other fields, which must agree with the flavor's
    (``ScoringOptions.of_flavor``).

    >>> flavor_options("pltrdy", rouge_types=["rouge1"]).f_measure
    'epsilon'
    """
    return ScoringOptions.of_flavor(flavor, options, **given)


def flavor_of(options: ScoringOptions) -> Optional[str]:
    """The flavor whose options these are (with its parameter), or None.

    >>> flavor_of(flavor_options("rouge155:-m")), flavor_of(ScoringOptions())
    ('rouge155:-m', 'rouge-score')
    >>> flavor_of(ScoringOptions(use_stemmer=True))
    'rouge-score'
    >>> flavor_of(ScoringOptions(counting="sets")) is None
    True
    """
    return options.flavor


def flavor_fields(flavor: str) -> Dict[str, Any]:
    """The ``ScoringOptions`` fields a flavor sets with its package's
    defaults (those that differ from rouge-score's), and the rouge types its
    parameter or its package's defaults give, under ``"rouge_types"``.

    >>> flavor_fields("pltrdy")["counting"], flavor_fields("evaluate")["aggregation"]
    ('sets', 'bootstrap-median')
    """
    return _flavors.lookup(flavor)[1]


def flavor_switches(flavor: str) -> Dict[str, str]:
    """The package's own keywords a flavor takes, with what each does.

    >>> list(flavor_switches("evaluate"))
    ['use_stemmer', 'use_aggregator', 'tokenizer']
    """
    return {s.name: s.help for s in _flavors.split_name(flavor)[0].switches}


def flavor_names(flavors: Optional[Sequence[str]]) -> List[str]:
    """Checked flavor names (``AUDITED`` by default)."""
    if flavors is None:
        return list(AUDITED)
    for flavor in flavors:
        _flavors.lookup(flavor)
    return list(flavors)
