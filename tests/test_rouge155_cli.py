"""``rougekit rouge155``: entry points, the stand-in script, and bad input.

Bad input is one line on stderr and exit status 2, with nothing on stdout:
where the script dies (-l with -b, -r 0, ROUGE-W against a model without
tokens, a missing file, a malformed configuration) and where it would read
a value it does not understand. These tests need no Perl.
"""
import os
import shutil
import stat
import subprocess
import sys

import pytest

from _rouge155 import run_kit, run_kit_process, write_inputs
from rougekit.rouge155 import cli

pytestmark = pytest.mark.kernel

EVALS = [
    {"id": "1", "peers": {"A": "The cat sat on the mat.\nIt was happy.",
                          "B": "A dog barked."},
     "models": ["The cat was sitting on the mat.", "A happy cat sat there."]},
    {"id": "2", "peers": {"A": "Stocks fell sharply on Monday.", "B": "Markets fell."},
     "models": ["Stock markets fell sharply on Monday."]},
    {"id": "3", "peers": {"A": "", "B": "Rain is expected."},
     "models": ["Heavy rain is expected tomorrow.", "Rain tomorrow."]},
]


@pytest.fixture
def workdir(tmp_path):
    write_inputs(tmp_path, EVALS)
    return tmp_path


def test_module_and_console_script(workdir):
    """``python -m rougekit rouge155``, the ``rougekit`` console script and
    the function agree; -e must name a data folder."""
    argv = ["-n", "2", "-w", "1.2", "-2", "4", "-u", "-m", "-a", "-d", "config.xml"]
    inproc = run_kit(workdir, argv)
    assert inproc.returncode == 0 and inproc.stdout.startswith(b"-" * 45 + b"\nA ROUGE-1 ")
    module = run_kit_process(workdir, argv)
    assert (module.returncode, module.stdout) == (0, inproc.stdout)
    exe = shutil.which("rougekit")
    if exe:
        script = run_kit_process(workdir, argv, exe, "rouge155")
        assert (script.returncode, script.stdout) == (0, inproc.stdout)
    # -e names the data folder, as in the script: one that lacks the files is an error
    missing = run_kit(workdir, ["-e", "/nonexistent"] + argv)
    assert missing.returncode == 2 and missing.stdout == b""
    assert "/nonexistent/smart_common_words.txt" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1


def test_help(workdir):
    for flag in ("-h", "-H", "--help"):
        r = run_kit(workdir, [flag])
        assert r.returncode == 0 and b"CONFIG [SYSTEM_ID]" in r.stdout
    top = subprocess.run([sys.executable, "-m", "rougekit", "--help"], capture_output=True,
                         text=True)
    assert "rouge155" in top.stdout


