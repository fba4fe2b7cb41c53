"""``rougekit rouge155`` against the real ROUGE-1.5.5.pl: the same bytes on stdout.

Every test writes its inputs once, runs the script once (cached on disk, see
``_rouge155``) and compares its stdout, byte for byte, with rougekit's under
each kernel this process can run (compiled and pure, or pure only with
ROUGEKIT_PURE_PYTHON=1). Where the script dies, rougekit must exit 2 with one
line on stderr.

Corpora come from the oracle's generator (news sentences with noise:
case, punctuation, hyphens, numbers, contractions, non-ASCII text, repeated
words, leading blanks; empty and punctuation-only candidates; 1-4 references)
plus hand-made evaluations for the edge cases.
"""
import random

import pytest

from _helpers import sweep
from _rouge155 import (
    compare_with_script as compare,
)
from _rouge155 import (
    items_to_evals,
    oracle,
    run_kit,
    write_inputs,
)

pytestmark = pytest.mark.kernel

# Option sets, each scored on one generated corpus ("plain": references may be
# empty or token-free; "w": ROUGE-W's corpus, where the script dies on such a
# reference). -d prints every evaluation's scores, so the per-document numbers
# are compared too.
OPTION_SETS = [
    ("plain", "-a -d"),                                  # ROUGE-L only
    ("plain", "-n 4 -a -d"),
    ("plain", "-n 4 -m -a -d"),
    ("plain", "-n 2 -s -a -d"),
    ("plain", "-n 2 -m -s -a -d"),
    ("w", "-n 2 -w 1.2 -a -d"),
    ("w", "-n 1 -w 2 -m -a -d"),
    ("w", "-x -w 0.5 -s -a -d"),
    ("plain", "-x -2 4 -a -d"),
    ("plain", "-x -2 4 -u -a -d"),
    ("plain", "-x -2 -1 -U -a -d"),
    ("plain", "-x -2 0 -U -m -a -d"),
    ("plain", "-x -2 2.5 -u -a -d"),
    ("plain", "-x -2 -1 -u -s -a -d"),
    ("plain", "-n 2 -l 10 -a -d"),
    ("plain", "-n 2 -l 1 -a -d"),
    ("w", "-n 1 -l 25 -w 1.2 -m -2 4 -u -a -d"),
    ("plain", "-n 2 -b 30 -a -d"),
    ("w", "-n 2 -b 75 -w 1.2 -2 4 -u -a -d"),
    ("plain", "-n 1 -b 7 -a -d"),
    ("plain", "-n 2 -f B -a -d"),
    ("w", "-n 2 -f B -w 1.2 -2 4 -u -m -a -d"),
    ("plain", "-n 2 -p 0.3 -a -d"),
    ("plain", "-n 1 -p 0 -a -d"),
    ("plain", "-n 1 -p 1 -a -d"),
    ("plain", "-n 2 -c 90 -a"),
    ("plain", "-n 2 -c 99.5 -r 200 -a"),
    ("plain", "-n 1 -c 0 -r 10 -a"),
    ("plain", "-n 1 -c 100 -r 7 -a"),
    ("plain", "-n 1 -r 1 -a"),
    ("plain", "-n 1 -r 2.5 -c 50 -a"),
    ("plain", "-n 2 -t 1 -a -d"),
    ("w", "-n 2 -t 1 -w 1.2 -2 4 -u -a -d"),
    ("plain", "-n 2 -t 2 -a -d"),
    ("w", "-n 2 -t 2 -w 1.2 -2 4 -a -d"),
    ("plain", "-n 2 -t 3 -a"),
    ("plain", "-n 2 -M -a -d"),
    ("w", "-n 2 -M -w 1.2 -2 4 -a -d"),
    ("w", "-n 2 -m -M -w 1.2 -2 4 -U -a -d"),
    ("plain", "-n 2 -m -M -x -a -d"),
    ("w", "-n 4 -w 1.2 -2 4 -u -m -s -a -d"),            # the benchmark's options
    ("w", "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m"),   # pyrouge's defaults
    ("w", "-n 3 -m -s -l 30 -f B -p 0.7 -c 80 -r 300 -w 1.4 -2 3 -U -a -d"),
    ("w", "-n 2 -m -s -b 100 -t 1 -w 1.2 -2 4 -u -a -d"),
    ("plain", "-adn2 -2-1 -U"),                           # Getopt::Std bundling
    ("plain", "-n 0 -a"),
    ("plain", "-n 2.7 -f C -a"),                          # -f other than B: the average
]

