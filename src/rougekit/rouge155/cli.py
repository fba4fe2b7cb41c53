"""``rougekit rouge155``: ROUGE-1.5.5.pl's command line, without Perl.

    rougekit rouge155 [the script's options] CONFIG [SYSTEM_ID]
    python -m rougekit rouge155 ...
    rougekit rouge155 --install-script DIR

The options, the configuration (XML, or a ``-z`` file list) and the output
on stdout are the script's. The data folder (the stopword list and the
WordNet exception DB) is the script's too: ``-e DIR``, else
``$ROUGE_EVAL_HOME``, else ``$RED_EVAL_HOME``; with none of them, the
standard data that ships inside rougekit. Where the
script would die, or silently read a value it does not understand, one line
on stderr names the option or file and the exit status is 2.

``--signature`` (not the script's) prints, after the scores, the line that
records the options (``rougekit.signature``: the measures, stemmer,
stopwords, bootstrap and the flags as ``rouge155:-c 95 -r 1000 ...``) on
stderr, so stdout stays the script's.

``--install-script DIR`` writes an executable ``DIR/ROUGE-1.5.5.pl`` that
runs this command, and ``DIR/data/``, so tools that run the script by path
(pyrouge's ``Rouge155(rouge_dir=DIR)``, files2rouge) run on rougekit. It
refuses (one line, exit 2) to overwrite a file there that rougekit did not
write, such as the real script, unless ``--force`` is given.

A closed or broken stdout ends the command quietly: exit 141 when the reader
went away (``| head``), 1 when stdout was closed (``rougekit._streams``).
"""
import errno
import os
import stat
import sys
from typing import List, Optional

from rougekit._checks import one_line
from rougekit._streams import guard_streams
from rougekit.rouge155.config import read_config, read_file_list
from rougekit.rouge155.lexicon import data_file
from rougekit.rouge155.options import UsageError, parse_argv
from rougekit.rouge155.results import line_bytes
from rougekit.rouge155.scorer import Rouge155

__all__ = ["main", "install_script", "InstallConflict", "USAGE"]

PROG = "rougekit rouge155"

USAGE = """\
usage: {prog} [options] CONFIG [SYSTEM_ID]
       {prog} --install-script DIR [--force]

ROUGE-1.5.5.pl's scores and output, byte for byte, without Perl.

CONFIG is the script's XML configuration, or with -z a file list (one
"peer model1 model2 ..." per line). SYSTEM_ID is the system (peer ID) to
score; -a scores every system.

  -a         evaluate all systems           -d         print per-evaluation scores
  -n N       ROUGE-1 .. ROUGE-N             -x         no ROUGE-L
  -w W       ROUGE-W, weight W > 0          -2 D       ROUGE-S, skip distance D (<0: any)
  -u         ROUGE-SU instead of S          -U         both ROUGE-S and ROUGE-SU
  -m         stem (WordNet exceptions, then the script's Porter)
  -M         stem the models only (L, W, S)  -s        remove the SMART stopwords
  -l N       first N words only             -b N       first N bytes only
  -f A|B     A: pool the models' counts; B: the model of highest recall
  -p ALPHA   F's alpha in [0, 1] (0.5)      -c CF      CF% confidence intervals (95)
  -r R       bootstrap resamples (1000)     -t 0|1|2   average scores | pool tokens | counts
  -z FMT     CONFIG is a file list of SEE, SPL or ISI files
  -e DIR     the data folder (default: $ROUGE_EVAL_HOME, else the shipped data)
  -h, -H     this help

Not available: -3 (Basic Elements need an external parser), -v (debug output).
--signature prints the options' rougekit signature on stderr after the scores.
--install-script DIR writes DIR/ROUGE-1.5.5.pl running this command, and DIR/data/,
for tools that call the script by path (pyrouge, files2rouge). It does not
overwrite a ROUGE-1.5.5.pl (or data file) that rougekit did not write, such as the
real script: --force does.
"""

_STAND_IN = """\
#!{python}
# ROUGE-1.5.5.pl stand-in, written by `rougekit rouge155 --install-script`.
# It takes the script's options and prints the script's output, computed by
# rougekit (https://pypi.org/project/rougekit/) instead of Perl.
import sys

from rougekit.rouge155.cli import main

sys.exit(main(sys.argv[1:], prog=sys.argv[0]))
"""

_DATA_README = """\
Data files of ROUGE-1.5.5, written by `rougekit rouge155 --install-script`:
the standard data, which also ships inside rougekit. The stand-in
ROUGE-1.5.5.pl beside this folder reads them when a tool passes this folder
as -e (as pyrouge does); the exception table is text here, where the script
reads WordNet-2.0.exc.db. See NOTICE.md for their licences.

smart_common_words.txt       the stopword list of -s
wordnet-2.0-exceptions.txt   WordNet 2.0's irregular forms (what the script's
                             WordNet-2.0.exc.db holds), used first by -m
"""


class _Error(Exception):
    pass


# The stand-in's second line: how a ROUGE-1.5.5.pl that rougekit wrote (any
# version, for any Python) is told from the real script.
_STAND_IN_MARK = _STAND_IN.splitlines()[1].encode("utf-8")
_DATA_FILES = ("smart_common_words.txt", "wordnet-2.0-exceptions.txt", "NOTICE.md")


class InstallConflict(FileExistsError):
    """``install_script`` would overwrite a file that rougekit did not write
    (``filename``): the real ROUGE-1.5.5.pl, say, or an edited data file."""


