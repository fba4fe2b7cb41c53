"""The ``rouge155[:FLAGS]`` flavor: ROUGE-1.5.5.pl, with some of its flags.

The script's tokens (``-m`` its stemmer, ``-s`` its stopwords), ROUGE-L at
the summary level over the lines, the references pooled (``-f A``), P and R
rounded to 5 decimals and its F (``-p``), and the printed average: the mean
of its bootstrap resample means (``-r``, ``-c``) over the items in the
script's order. ``-n N`` sets the rouge types when none are given. The flags
are read by the script's own rules (``rougekit.rouge155.options.parse_argv``,
as ``rougekit rouge155`` reads them); a flavor takes ``-m``, ``-s``, ``-n``,
``-c``, ``-p``, ``-r``, ``-f A`` and ``-a``, and the other flags are
``rougekit.rouge155.Rouge155``'s.
"""
from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from rougekit import _backend, _stages
from rougekit._core._rouge155_numbers_py import f_measure as rouge155_f
from rougekit._core._rouge155_numbers_py import round5
from rougekit._flavors._flavor import Flavor, register
from rougekit.scoring import AggregateScore, Score

# rougekit.rouge155 (the script's flags, its items' order) is imported where a
# rouge155 flavor is used, not with every ScoringOptions: its modules are the
# heaviest of the package to import.

__all__ = ["FLAVOR", "flags_fields", "flags_of", "rouge155_score", "rouge155_averages"]

# What the flavor sets without flags: the script's defaults.
_FIELDS = {"tokenizer": "rouge155", "rouge_l": "summary", "multi_ref": "pooled",
           "f_measure": "rouge155", "aggregation": "rouge155-bootstrap", "bootstrap": 1000,
           "confidence": 0.95}
_TAKES = "-m, -s, -n N, -c CF, -p ALPHA, -r R, -f A, -a"
_TAKEN = "msncprfa"


def flags_fields(text: str) -> Dict[str, Any]:
    """The fields the flags of ``rouge155:FLAGS`` set (and the rouge types of
    ``-n N``).

    >>> sorted(flags_fields("-m -n 2 -c 90").items())  # doctest: +NORMALIZE_WHITESPACE
    [('confidence', 0.9), ('rouge_types', ('rouge1', 'rouge2', 'rougeL')),
     ('use_stemmer', True)]
    """
    from rougekit.rouge155.options import UsageError, parse_argv
    try:
        options, command = parse_argv(text.split(), environ={})
    except UsageError as e:
        raise ValueError(f"flavor rouge155: {e}") from None
    if command.positional:
        raise ValueError(f"flavor rouge155: {command.positional[0]!r} is not a flag "
                         f"(it takes {_TAKES})")
    refused = sorted(command.given - set(_TAKEN))
    if refused:
        raise ValueError(f"flavor rouge155: -{refused[0]} is not available in a flavor (it "
                         f"takes {_TAKES}); rougekit.rouge155.Rouge155 has every flag of "
                         "the script")
    if options.formula == "B":
        raise ValueError(f"flavor rouge155: -f B is not available in a flavor (it takes "
                         f"{_TAKES}); rougekit.rouge155.Rouge155 computes -f B")
    if options.resamples != int(options.resamples):
        raise ValueError(f"flavor rouge155: -r {options.resamples:g} is not a whole number")
    if not options.confidence > 0:
        raise ValueError(f"flavor rouge155: -c {options.confidence:g} is not in (0, 100]")
    fields: Dict[str, Any] = {}
    if options.stem:
        fields["use_stemmer"] = True
    if options.remove_stopwords:
        fields["remove_stopwords"] = True
    if options.alpha != 0.5:
        fields["alpha"] = float(options.alpha)
    if options.resamples != 1000:
        fields["bootstrap"] = int(options.resamples)
    if options.confidence != 95:
        fields["confidence"] = options.confidence / 100
    n = options.max_n
    if "n" in command.given:
        if not 1 <= n <= 9:
            raise ValueError(f"flavor rouge155: -n {n} is not in 1..9")
        fields["rouge_types"] = tuple(f"rouge{k}" for k in range(1, n + 1)) + ("rougeL",)
    return fields


def flags_of(fields: Mapping[str, Any]) -> Optional[str]:
    """The flags whose flavor has these option fields (the ``-n`` aside:
    the rouge types are the caller's), or None."""
    if fields["tokenizer"] != "rouge155" or not fields["confidence"] > 0:
        return None
    flags = []
    if fields["use_stemmer"]:
        flags.append("-m")
    if fields["remove_stopwords"]:
        flags.append("-s")
    if fields["confidence"] * 100 != 95:
        flags.append(f"-c {round(fields['confidence'] * 100, 10):g}")
    if fields["alpha"] != 0.5:
        flags.append(f"-p {fields['alpha']!r}")
    if fields["bootstrap"] != 1000:
        flags.append(f"-r {fields['bootstrap']}")
    return " ".join(flags)


def rouge155_score(hits: Any, candidate_total: Any, reference_total: Any,
                   alpha: float) -> Score:
    """The script's P, R (rounded to 5 decimals) and its F from them.

    >>> rouge155_score(1, 3, 2, 0.5)
    Score(precision=0.33333, recall=0.5, fmeasure=0.4)
    """
    precision, recall = round5(hits / candidate_total), round5(hits / reference_total)
    return Score(precision, recall, rouge155_f(precision, recall, alpha))


def rouge155_averages(options: Any, columns: np.ndarray
                      ) -> Tuple[Dict[str, Score], Dict[str, AggregateScore]]:
    """ROUGE-1.5.5.pl's averages and intervals of the items' columns: the
    mean of ``options.bootstrap`` resample means (Perl's ``srand(0)``,
    ``srand(1)``, ...) over the items in the script's order (their numbers
    sorted as strings), rounded to 5 decimals."""
    from rougekit.rouge155._run import numeral_order
    names = list(options.rouge_types)
    order = numeral_order(columns.shape[1])
    table = np.ascontiguousarray(columns[:, order].T)
    average, low, high = _backend.rouge155_bootstrap.bootstrap(
        table, options.bootstrap, round(options.confidence * 100, 10))
    scores, intervals = {}, {}
    for k, name in enumerate(names):
        cut = slice(3 * k, 3 * k + 3)
        mid = Score(*map(round5, average[cut].tolist()))
        scores[name] = mid
        intervals[name] = AggregateScore(Score(*map(round5, low[cut].tolist())), mid,
                                         Score(*map(round5, high[cut].tolist())))
    return scores, intervals


_stages.F_MEASURES.add("rouge155", rouge155_score)
_stages.AGGREGATIONS.add("rouge155-bootstrap", rouge155_averages)

FLAVOR = register(Flavor(
    name="rouge155", package="ROUGE-1.5.5.pl (its average, -f A)", fields=_FIELDS,
    parameter=flags_fields, parameter_of=flags_of, usage="rouge155[:FLAGS]"))

