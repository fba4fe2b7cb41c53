"""The ``xlsum:LANGUAGE`` flavor: XL-Sum's evaluation (its rouge-score fork).

``rouge.py --lang=LANGUAGE --use_stemmer=true``: XL-Sum's tokenization for
the language (``rougekit.lang``), its stemmer where the language has one
(switch ``use_stemmer``), rouge-score's arithmetic, and rouge-score's
``BootstrapAggregator`` medians, as the ``evaluate`` flavor's.
"""
from typing import Any, Dict, Mapping, Optional

from rougekit._flavors import evaluate as _evaluate_flavor  # noqa: F401 (its aggregation)
from rougekit._flavors._flavor import Flavor, register
from rougekit._flavors.rouge_score import USE_STEMMER
from rougekit.lang import get_language, resolve_lang

__all__ = ["FLAVOR", "language_fields"]


def language_fields(param: str) -> Dict[str, Any]:
    """The fields of ``xlsum:LANGUAGE``: the language, and its stemmer where
    it has one."""
    lang = resolve_lang(param)
    return {"lang": lang, "use_stemmer": get_language(lang).stemmer is not None}


def _language_of(fields: Mapping[str, Any]) -> Optional[str]:
    return fields["lang"]


FLAVOR = register(Flavor(
    name="xlsum", package="XL-Sum's scorer: rouge.py --lang=LANGUAGE --use_stemmer=true",
    fields={"aggregation": "bootstrap-median", "bootstrap": 1000},
    switches=(USE_STEMMER,), parameter=language_fields, parameter_of=_language_of,
    parameter_required=True, usage="xlsum:LANGUAGE"))
