"""ROUGE-1.5.5 without Perl: the numbers of ROUGE-1.5.5.pl, byte for byte.

:class:`Rouge155` scores from Python with keyword arguments that stand for
the script's flags; :func:`read_config` and :func:`read_file_list` read the
script's inputs; results render the script's text. The command line is
``rougekit rouge155`` (see :mod:`rougekit.rouge155.cli`).

>>> from rougekit.rouge155 import Rouge155
>>> Rouge155(max_n=1).score("the cat sat", "the cat sat down")["ROUGE-1"].recall
0.75
"""
from rougekit.rouge155.config import Config, ConfigError, Evaluation, read_config, read_file_list
from rougekit.rouge155.lexicon import exceptions, morph_stem, porter_stem, stopwords
from rougekit.rouge155.options import Measure, Options
from rougekit.rouge155.results import DocumentScore, MeasureResult, Rouge155Result, SystemResult
from rougekit.rouge155.scorer import Rouge155

__all__ = [
    "Rouge155", "Options", "Measure",
    "Rouge155Result", "SystemResult", "MeasureResult", "DocumentScore",
    "Config", "Evaluation", "ConfigError", "read_config", "read_file_list",
    "morph_stem", "porter_stem", "stopwords", "exceptions",
]
