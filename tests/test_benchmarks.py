"""Every script in benchmarks/ runs to the end on a small input (its own
exactness checks included) against the rougekit under test: a benchmark that
imports a name the package no longer has, or whose checks fail, is caught here
and not on the next quiet machine someone borrows to measure.

Times are not looked at (the suite never judges speed: benchmarks/ does).
"""
import importlib.util
import os
import subprocess
import sys

import pytest

from _helpers import DEFAULT_SHARED, child_env, shared_dir

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "benchmarks")

# script -> (arguments for a run of a few seconds, modules it needs)
SMALL = {
    "bench.py": (["--n", "60", "--reference-pairs", "20", "--repeat", "1", "--no-long"], ()),
    "bench_token_lists.py": (["--n", "60", "--reference-pairs", "20", "--repeat", "1"], ()),
    "bench_columns.py": (["--n", "60", "--reference-pairs", "20", "--repeat", "1"],
                         ("rouge_score_rs",)),
    "bench_ids.py": (["--n", "400", "--reference-pairs", "20", "--repeat", "1"], ()),
    "bench_index.py": (["--pool", "300", "--queries", "2", "--reference-queries", "1",
                        "--dedup", "300", "--verify", "60", "--repeat", "1"], ()),
    "bench_rouge155.py": (["--no-script", "--n", "40", "--repeat", "1",
                           "--py-rouge-items", "10"], ()),
    "bench_bootstrap.py": (["--n", "300", "--resamples", "20", "--repeat", "1"], ()),
    "bench_lang.py": (["--pairs", "10", "--repeat", "1", "--langs", "hindi"], ()),
    "bench_dask.py": (["--n", "400", "--partitions", "2", "--repeat", "1"],
                      ("dask", "distributed")),
    "bench_ray.py": (["--n", "400", "--blocks", "2", "--repeat", "1"], ("ray",)),
    "bench_contamination.py": (["--rows", "600", "--against", "60", "--partitions", "2",
                                "--engines", "dask,ray"], ("dask", "distributed", "ray")),
    "bench_compat.py": (["--n", "40", "--repeat", "1"], ("rouge", "rouge_chinese")),
    "bench_report.py": (["--n", "200", "--repeat", "1"], ("jinja2",)),
    "bench_explain.py": (["--words", "2000", "--big-words", "3000", "--table-tokens", "300",
                          "--repeat", "1"], ("rouge_score",)),
    "bench_torchmetrics.py": (["--n", "40", "--reference-pairs", "10", "--repeat", "1",
                               "--state-items", "2000"], ("torch", "torchmetrics", "nltk")),
    "bench_tables_sql.py": (["--n", "200", "--repeat", "1"], ("polars", "duckdb", "pyarrow")),
    "bench_rewards.py": (["--n", "200", "--reference-pairs", "40", "--repeat", "1",
                          "--batches", "8,64"], ()),
}
# Not run here: bench_pool.py (fixed sizes of 10,000 pairs and 100,000 texts;
# its cases are the other scripts' calls), ab_score.py, profile_score.py and
# profile_ids.py (tools that take two trees or a profiler, not measurements
# with checks).
NOT_RUN = {"bench_pool.py", "ab_score.py", "profile_score.py", "profile_ids.py"}


def test_every_benchmark_is_listed():
    scripts = {f for f in os.listdir(BENCH) if f.endswith(".py")}
    assert scripts == set(SMALL) | NOT_RUN


@pytest.mark.parametrize("script", sorted(SMALL))
def test_benchmark_runs_on_a_small_input(script):
    args, needs = SMALL[script]
    folder = shared_dir()
    if folder is None:
        pytest.skip(f"shared corpus folder not found: set ROUGEKIT_SHARED or place it at "
                    f"{DEFAULT_SHARED}")
    for module in needs:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{script} needs {module}")
    proc = subprocess.run([sys.executable, os.path.join(BENCH, script), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env=child_env(ROUGEKIT_SHARED=str(folder)))
    assert proc.returncode == 0, f"{script} {' '.join(args)}:\n{proc.stderr[-3000:]}"
    assert proc.stdout.strip(), f"{script} printed no report"