CORPORA = {
    "plain": dict(seed=11, n=40, allow_empty_refs=True),
    "w": dict(seed=12, n=40, allow_empty_refs=False),
}


@pytest.fixture(scope="module")
def corpus_dirs(tmp_path_factory):
    """Each corpus written once (SPL, one system "A")."""
    ora = oracle()
    dirs = {}
    for name, spec in CORPORA.items():
        items = ora.gen_items(spec["seed"], spec["n"], allow_empty_refs=spec["allow_empty_refs"])
        d = tmp_path_factory.mktemp("corpus-" + name)
        write_inputs(d, items_to_evals(items))
        dirs[name] = d
    return dirs


@pytest.mark.parametrize("corpus,options", OPTION_SETS,
                         ids=["%s:%s" % (c, o.replace(" ", "")) for c, o in OPTION_SETS])
def test_options(corpus_dirs, monkeypatch, corpus, options):
    perl = compare(corpus_dirs[corpus], options.split() + ["config.xml"], monkeypatch)
    assert perl.returncode == 0 and perl.stdout, perl


def test_system_id_instead_of_all(corpus_dirs, monkeypatch):
    compare(corpus_dirs["plain"], ["-n", "2", "-d", "config.xml", "A"], monkeypatch)


def test_unknown_system_id(corpus_dirs, monkeypatch):
    """Every evaluation lacks the system: a warning each on stderr, zeros."""
    perl = compare(corpus_dirs["plain"], ["-n", "1", "config.xml", "Z"], monkeypatch)
    assert b"0.00000" in perl.stdout


def test_option_after_config_is_a_system_id(corpus_dirs, monkeypatch):
    """Getopt::Std stops at the first word that is not an option."""
    compare(corpus_dirs["plain"], ["-n", "1", "config.xml", "-a"], monkeypatch)


# --- formats, file lists, several systems -------------------------------------------

@pytest.mark.parametrize("fmt", ["SPL", "SEE", "ISI"])
def test_input_formats(tmp_path, monkeypatch, fmt):
    items = oracle().gen_items(21, 30, allow_empty_refs=False)
    write_inputs(tmp_path, items_to_evals(items), fmt=fmt)
    compare(tmp_path, "-n 2 -w 1.2 -2 4 -u -m -a -d config.xml".split(), monkeypatch)
    compare(tmp_path, "-n 1 -l 12 -a -d config.xml".split(), monkeypatch)
    compare(tmp_path, "-n 1 -b 40 -a -d config.xml".split(), monkeypatch)


@pytest.mark.parametrize("fmt", ["SPL", "SEE", "ISI"])
def test_file_list(tmp_path, monkeypatch, fmt):
    items = oracle().gen_items(22, 30, allow_empty_refs=False)
    write_inputs(tmp_path, items_to_evals(items), fmt=fmt, file_list=True)
    with open(tmp_path / "config.lst", "a") as f:
        f.write("# a comment line\n\n   \n")
    compare(tmp_path, ["-n", "2", "-w", "1.2", "-d", "-z", fmt, "config.lst"], monkeypatch)
    compare(tmp_path, ["-n", "2", "-a", "-z", fmt.lower(), "config.lst", "sys1"], monkeypatch)


def test_several_systems(tmp_path, monkeypatch):
    """Systems sorted as strings, each averaged over the evaluations that
    have it; missing summaries leave the evaluation out (a warning)."""
    ora = oracle()
    refs = ora.gen_items(31, 25, allow_empty_refs=False)
    cands = [ora.gen_items(seed, 25) for seed in (32, 33, 34)]
    evals = []
    for i, it in enumerate(refs):
        peers = {"B": cands[0][i]["candidate"], "A10": cands[1][i]["candidate"],
                 "A9": cands[2][i]["candidate"]}
        if i % 4 == 1:
            peers["A9"] = None            # this evaluation has no summary of A9
        if i % 7 == 3:
            del peers["B"]
        evals.append({"id": str(i + 1), "peers": peers, "models": it["references"]})
    write_inputs(tmp_path, evals)
    compare(tmp_path, "-n 2 -w 1.2 -2 4 -u -a -d config.xml".split(), monkeypatch)
    compare(tmp_path, "-n 2 -t 1 -a -d config.xml".split(), monkeypatch)
    compare(tmp_path, "-n 1 -d config.xml A9".split(), monkeypatch)


