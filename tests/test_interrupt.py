"""Ctrl-C stops every threaded path at once, whatever the size of the input and
the load on the machine: score_batch, score_columns, score_ids, RougeIndex,
deduplicate, Rouge155 and the command line (`rougekit score`).

Each case runs the real work on 200,000 long pairs (or texts) in a child
process, minutes of it. The child sends itself SIGINT, as a Ctrl-C would,
once its main thread is inside the named function (one phase of the work)
and has used some CPU there (tests/_helpers.py's INTERRUPT_WHEN_BUSY: it
waits on those events, not on the clock, so a busy machine slows the child
down without changing what is tested), and records the CPU time it has used
so far. The test asks for KeyboardInterrupt (the command line: its one-line
message and status 130) with at most CPU_LIMIT seconds of CPU used from the
signal to the exit, all threads and the interpreter's exit included (the
child's whole CPU time comes from the operating system when it ends): however
long a kernel call of the work would take, the calling thread only waits, and
the workers stop at their next check (rougekit._workers). CPU time, not the
clock: on a machine with more runnable threads than cores, the clock from
signal to exit stretches with the load (a run beside other work took 1.35 s
where a quiet one takes 0.1 s) while the work done does not. A generous
clock bound (WALL_LIMIT) still catches a child that stops working but waits
(a join that never returns).
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

import pytest

import rougekit
from _helpers import INTERRUPT_WHEN_BUSY, child_env

pytestmark = [pytest.mark.threads, pytest.mark.skipif(
    sys.platform == "win32", reason="SIGINT to a child process is POSIX only")]

#: CPU seconds the child may use from the signal to its exit (every thread).
CPU_LIMIT = 1.0
#: Seconds by the clock from the signal to the child's exit: only a hang fails.
WALL_LIMIT = 30.0

_PRELUDE = INTERRUPT_WHEN_BUSY + '''
import warnings
warnings.simplefilter("ignore")
WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
         "omicron pi rho sigma tau upsilon phi chi psi omega").split()

def text(n, step=7, start=0, per_line=0):
    """n words; every per_line words a new line (0: one line)."""
    out = [WORDS[(start + i * step) % len(WORDS)] for i in range(n)]
    if per_line:
        return "\\n".join(" ".join(out[i:i + per_line]) for i in range(0, n, per_line))
    return " ".join(out)

def windows(count, n):
    """count different texts of n words, windows of one long text."""
    long = text(n + 5000, step=3).split()
    return [" ".join(long[i % 5000:i % 5000 + n]) for i in range(count)]
'''

# The objects of the set-up (and of the modules imported) are frozen out of
# the collector: else the child's exit spends a good part of a second
# collecting them, seconds for a large set-up (the interpreter's work, not
# rougekit's), and on a busy machine that alone can pass the limit.
_RUN = '''
import gc
gc.freeze()
interrupt_when_busy({where!r})
interrupted = False
try:
    {run}
except KeyboardInterrupt:
    interrupted = True      # (exiting here would keep the work's objects alive to the end)
if interrupted:
    print("interrupted", *map(repr, SENT[0]), flush=True)
    sys.exit(3)
print("finished", flush=True)
'''

N = 200000

# id: (set-up, where the main thread is when the signal comes: a call that
# hands work to the pool, so that the signal lands while workers run it;
# the work)
CASES = {
    # 6,000-word pairs: a second or so per chunk of pairs; the engine polls
    # its Cancel between pairs.
    "score_batch": (
        "from rougekit import rouge_scorer\n"
        "a, b = text(6000), text(6000, step=3)\n"
        "scorer = rouge_scorer.RougeScorer(['rougeL', 'rougeLsum', 'rouge2'])\n",
        "score_batch/map_chunks", f"scorer.score_batch([a] * {N}, [b] * {N})"),
    "score_batch-1-thread": (
        "from rougekit import rouge_scorer\n"
        "a, b = text(6000), text(6000, step=3)\n"
        "scorer = rouge_scorer.RougeScorer(['rougeL', 'rougeLsum', 'rouge2'])\n",
        "score_batch/map_chunks", f"scorer.score_batch([a] * {N}, [b] * {N}, threads=1)"),
    "score_columns": (
        "from rougekit import rouge_scorer\n"
        "a, b = text(6000), text(6000, step=3)\n"
        "scorer = rouge_scorer.RougeScorer(['rouge1', 'rougeL'], use_stemmer=True)\n",
        "score_matrix/map_chunks", f"scorer.score_columns([a] * {N}, [b] * {N})"),
    # 6,000-id rows, one row broadcast to 200,000 (read in place: no memory):
    # a millisecond or so per pair; the kernel looks at the Cancel every few
    # million token steps, the pool between chunks.
    "score_ids": (
        "import numpy as np, rougekit\n"
        "row = (np.arange(6000, dtype=np.int32) * 7) % 500\n"
        f"preds = np.broadcast_to(row, ({N}, 6000))\n"
        f"refs = np.broadcast_to(row[::-1].copy(), ({N}, 6000))\n",
        "_score/map_chunks",
        "rougekit.score_ids(preds, refs, ['rougeL', 'rougeLsum', 'rouge2'], sentence_sep=7)"),
    "score_ids-1-thread": (
        "import numpy as np, rougekit\n"
        "row = (np.arange(6000, dtype=np.int32) * 7) % 500\n"
        f"preds = np.broadcast_to(row, ({N}, 6000))\n"
        f"refs = np.broadcast_to(row[::-1].copy(), ({N}, 6000))\n",
        "_score/map_chunks",
        "rougekit.score_ids(preds, refs, ['rougeL', 'rouge1'], threads=1)"),
    # Storing 300-word texts: tokenized in short kernel calls.
    "RougeIndex-extend": (
        "from rougekit import RougeIndex\n"
        "texts = [text(300, start=k) for k in range(20)] * 10000\n",
        "store/call", "RougeIndex(texts)"),
    # A 6,000-word query against 50-word texts: seconds of rougeL a call.
    "RougeIndex-scores": (
        "from rougekit import RougeIndex\n"
        f"index = RougeIndex(windows({N}, 50))\n"
        "query = text(6000, step=3)\n",
        "scores/map_short", "index.top_k(query, 10)"),
    # The same on one thread: the short calls run on the calling thread.
    "RougeIndex-scores-1-thread": (
        "from rougekit import RougeIndex\n"
        f"index = RougeIndex(windows({N}, 50), threads=1)\n"
        "query = text(6000, step=3)\n",
        "scores/map_short", "index.top_k(query, 10)"),
    "deduplicate-tokenizing": (
        "from rougekit import deduplicate\n"
        "texts = [text(300, start=k) for k in range(20)] * 10000\n",
        "store/call", "deduplicate(texts)"),
    # Dedup's set-up is one kernel call of seconds: left to end by itself.
    "deduplicate-set-up": (
        "from rougekit import deduplicate\n"
        f"texts = windows({N}, 60)\n",
        "_run_dedup/call", "deduplicate(texts)"),
    "deduplicate-blocks": (
        "from rougekit import deduplicate\n"
        f"texts = windows({N}, 60)\n",
        "_run_dedup/run_parts", "deduplicate(texts)"),
    "Rouge155-shards": (
        "from rougekit.rouge155 import Rouge155\n"
        "cands = [text(100, start=k, per_line=20) for k in range(20)] * 10000\n"
        "refs = [[text(100, step=3, start=k, per_line=20)] for k in range(20)] * 10000\n",
        "run_texts/_map", "Rouge155(max_n=2, stem=True, weight=1.2).score_corpus(cands, refs)"),
    # Short texts, scored soon; then 10,000 resamples of 200,000 instances.
    "Rouge155-bootstrap": (
        "from rougekit.rouge155 import Rouge155\n"
        "cands = [text(4, start=k) for k in range(20)] * 10000\n"
        "refs = [[text(4, step=3, start=k)] for k in range(20)] * 10000\n",
        "_bootstrap/_map", "Rouge155(max_n=2, resamples=10000).score_corpus(cands, refs)"),
    # A configuration (the CLI's path): its documents built (in bounded
    # kernel calls too), then scored in chunks of evaluations. 20,000 of 300 words: as much work as 200,000
    # short ones, and ten times fewer objects to free on the way out (the
    # interpreter's work, not rougekit's: 200,000 evaluations take a
    # third of a second on a busy machine).
    "Rouge155-configuration": (
        "from rougekit.rouge155 import Rouge155, Config, Evaluation\n"
        "from rougekit.rouge155._corpus import summary\n"
        "cands = [text(300, start=k, per_line=20) for k in range(20)] * 1000\n"
        "refs = [text(300, step=3, start=k, per_line=20) for k in range(20)] * 1000\n"
        "config = Config(evaluations=[Evaluation(id=str(i + 1), input_format='SPL',"
        " peers={'A': summary(c, i)}, models=[('1', summary(r, i, 0))])"
        " for i, (c, r) in enumerate(zip(cands, refs))], systems=['A'])\n",
        "_execute/_map", "Rouge155(max_n=2, stem=True, weight=1.2).score_config(config)"),
}


def _run_child(code, args=(), timeout=600):
    """(exit status, stdout, stderr, when it exited, the CPU seconds it used:
    every thread, from the operating system's account of it, os.wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-c", code, *map(str, args)],
                                stdout=out, stderr=err, env=child_env())
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        exited = time.monotonic()
        proc.returncode = os.waitstatus_to_exitcode(status)   # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode(), err.read().decode(), exited,
                usage.ru_utime + usage.ru_stime)