@pytest.mark.parametrize("argv,message", [
    ("-l 5 -b 5 -a config.xml", "not both"),
    ("-r 0 -a config.xml", "option -r"),
    ("-r -3 -a config.xml", "option -r"),
    ("-q -a config.xml", "unknown option -q"),
    ("-3 HM -a config.xml", "option -3"),
    ("-v -a config.xml", "option -v"),
    ("-c 101 -a config.xml", "option -c"),
    ("-p 1.5 -a config.xml", "option -p"),
    ("-w 0 -a config.xml", "option -w"),
    ("-w abc -a config.xml", "option -w: 'abc' is not a number"),
    ("-n 0x10 -a config.xml", "option -n"),
    ("-n nan -a config.xml", "option -n"),
    ("-a missing.xml", "missing.xml"),
    ("config.xml", "system ID"),
    ("-a", "configuration file"),
    ("", "configuration file"),
    ("-a config.xml A B", "too many arguments"),
    ("-a -n", "option -n needs a value"),
    ("-z SIMPLE list.txt", "unknown input format 'SIMPLE'"),
    ("-z SPL short.txt", "short.txt line 2"),
    ("-a bad.xml", "bad.xml line"),
    ("-a -w 1.2 config.xml", "models/3.1.txt has no tokens"),
    ("-a noformat.xml", "peers/1.A.txt: no input format given"),
    ("-a gone.xml", "cannot read"),
    ("--install-script", "one directory"),
])
def test_errors_are_one_line_and_exit_2(workdir, argv, message):
    (workdir / "list.txt").write_text("peers/1.A.txt models/1.0.txt\n")
    (workdir / "short.txt").write_text("peers/1.A.txt models/1.0.txt\npeers/2.A.txt\n")
    (workdir / "bad.xml").write_text("<ROUGE-EVAL>\n<EVAL ID='1'>\n")
    (workdir / "noformat.xml").write_text(
        '<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>peers</PEER-ROOT><MODEL-ROOT>models</MODEL-ROOT>'
        '<PEERS><P ID="A">1.A.txt</P></PEERS><MODELS><M ID="1">1.0.txt</M></MODELS></EVAL>'
        '</ROUGE-EVAL>')
    (workdir / "gone.xml").write_text(
        '<ROUGE-EVAL><EVAL ID="1"><PEER-ROOT>peers</PEER-ROOT><MODEL-ROOT>models</MODEL-ROOT>'
        '<INPUT-FORMAT TYPE="SPL"/><PEERS><P ID="A">nothere.txt</P></PEERS>'
        '<MODELS><M ID="1">1.0.txt</M></MODELS></EVAL></ROUGE-EVAL>')
    (workdir / "models" / "3.1.txt").write_text("... !!!\n")
    r = run_kit(workdir, argv.split())
    assert r.returncode == 2, r
    assert r.stdout == b""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("rougekit rouge155: error: ")
    assert message in r.stderr, r.stderr


def test_errors_in_a_new_process(workdir):
    r = run_kit_process(workdir, ["-l", "5", "-b", "5", "-a", "config.xml"])
    assert r.returncode == 2 and r.stdout == b"" and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0


def test_missing_system_warns_on_stderr(workdir):
    r = run_kit(workdir, ["-n", "1", "config.xml", "C"])
    assert r.returncode == 0
    assert r.stderr.splitlines() == [
        "*ROUGE Warning: test instance for peer C does not exist for evaluation %d" % i
        for i in (1, 2, 3)]
    assert b"C ROUGE-1 Average_R: 0.00000 (95%-conf.int. 0.00000 - 0.00000)" in r.stdout