def test_missing_system_named_in_non_ascii(tmp_path, monkeypatch):
    """A system ID from the command line that no evaluation has, not ASCII:
    the script's warnings on stderr and its scores, the ID as typed."""
    items = oracle().gen_items(51, 3, allow_empty_refs=False)
    evals = [{"id": str(i + 1), "peers": {"A": it["candidate"]}, "models": it["references"]}
             for i, it in enumerate(items)]
    write_inputs(tmp_path, evals)
    argv = ["-n", "1", "config.xml", "\u00e9t\u00e9"]
    perl = compare(tmp_path, argv, monkeypatch)
    assert "peer \u00e9t\u00e9 does not exist for evaluation 1" in perl.stderr
    assert run_kit(tmp_path, argv).stderr == perl.stderr


def test_evaluation_ids_order(tmp_path, monkeypatch):
    """Instances sort as strings for the bootstrap and by leading number for
    -d; non-numeric IDs sort as strings."""
    items = oracle().gen_items(41, 14, allow_empty_refs=False)
    ids = ["10", "9", "100", "2", "d3", "d10", "x", "1", "007", "20b", "3.5", "b", "a1", "11"]
    evals = [{"id": eid, "peers": {"A": it["candidate"]}, "models": it["references"]}
             for eid, it in zip(ids, items)]
    write_inputs(tmp_path, evals)
    compare(tmp_path, "-n 2 -a -d config.xml".split(), monkeypatch)


# --- edge cases -------------------------------------------------------------------------

EDGE = [
    ("", ["the cat sat on the mat"]),                          # empty peer
    ("...\n!!! ???", ["a b c"]),                               # punctuation only
    ("the cat", ["", "the cat sat"]),                          # an empty model
    ("   \n\t\n", ["word"]),                                   # blank lines
    ("well-known fact -- e-mail x-ray", ["well known facts, e mail"]),
    ("4:00pm $50 1,000 3.5 2001 #1 50% 1990s", ["at 4 00pm 1 000 dollars 2001 1990"]),
    ("can't won't it's the sky's yesterday's", ["can t won t it s the sky"]),
    ("caf\u00e9 na\u00efve \u2014 \u201cquoted\u201d r\u00e9sum\u00e9", ["caf na ve quoted r sum"]),
    (b"latin-1 caf\xe9 \xff\xfe bytes\r\nsecond\rline", [b"caf bytes second line\r"]),
    ("a a a a", ["a b a c"]),                                  # clipping
    ("b a", ["a b"]),                                          # SU quirk
    ("a", ["a"]),
    ("  leading blank counts as a word", ["leading blank counts"]),
    ("THE CAT SAT\nOn The Mat", ["the cat sat on the mat"]),
    ("said went better best data children feet made found left",
     ["say go well good datum child foot make find leave"]),
    ("agreement statement argument movement sentiment fundamental",
     ["agree state argue move sentiments fundamentally"]),
    ("the of and a is was it reuters jan mon", ["the of and is reuters"]),
    ("a b c d e f g h i j", ["a c e g i b d f h j", "j i h g f e d c b a"]),
    ("x y z\nx y z\nx y z", ["x y z x y z", "z y x"]),
]


def _edge_evals():
    return [{"id": str(i + 1), "peers": {"A": c}, "models": refs}
            for i, (c, refs) in enumerate(EDGE)]


@pytest.mark.parametrize("options", [
    "-n 3 -a -d", "-n 2 -m -s -a -d", "-x -2 4 -u -a -d", "-x -2 -1 -U -m -a -d",
    "-n 2 -l 3 -a -d", "-n 2 -b 12 -a -d", "-n 2 -f B -a -d", "-n 1 -t 1 -a -d",
    "-n 1 -M -2 2 -a -d"])
def test_edge_cases(tmp_path, monkeypatch, options):
    write_inputs(tmp_path, _edge_evals())
    compare(tmp_path, options.split() + ["config.xml"], monkeypatch)


