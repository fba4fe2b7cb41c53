#!/usr/bin/env python3
"""Fuzz target for the ROUGE-1.5.5 mode's readers: ``rougekit rouge155`` on
hostile files and command lines.

Each input (bytes) decodes into one run of ``rougekit.rouge155.cli.main`` in
a scratch folder that holds a valid configuration and its summaries:

- byte 0 % 5 picks what the rest of the input becomes:
  0. the XML configuration file;
  1. a ``-z`` file list (its format from byte 1: SEE, SPL, ISI, SIMPLE);
  2. a peer summary in the configuration's format (SEE/SPL/ISI from byte 1);
  3. a model summary, likewise;
  4. the options: the rest split on spaces into argv words (any bytes,
     decoded as the command line would be), before the configuration;
- the rest of the input is that file's bytes (or the argv words).

The only outcomes allowed: exit status 0 (the script's output), or exit
status 2 with exactly one line on stderr and nothing on stdout. A traceback
(any exception out of ``main``), another status, a second stderr line or a
run longer than the timeout (libFuzzer's ``-timeout``; the loop's
``--case-seconds``) fails.

Usage:
  python fuzz/fuzz_rouge155_readers.py --iterations N [--seed S] [--seconds T]
  python fuzz/fuzz_rouge155_readers.py --input FILE          # replay one input
  python fuzz/fuzz_rouge155_readers.py [libFuzzer flags] [CORPUS_DIR]   # atheris

The random loop mutates seed inputs made like the tests' (``seed_inputs``):
the valid configuration, file list, summaries and option strings of
tests/test_rouge155_*.py. See fuzz/README.md.
"""
import contextlib
import io
import os
import tempfile

import _driver

FORMATS = ["SEE", "SPL", "ISI", "SIMPLE"]
MODES = ["config", "file-list", "peer", "model", "options"]

PEER = "The cat sat on the mat.\nIt was happy and well-known, said Reuters."
MODELS = ["The cat was sitting on the mat.", "A happy cat sat there; it's 1990s news."]


def summary_bytes(text, fmt):
    """A summary file of the format (as tests/_rouge155.py writes them)."""
    sents = [s.encode("utf-8") for s in text.split("\n")]
    if fmt in ("SPL", "SIMPLE"):
        return b"\n".join(sents) + b"\n"
    if fmt == "SEE":
        body = [b'<a name="%d">[%d]</a> <a href="#%d" id=%d>%s</a>' % (i, i, i, i, s)
                for i, s in enumerate(sents, 1)]
        return (b"<html>\n<head>\n<title>x</title>\n</head>\n<body bgcolor=\"white\">\n"
                + b"\n".join(body) + b"\n</body>\n</html>\n")
    return b"".join(b'<S SNTNO="%d">%s</S>\n' % (i, s) for i, s in enumerate(sents, 1))


def config_bytes(fmt):
    models = "".join('<M ID="%d">m%d.txt</M>' % (k, k) for k in range(len(MODELS)))
    return ('<ROUGE-EVAL version="1.5.5">\n<EVAL ID="1">\n<PEER-ROOT>peers</PEER-ROOT>\n'
            '<MODEL-ROOT>\n  models\n</MODEL-ROOT>\n<INPUT-FORMAT TYPE="%s"></INPUT-FORMAT>\n'
            '<PEERS><P ID="A">p.txt</P></PEERS>\n<MODELS>%s</MODELS>\n</EVAL>\n'
            '</ROUGE-EVAL>\n' % (fmt, models)).encode("ascii")


def decode_case(data):
    """bytes -> (mode, format, payload)."""
    mode = MODES[data[0] % len(MODES)] if data else "config"
    fmt = FORMATS[data[1] % len(FORMATS)] if len(data) > 1 else "SPL"
    return mode, fmt, data[2:]