def test_install_script(workdir, tmp_path_factory):
    """--install-script writes an executable ROUGE-1.5.5.pl and data/: the
    layout pyrouge and files2rouge check for; it prints this command's output."""
    home = tmp_path_factory.mktemp("home") / "ROUGE"
    r = run_kit(workdir, ["--install-script", str(home)])
    assert r.returncode == 0 and b"ROUGE-1.5.5.pl" in r.stdout
    script = home / "ROUGE-1.5.5.pl"
    assert script.stat().st_mode & stat.S_IXUSR
    assert sorted(os.listdir(home / "data")) == ["NOTICE.md", "README.txt",
                                                 "smart_common_words.txt",
                                                 "wordnet-2.0-exceptions.txt"]
    argv = ["-e", str(home / "data"), "-n", "2", "-2", "-1", "-U", "-m", "-a", "config.xml"]
    direct = subprocess.run([str(script)] + argv, cwd=workdir, capture_output=True)
    assert direct.returncode == 0, direct.stderr
    assert direct.stdout == run_kit(workdir, argv).stdout
    bad = subprocess.run([str(script), "-l", "1", "-b", "1", "x"], cwd=workdir,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith(str(script) + ": error:")


@pytest.mark.parametrize("system", [b"\xc3\xa9", b"\xe9", b"A\xc3\xa9\xe2\x82\xac"],
                         ids=["utf8", "latin1", "utf8-euro"])
def test_system_id_from_the_command_line_round_trips(workdir, system):
    """A system ID given on the command line comes back as its bytes, in the
    warning for the evaluations it has no summary in and in the scores
    (the script's behaviour: it prints Perl's bytes back). It was printed
    re-encoded in the warning (`é` as `Ã©`). The bytes are given as they are,
    so the test holds for any locale's encoding (UTF-8 `é`, Latin-1 `é`)."""
    proc = subprocess.run([os.fsencode(sys.executable), b"-m", b"rougekit", b"rouge155",
                           b"-n", b"1", b"config.xml", system], cwd=workdir,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        b"*ROUGE Warning: test instance for peer %s does not exist for evaluation %d"
        % (system, i) for i in (1, 2, 3)]
    assert system + b" ROUGE-1 Average_R: 0.00000" in proc.stdout


REAL_SCRIPT = b"#!/usr/bin/perl -w\n# ROUGE-1.5.5.pl, the real one\n"


def test_install_script_keeps_a_script_it_did_not_write(tmp_path):
    """--install-script into a folder holding a ROUGE-1.5.5.pl that rougekit
    did not write: one line naming it, exit 2, nothing written; --force
    overwrites it."""
    home = tmp_path / "ROUGE"
    home.mkdir()
    script = home / "ROUGE-1.5.5.pl"
    script.write_bytes(REAL_SCRIPT)
    r = run_kit_process(tmp_path, ["--install-script", home])
    assert (r.returncode, r.stdout) == (2, b""), r
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert str(script) in r.stderr and "--force" in r.stderr, r.stderr
    assert script.read_bytes() == REAL_SCRIPT
    assert os.listdir(home) == ["ROUGE-1.5.5.pl"]          # no data/ either
    with pytest.raises(cli.InstallConflict) as caught:
        cli.install_script(str(home))
    assert caught.value.filename == str(script)

    forced = run_kit_process(tmp_path, ["--install-script", home, "--force"])
    assert forced.returncode == 0, forced
    assert b"written by `rougekit rouge155 --install-script`" in script.read_bytes()
    assert script.stat().st_mode & stat.S_IXUSR


def test_install_script_rewrites_its_own_stand_in(tmp_path):
    """A stand-in rougekit wrote (the same, or for another interpreter) is
    rewritten without --force; a data file of other content beside no
    stand-in is refused, named."""
    home = tmp_path / "ROUGE"
    assert run_kit_process(tmp_path, ["--install-script", home]).returncode == 0
    assert run_kit_process(tmp_path, ["--install-script", home]).returncode == 0
    script = home / "ROUGE-1.5.5.pl"
    other = script.read_bytes().replace(os.fsencode(sys.executable), b"/opt/other/python")
    script.write_bytes(other)
    again = run_kit_process(tmp_path, ["--install-script", home])
    assert again.returncode == 0, again
    assert os.fsencode(sys.executable) in script.read_bytes()

    data_only = tmp_path / "data-only"
    (data_only / "data").mkdir(parents=True)
    stopwords = data_only / "data" / "smart_common_words.txt"
    stopwords.write_bytes(b"the\na\n")
    r = run_kit_process(tmp_path, ["--install-script", data_only])
    assert r.returncode == 2 and str(stopwords) in r.stderr, r
    assert stopwords.read_bytes() == b"the\na\n"


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_install_script_force_replaces_a_link_not_its_target(tmp_path):
    real = tmp_path / "real" / "ROUGE-1.5.5.pl"
    real.parent.mkdir()
    real.write_bytes(REAL_SCRIPT)
    home = tmp_path / "ROUGE"
    home.mkdir()
    (home / "ROUGE-1.5.5.pl").symlink_to(real)
    assert run_kit_process(tmp_path, ["--install-script", home]).returncode == 2
    assert run_kit_process(tmp_path, ["--install-script", home, "--force"]).returncode == 0
    assert real.read_bytes() == REAL_SCRIPT
    assert not (home / "ROUGE-1.5.5.pl").is_symlink()


def test_broken_pipe_is_quiet(workdir):
    cmd = "%s -m rougekit rouge155 -n 4 -a -d config.xml | head -c 10" % sys.executable
    r = subprocess.run(cmd, shell=True, cwd=workdir, capture_output=True, text=True)
    assert "Traceback" not in r.stderr and len(r.stdout) == 10


def test_usage_names_every_option():
    for flag in "-a -d -n -x -w -2 -u -U -m -M -s -l -b -f -p -c -r -t -z -e -h".split():
        assert "  " + flag + " " in cli.USAGE or "  " + flag + "," in cli.USAGE, flag
    assert "--install-script DIR [--force]" in cli.USAGE and "--force does" in cli.USAGE