def test_rouge_w_on_a_model_without_tokens(tmp_path, monkeypatch):
    """The script dies ("Illegal division by zero"); rougekit exits 2 and
    names the model's file."""
    write_inputs(tmp_path, _edge_evals())
    perl = compare(tmp_path, "-n 1 -w 1.2 -a config.xml".split(), monkeypatch)
    assert perl.returncode != 0 and "division by zero" in perl.stderr
    kit = run_kit(tmp_path, "-n 1 -w 1.2 -a config.xml".split())
    assert "models/3.0.txt" in kit.stderr and "no tokens" in kit.stderr


def test_long_texts(tmp_path, monkeypatch):
    """Summaries of hundreds of words in a few long sentences."""
    ora = oracle()
    items = ora.gen_items(51, 60, allow_empty_refs=False)
    evals = []
    for i in range(sweep(3, 1)):     # the pure kernel takes a minute on all three
        chunk = items[20 * i:20 * i + 20]
        cand = " ".join(it["candidate"].replace("\n", " ") for it in chunk)
        refs = ["\n".join(" ".join(r.replace("\n", " ") for r in it["references"])
                          for it in chunk[k::2]) for k in range(2)]
        evals.append({"id": str(i + 1), "peers": {"A": cand}, "models": refs})
    write_inputs(tmp_path, evals)
    compare(tmp_path, "-n 4 -w 1.2 -2 4 -u -m -a -d config.xml".split(), monkeypatch)
    compare(tmp_path, "-x -2 -1 -U -s -a -d config.xml".split(), monkeypatch)


def test_skip_bigrams_of_a_peer_with_many_distinct_tokens(tmp_path, monkeypatch):
    """A peer with more distinct tokens than the kernel counts in flat
    arrays (its skip-bigrams go to a hash table, its n-grams are counted
    pair by pair), beside one that fits."""
    wide = " ".join("x%d y%d" % (k, k % 7) for k in range(1100))
    evals = [{"id": "1", "peers": {"A": wide},
              "models": [" ".join("x%d y%d" % (k, k % 5) for k in range(0, 1500, 2)),
                         "y1 x1 y2 x2 y3\nx5 y5 y5 x5"]},
             {"id": "2", "peers": {"A": "y1 x1 y2 x2 y1 x1"}, "models": ["x1 y1 x1 y1 x9"]}]
    write_inputs(tmp_path, evals)
    compare(tmp_path, "-x -n 3 -2 4 -u -a -d config.xml".split(), monkeypatch)
    compare(tmp_path, "-x -n 1 -2 1 -a -d config.xml".split(), monkeypatch)


def test_weighted_lcs_on_few_distinct_words(tmp_path, monkeypatch):
    """ROUGE-W's table where words repeat: rows with several matches, rows
    that decrease along the peer, runs of matches, sentences of one word,
    and weights below and above 1 (the kernel's shortcuts for rows without
    or with one match must give the cell loop's numbers)."""
    rng = random.Random(17)

    def text(words):
        return "\n".join(" ".join(rng.choice(words) for _ in range(rng.randint(1, 14)))
                         for _ in range(rng.randint(1, 3)))

    evals = []
    for i in range(40):
        words = ["alpha", "beta", "gamma", "delta", "omega"][:rng.randint(1, 5)]
        evals.append({"id": str(i + 1), "peers": {"A": text(words)},
                      "models": [text(words) for _ in range(rng.randint(1, 3))]})
    write_inputs(tmp_path, evals)
    for weight in ("1.2", "0.5", "3"):
        compare(tmp_path, ("-x -n 1 -w %s -a -d config.xml" % weight).split(), monkeypatch)
    compare(tmp_path, "-x -n 1 -w 1.5 -f B -t 1 -a -d config.xml".split(), monkeypatch)


@pytest.mark.parametrize("seed", [61, 62, 63])
def test_random_corpora(tmp_path, monkeypatch, seed):
    """More seeds, many options at once."""
    items = oracle().gen_items(seed, 30, max_refs=4, allow_empty_refs=False)
    write_inputs(tmp_path, items_to_evals(items))
    compare(tmp_path, "-n 4 -w 1.2 -2 4 -U -m -s -a -d config.xml".split(), monkeypatch)
    compare(tmp_path, "-n 2 -l 20 -f B -t 1 -w 1.2 -a -d config.xml".split(), monkeypatch)
