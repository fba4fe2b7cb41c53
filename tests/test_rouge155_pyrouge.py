"""pyrouge (PyPI) unchanged, on the real ROUGE-1.5.5.pl and on rougekit's stand-in.

``rougekit rouge155 --install-script DIR`` writes ``DIR/ROUGE-1.5.5.pl``
and ``DIR/data``; ``pyrouge.Rouge155(rouge_dir=DIR)`` then runs rougekit.
The same summaries go through pyrouge twice, once with a home directory
holding the real script (run by Perl) and once with the stand-in: the
output text and pyrouge's result dict must be equal. pyrouge converts the
texts to SEE files, writes its XML configuration and passes its default
options (``-e DIR/data -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m``), then
files2rouge's (``-c 95 -r 1000 -n 2 -a``).
"""
import os
import stat

import pytest

from _rouge155 import oracle
from rougekit.rouge155.cli import install_script

pyrouge = pytest.importorskip("pyrouge", reason="pyrouge is not installed (pip install pyrouge)")


def _real_home(path):
    """A ROUGE home for the real script: an executable ROUGE-1.5.5.pl that
    runs it with Perl, and data/ with the WordNet DB the oracle built."""
    ora = oracle()
    path.mkdir()
    wrapper = path / "ROUGE-1.5.5.pl"
    wrapper.write_text('#!/bin/sh\nexec perl "%s" "$@"\n' % ora.rouge_script())
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    (path / "data").symlink_to(ora.DATA_DIR, target_is_directory=True)
    return path


@pytest.fixture(scope="module")
def summaries(tmp_path_factory):
    items = oracle().gen_items(91, 15, max_refs=3, allow_empty_refs=False)
    root = tmp_path_factory.mktemp("pyrouge-texts")
    (root / "system").mkdir()
    (root / "model").mkdir()
    for i, it in enumerate(items):
        (root / "system" / ("s.%d.txt" % i)).write_text(it["candidate"], encoding="utf-8")
        for k, ref in enumerate(it["references"]):
            name = "m.%s.%d.txt" % ("ABCD"[k], i)
            (root / "model" / name).write_text(ref, encoding="utf-8")
    return root


def _evaluate(home, summaries, rouge_args=None):
    r = pyrouge.Rouge155(rouge_dir=str(home))
    r.system_dir = str(summaries / "system")
    r.model_dir = str(summaries / "model")
    r.system_filename_pattern = r"s.(\d+).txt"
    r.model_filename_pattern = "m.[A-Z].#ID#.txt"
    output = r.convert_and_evaluate(rouge_args=rouge_args)
    return output, r.output_to_dict(output)


@pytest.mark.parametrize("rouge_args", [None, "-e {data} -c 95 -r 1000 -n 2 -a"],
                         ids=["pyrouge-defaults", "files2rouge-defaults"])
def test_pyrouge_same_result_with_the_stand_in(tmp_path, monkeypatch, summaries, rouge_args):
    monkeypatch.setenv("HOME", str(tmp_path))         # pyrouge writes ~/.pyrouge/settings.ini
    real = _real_home(tmp_path / "real")
    kit = tmp_path / "kit"
    install_script(str(kit))
    args_real = rouge_args and rouge_args.format(data=real / "data")
    args_kit = rouge_args and rouge_args.format(data=kit / "data")
    out_real, dict_real = _evaluate(real, summaries, args_real)
    out_kit, dict_kit = _evaluate(kit, summaries, args_kit)
    assert "ROUGE-1 Average_R" in out_real
    assert len(dict_real) >= 18
    assert out_kit == out_real
    assert dict_kit == dict_real
    assert os.path.isfile(tmp_path / ".pyrouge" / "settings.ini")
