"""``rougekit rouge155`` on the inputs real installations and hostile files
bring (issue "Hardening"): the script's output where the script scores them,
one line and exit 2 where it cannot."""
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
