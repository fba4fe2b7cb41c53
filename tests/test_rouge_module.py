"""``python -m rougekit.rouge`` and ``rougekit.io`` write what rouge-score's
``python -m rouge_score.rouge`` and ``rouge_score.io`` write."""
import subprocess
import sys

import pytest

TARGETS = "The cat sat on the mat.\nA dog ran home.\nRunning fast!\n"
PREDICTIONS = "the cat is on the mat\nthe dog ran home\nran fast\n"


def _files(tmp_path):
    (tmp_path / "t.txt").write_text(TARGETS)
    (tmp_path / "p.txt").write_text(PREDICTIONS)
    return str(tmp_path / "t.txt"), str(tmp_path / "p.txt")


def _run(module, tmp_path, *flags):
    t, p = _files(tmp_path)
    out = tmp_path / f"{module}.csv"
    proc = subprocess.run([sys.executable, "-m", module, f"--target_filepattern={t}",
                           "--prediction_filepattern", p, f"--output_filename={out}", *flags],
                          capture_output=True, text=True, timeout=120)
    return proc, out


@pytest.mark.parametrize("flags", [
    ("--noaggregate",),
    ("--aggregate=false", "--use_stemmer", "--rouge_types=rouge1,rougeL,rougeLsum"),
    ("--aggregate=false", "--delimiter=.",),
])
def test_per_record_csv_equals_rouge_scores(tmp_path, flags):
    ours, our_csv = _run("rougekit.rouge", tmp_path, *flags)
    theirs, their_csv = _run("rouge_score.rouge", tmp_path, *flags)
    if theirs.returncode != 0:
        # "." splits the two files into different numbers of records: both refuse.
        assert "ValueError" in theirs.stderr
        assert ours.returncode == 1 and "equal number" in ours.stderr
        return
    assert ours.returncode == 0, ours.stderr
    assert our_csv.read_text() == their_csv.read_text()


def test_aggregate_csv_has_rouge_scores_rows(tmp_path):
    # The bootstrap draws from numpy's global stream, unseeded in both tools:
    # the rows and the mid (a median of resampled means) layout are compared.
    ours, our_csv = _run("rougekit.rouge", tmp_path)
    theirs, their_csv = _run("rouge_score.rouge", tmp_path)
    assert ours.returncode == 0 and theirs.returncode == 0, ours.stderr + theirs.stderr
    rows = lambda path: [line.split(",")[0] for line in path.read_text().splitlines()]
    assert rows(our_csv) == rows(their_csv)


def test_bad_flags_are_one_line_and_exit_1(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "rougekit.rouge", "--nonsense=1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "nonsense" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "rougekit.rouge"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "target_filepattern" in proc.stderr


def test_io_raises_as_rouge_score(tmp_path):
    from rouge_score import io as ref_io
    from rouge_score import rouge_scorer as ref_scorer

    from rougekit import io, rouge_scorer
    t, p = _files(tmp_path)
    (tmp_path / "short.txt").write_text("one\n")
    for mod, scorer in ((io, rouge_scorer.RougeScorer(["rouge1"])),
                        (ref_io, ref_scorer.RougeScorer(["rouge1"]))):
        with pytest.raises(ValueError):
            mod.compute_scores_and_write_to_csv(str(tmp_path / "none*"), p, "x", scorer, None)
        with pytest.raises(ValueError):
            mod.compute_scores_and_write_to_csv(t, str(tmp_path / "short.txt"),
                                                str(tmp_path / "o.csv"), scorer, None)