def _is_stand_in(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return _STAND_IN_MARK in f.read(4096).splitlines()[:5]
    except OSError:
        return False


def install_script(directory: str, python: Optional[str] = None, force: bool = False) -> str:
    """Write the ``ROUGE-1.5.5.pl`` stand-in and ``data/`` into ``directory``
    (created if needed); returns the stand-in's path. ``python`` is the
    interpreter it runs with (default: this one).

    A folder whose ``ROUGE-1.5.5.pl`` is a stand-in that rougekit wrote is
    rewritten. Otherwise no file already there is overwritten unless it
    holds what would be written: a real ROUGE-1.5.5.pl (or any other file)
    raises :class:`InstallConflict` naming it, unless ``force``."""
    python = python or sys.executable
    path = os.path.join(directory, "ROUGE-1.5.5.pl")
    files = [(path, _STAND_IN.format(python=python).encode("utf-8"))]
    files += [(os.path.join(directory, "data", name), data_file(name)) for name in _DATA_FILES]
    files.append((os.path.join(directory, "data", "README.txt"), _DATA_README.encode("utf-8")))
    if not force and not _is_stand_in(path):
        for target, content in files:
            if os.path.lexists(target) and not _holds(target, content):
                raise InstallConflict(errno.EEXIST, "not written by rougekit", target)
    os.makedirs(os.path.join(directory, "data"), exist_ok=True)
    for target, content in files:
        if os.path.islink(target):
            os.unlink(target)       # replaced, not written through (to a real script)
        with open(target, "wb") as f:
            f.write(content)
    mode = os.stat(path).st_mode
    os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def _holds(path: str, content: bytes) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(content) + 1) == content
    except OSError:
        return False


def _argv_id(arg: str) -> str:
    """A system ID from the command line: Perl sees its bytes, one character
    each (so it matches an XML ID only when both are ASCII, as in the
    script, and prints back the same bytes)."""
    return os.fsencode(arg).decode("latin-1")


def _run(argv: List[str], prog: str) -> int:
    install = [a for a in argv if a != "--force"]
    if install[:1] == ["--install-script"]:
        if len(install) != 2:
            raise _Error("--install-script takes one directory")
        try:
            path = install_script(install[1], force=len(install) < len(argv))
        except InstallConflict as e:
            raise _Error(f"{e.filename} exists and was not written by rougekit: not "
                         "overwritten (--force overwrites it)") from None
        except OSError as e:
            raise _Error(f"cannot write into {install[1]}: {e.strerror}") from None
        print(f"wrote {path} and {os.path.join(install[1], 'data')}")
        return 0
    # --signature (not the script's): the options' signature line on stderr
    end = argv.index("--") if "--" in argv else len(argv)
    show_signature = "--signature" in argv[:end]
    if show_signature:
        argv = [a for a in argv[:end] if a != "--signature"] + argv[end:]
    if argv[:1] in (["--help"], ["-h"], ["-H"]):
        sys.stdout.write(USAGE.format(prog=prog))
        return 0
    try:
        options, cmd = parse_argv(argv)
    except UsageError as e:
        raise _Error(str(e)) from None
    if cmd.usage:
        sys.stdout.write(USAGE.format(prog=prog))
        return 0
    args = cmd.positional
    if not args:
        raise _Error("give the configuration file (see -h)")
    if len(args) > 2:
        raise _Error("too many arguments: %s (give CONFIG [SYSTEM_ID])" % " ".join(args[2:]))
    config_path = args[0]
    system = _argv_id(args[1]) if len(args) == 2 else None
    if cmd.file_list_format is not None:
        config = read_file_list(os.fsencode(config_path), cmd.file_list_format,
                                system if system is not None else "X")
        systems: Optional[List[str]] = config.systems
    else:
        if system is None and not cmd.all_systems:
            raise _Error("give a system ID to evaluate, or -a to evaluate all systems")
        config = read_config(config_path)
        systems = None if cmd.all_systems or system is None else [system]
    result = Rouge155.from_options(options).score_config(config, systems)
    err = sys.stderr.buffer if hasattr(sys.stderr, "buffer") else None
    for eval_id, peer in result.missing:
        line = ("*ROUGE Warning: test instance for peer %s does not exist for evaluation %s\n"
                % (peer, eval_id))
        if err is not None:
            # Bytes as the script prints them: a system ID given on the command
            # line comes back as typed (its bytes, not their UTF-8 re-encoding).
            err.write(line_bytes(line))
        else:
            sys.stderr.write(line)
    if err is not None:
        err.flush()
    out = result.render_bytes(per_document=cmd.per_document)
    if hasattr(sys.stdout, "buffer"):
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(out.decode("utf-8", "replace"))
    if show_signature:
        print(result.signature, file=sys.stderr)
    return 0


def main(argv: Optional[List[str]] = None, prog: str = PROG) -> int:
    """Run the command; returns the exit status (0, 2 on a user error). A
    closed or broken stdout or stderr ends it quietly
    (``rougekit._streams.guard_streams``: 141 when stdout's reader went away,
    1 when stdout was closed)."""
    return guard_streams(_main, list(sys.argv[1:] if argv is None else argv), prog)


def _main(argv: List[str], prog: str) -> int:
    try:
        return _run(argv, prog)
    except (_Error, ValueError) as e:
        message = str(e)
    except BrokenPipeError:
        raise                   # a pipe's reader went away: guard_streams ends quietly
    except FileNotFoundError as e:
        message = str(e) if not e.filename else "cannot read %s: %s" % (
            os.fsdecode(e.filename), e.strerror)
    except OSError as e:
        message = "%s%s" % (os.fsdecode(e.filename) + ": " if e.filename else "", e.strerror or e)
    except MemoryError:
        message = "out of memory"
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    print(f"{prog}: error: {one_line(message)}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
