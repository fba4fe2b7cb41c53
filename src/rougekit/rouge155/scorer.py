"""``Rouge155``: ROUGE-1.5.5.pl's numbers from Python, without Perl.

>>> from rougekit.rouge155 import Rouge155
>>> scorer = Rouge155(max_n=2, stem=True)
>>> scores = scorer.score("The cats sat on the mat.", ["A cat sat on a mat."])
>>> scores["ROUGE-1"].recall, scores["ROUGE-1"].hits, scores["ROUGE-2"].fmeasure
(0.66667, 4.0, 0.4)
>>> result = scorer.score_corpus(["The cats sat on the mat.", "Dogs barked."],
...                              [["A cat sat on a mat."], ["The dog barks.", "Dogs bark."]])
>>> print(result.render().splitlines()[1])
A ROUGE-1 Average_R: 0.73333 (95%-conf.int. 0.66667 - 0.80000)

A text is a summary with one sentence per line (the script's SPL format);
``str`` is encoded as UTF-8, ``bytes`` are taken as they are.
"""
import bisect
from typing import Dict, Optional, Sequence, Union

from rougekit.rouge155._corpus import Text, summary
from rougekit.rouge155._run import Run
from rougekit.rouge155.config import Config, Evaluation
from rougekit.rouge155.options import Options, parse_argv
from rougekit.rouge155.results import DocumentScore, Rouge155Result

__all__ = ["Rouge155"]


def _flags_options(flags: str):
    """The script's flags read as ``rougekit rouge155`` and the
    ``rouge155:FLAGS`` flavor read them (``parse_argv``; the data folder of
    ``-e`` only, not the environment's)."""
    if not isinstance(flags, str):
        raise TypeError(f"flags must be a str, not {type(flags).__name__}")
    options, command = parse_argv(flags.split(), environ={})
    if command.positional:
        raise ValueError(f"flags {flags!r}: {command.positional[0]!r} is not a flag")
    return options, command


def _reference_list(refs, i) -> list:
    """references[i] as a non-empty list of texts."""
    if isinstance(refs, (str, bytes, bytearray)):
        return [refs]
    refs = list(refs)
    if not refs:
        raise ValueError(f"references[{i}] is empty: give at least one reference")
    return refs


class Rouge155:
    """ROUGE-1.5.5.pl's scores: configured with keyword arguments that stand
    for the script's flags (see :mod:`rougekit.rouge155.options` for the
    table), e.g. ``Rouge155(max_n=4, weight=1.2, skip_distance=4,
    skip_unigrams=True, stem=True, remove_stopwords=True)`` for
    ``-n 4 -w 1.2 -2 4 -u -m -s``, or with the flags themselves,
    ``Rouge155(flags="-n 4 -w 1.2 -2 4 -u -m -s")``, read as the command line
    and the ``rouge155:FLAGS`` flavor read them (one parser:
    ``rougekit.rouge155.options.parse_argv``).

    - ``score(candidate, references)``: one evaluation's scores per measure;
    - ``score_corpus(candidates, references)``: one system over many
      evaluations (one or more references each), averages and intervals;
    - ``score_config(config, systems=None)``: a configuration read by
      :func:`~rougekit.rouge155.read_config` or
      :func:`~rougekit.rouge155.read_file_list`, every system or some.

    ``threads`` (not an option of the script) is how many threads read,
    tokenize, score and resample (default: all cores, on corpora large enough
    to gain from them); the numbers do not depend on it.

    Bad options raise ``ValueError`` or ``TypeError`` naming the keyword; a
    missing summary ``FileNotFoundError``; a model without tokens under
    ROUGE-W (where the script dies with "Illegal division by zero") and an
    unreadable input format ``ValueError``.
    """

    def __init__(self, *, threads: Optional[int] = None, flags: Optional[str] = None,
                 **options):
        if flags is not None:
            if options:
                raise ValueError("give flags= or the keywords, not both: "
                                 + ", ".join(sorted(options)))
            options_of_flags, _ = _flags_options(flags)
            self.options = options_of_flags
        else:
            self.options = Options(**options)
        self.threads = _check_threads(threads)

    @classmethod
    def from_options(cls, options: Options, threads: Optional[int] = None) -> "Rouge155":
        self = cls.__new__(cls)
        self.options = options
        self.threads = _check_threads(threads)
        return self

    # -- entry points -------------------------------------------------------

    def score(self, candidate: Text, references: Union[Text, Sequence[Text]]
              ) -> Dict[str, DocumentScore]:
        """The scores of one candidate against its references, by measure label.

        These are the numbers the script prints with ``-d`` for this
        evaluation (its average over one evaluation is the same number).
        """
        result = self.score_corpus([candidate], [references], system_id="A")
        system = result.systems["A"]
        return {label: m.documents["1"] for label, m in system.measures.items()}

    def score_corpus(self, candidates: Sequence[Text],
                     references: Sequence[Union[Text, Sequence[Text]]], *,
                     system_id: str = "A") -> Rouge155Result:
        """One system's candidates, each against its references (a text or a
        list of texts); evaluation IDs are 1, 2, ... in order."""
        if isinstance(candidates, (str, bytes)):
            raise TypeError("candidates must be a list of texts, not a single "
                            f"{type(candidates).__name__}")
        candidates = list(candidates)
        references = list(references)
        if len(candidates) != len(references):
            raise ValueError(f"candidates has {len(candidates)} texts but references has "
                             f"{len(references)} items")
        o = self.options
        if o.stem_models_only or o.word_limit or o.byte_limit:
            evaluations = []
            for i, (cand, refs) in enumerate(zip(candidates, references)):
                refs = _reference_list(refs, i)
                evaluations.append(Evaluation(
                    id=str(i + 1), input_format="SPL", peers={system_id: summary(cand, i)},
                    models=[(str(j), summary(r, i, j)) for j, r in enumerate(refs)]))
            return self.score_config(Config(evaluations=evaluations, systems=[system_id]))
        # Otherwise every summary is read one way: the texts go to the
        # tokenizer in one call (the same numbers, tested against the above),
        # which reads str and bytes and rejects anything else.
        texts: list = []
        bounds = [0]
        append, extend = texts.append, texts.extend
        for i, refs in enumerate(references):
            append(candidates[i])
            extend(refs if type(refs) is list and refs else _reference_list(refs, i))
            bounds.append(len(texts))
        try:
            return Run(o, Config(evaluations=[], systems=[system_id]),
                        self.threads).run_texts(system_id, texts, bounds)
        except TypeError:
            for k, text in enumerate(texts):      # name the text in the caller's terms
                if not isinstance(text, (str, bytes, bytearray)):
                    i = bisect.bisect_right(bounds, k) - 1
                    summary(text, i, None if k == bounds[i] else k - bounds[i] - 1)
            raise

    def score_config(self, config: Config,
                     systems: Union[None, str, Sequence[str]] = None) -> Rouge155Result:
        """Score a configuration: every system it names (``systems=None``,
        the script's ``-a``), one system ID, or a list of them (in the order
        given)."""
        if systems is None:
            peers = list(config.systems)
        elif isinstance(systems, str):
            peers = [systems]
        else:
            peers = list(systems)
        return Run(self.options, config, self.threads).run(peers)


def _check_threads(threads):
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or threads < 1):
        raise ValueError(f"threads must be None (all cores) or an int >= 1, got {threads!r}")
    return threads