def run_case(workdir, data):
    """Write the case into workdir and run ``rougekit rouge155`` there:
    (status, stdout bytes, stderr text)."""
    from rougekit.rouge155 import cli

    mode, fmt, payload = decode_case(data)
    config_fmt = fmt if mode in ("peer", "model") and fmt != "SIMPLE" else "SPL"
    for sub in ("peers", "models"):
        os.makedirs(os.path.join(workdir, sub), exist_ok=True)
    with open(os.path.join(workdir, "peers", "p.txt"), "wb") as f:
        f.write(payload if mode == "peer" else summary_bytes(PEER, config_fmt))
    for k, text in enumerate(MODELS):
        with open(os.path.join(workdir, "models", "m%d.txt" % k), "wb") as f:
            f.write(payload if mode == "model" and k == 0 else summary_bytes(text, config_fmt))
    with open(os.path.join(workdir, "config.xml"), "wb") as f:
        f.write(payload if mode == "config" else config_bytes(config_fmt))
    argv = ["-n", "2", "-2", "4", "-u", "-m", "-s", "-a", "-d", "config.xml"]
    if mode == "file-list":
        with open(os.path.join(workdir, "list.txt"), "wb") as f:
            f.write(payload)
        argv = ["-n", "2", "-a", "-z", fmt, "list.txt"]
    elif mode == "options":
        words = [os.fsdecode(w) for w in payload.split(b" ") if w and b"\x00" not in w]
        argv = words + ["config.xml"]
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    err = io.StringIO()
    old = os.getcwd()
    os.chdir(workdir)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
        out.flush()
    finally:
        os.chdir(old)
    return status, out.buffer.getvalue(), err.getvalue(), argv


_WORKDIR = None


def test_one_input(data):
    global _WORKDIR
    if _WORKDIR is None:
        _WORKDIR = tempfile.mkdtemp(prefix="rougekit-fuzz155-")
    status, stdout, stderr, argv = run_case(_WORKDIR, data)
    if status == 0:
        return
    lines = stderr.strip("\n").split("\n")
    if status != 2 or stdout or len(lines) != 1 or not lines[0]:
        raise AssertionError("%s: status %r, %d bytes on stdout, stderr %r"
                             % (decode_case(data)[0], status, len(stdout), stderr[-500:]))


# --- seeds and the random loop ---------------------------------------------------------

def seed_inputs():
    """Valid inputs of every mode, as the tests write them."""
    seeds = []
    for i, fmt in enumerate(FORMATS):
        seeds.append(bytes([0, i]) + config_bytes(fmt if fmt != "SIMPLE" else "SPL"))
        seeds.append(bytes([1, i]) + b"peers/p.txt models/m0.txt models/m1.txt\n")
        if fmt != "SIMPLE":
            seeds.append(bytes([2, i]) + summary_bytes(PEER, fmt))
            seeds.append(bytes([3, i]) + summary_bytes(MODELS[0], fmt))
    for flags in ("-n 4 -m -a -d", "-c 95 -r 1000 -n 2 -w 1.2 -a", "-x -2 -1 -U -s -a",
                  "-adn2 -2-1 -U", "-l 10 -f B -p 0.3 -t 1 -a", "-b 75 -M -a -d", "-e data -a"):
        seeds.append(bytes([4, 0]) + flags.encode("ascii"))
    return seeds


DICTIONARY = [b"<EVAL ID=\"1\">", b"</EVAL>", b"<PEERS>", b"<MODELS>", b"<P ID=\"A\">",
              b"<M ID=\"0\">", b"<INPUT-FORMAT TYPE=\"SEE\">", b"<PEER-ROOT>", b"<![CDATA[",
              b"<!--", b"-->", b"<?x?>", b"&amp;", b"&#0;", b"<S SNTNO=\"1\">", b"</S>",
              b"<a name=\"1\">", b"</a>", b"<html>", b"\n", b"\r\n", b" ", b"\x00", b"\xff",
              b"\xc3\xa9", b"-", b"|", b"../", b"/", b"-z", b"-e", b"-r", b"0", b"1e400",
              b"nan", b"-1", b"999999999999999999999", b"<X>" * 50, b"</X>" * 50]


TARGET = _driver.Target(
    name="fuzz_rouge155_readers", test_one_input=test_one_input, seed_inputs=seed_inputs,
    dictionary=DICTIONARY, header=0, header_min=0, crash_prefix="crash155-",
    describe=lambda data: decode_case(data)[:2],
    holds="every one exit 0 or one line and exit 2",
    instrument=lambda: __import__("rougekit.rouge155.cli"))


if __name__ == "__main__":
    _driver.main(TARGET, __doc__.split("\n\n")[0])