def _check_stop(name, out, exited, cpu):
    """The child's last line is the clock and its CPU time at the signal."""
    sent, cpu_at_signal = map(float, out.split()[-2:])
    waited, used = exited - sent, cpu - cpu_at_signal
    print(f"{name}: {used:.3f} CPU s and {waited:.3f} s from SIGINT to exit")
    assert used < CPU_LIMIT, f"{name}: {used:.2f} CPU s from SIGINT to exit"
    assert waited < WALL_LIMIT, f"{name}: {waited:.2f} s from SIGINT to exit"


@pytest.mark.parametrize("case", list(CASES))
def test_ctrl_c_stops_the_work_at_once(case):
    if case == "Rouge155-bootstrap" and rougekit.BACKEND == "pure":
        pytest.skip("the pure twin's resample_means loops over the instances: one call, "
                    "of the fewest resamples, takes seconds on 200,000 of them")
    setup, where, run = CASES[case]
    code, out, err, exited, cpu = _run_child(
        _PRELUDE + setup + _RUN.format(where=where, run=run))
    assert code == 3, (code, out, err[-3000:])
    _check_stop(case, out, exited, cpu)


def test_ctrl_c_stops_the_command_line_at_once(tmp_path):
    """`rougekit score` on 200,000 pairs of 60 words: the one-line message,
    status 130 and no traceback, with under CPU_LIMIT of CPU after the signal."""
    line = " ".join(["the cat sat on the mat and the dog ran under the big red rug"] * 4)
    c, r = tmp_path / "c.txt", tmp_path / "r.txt"
    c.write_text((line + "\n") * N)
    r.write_text((line[::-1] + "\n") * N)
    code, out, err, exited, cpu = _run_child(
        INTERRUPT_WHEN_BUSY + "interrupt_when_busy('score_matrix/map_chunks')\n"
        "import gc, rougekit.cli\n"
        "gc.freeze()\n"                  # as in _RUN: the modules' objects
        "status = rougekit.cli.main(sys.argv[1:])\n"
        "print(*map(repr, SENT[0]) if SENT else ['none'], flush=True)\n"
        "sys.exit(status)\n",
        ["score", "--candidates", c, "--references", r, "--rouge-types", "rougeL,rougeLsum"])
    assert code == 130, (code, out, err[-3000:])
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "rougekit: interrupted"
    _check_stop("cli", out, exited, cpu)
