#!/usr/bin/env python3
"""The polars expression and the DuckDB functions beside score_frame and score_columns.

The shared pairs (``make_pairs.py``: candidates with one to three references)
are scored for rouge1, rouge2, rougeL and rougeLsum with stemming, in two
forms: one reference per row (the first: a string column) and every
reference (a list column, ``multi_ref="max"``):

  polars expression   df.select(pl.col("candidate").rouge.score("reference", ...))
                      on a polars DataFrame (in memory)
  DuckDB function     SELECT rouge_scores(candidate, reference) FROM pairs, on a
                      DuckDB table, fetched as an Arrow table
  score_frame         rougekit.score_frame of the polars DataFrame and of the
                      pyarrow Table
  score_columns       RougeScorer.score_columns(targets, predictions): Python
                      lists in, numpy arrays out (one reference only)
  DuckDB no-op        the same query with a function made as rouge_scores is
                      (a macro casting the references to the UNION and handing
                      its two members to a Python function) that scores
                      nothing (a struct of zeros): DuckDB's own share, the
                      most the SQL way in could reach; not a method, so in no
                      verdict (with one reference also a Python function
                      taking a plain VARCHAR: what the macro's cast costs)

all on every core (threads=None; DuckDB also calls its functions from its
own threads). Before timing, every score of the
expression and of the DuckDB function must equal score_frame's with ``==``
(otherwise the script exits with status 1). Rounds alternate between the
methods; the best pass of each is kept (the machine may be shared). Target:
the expression and the DuckDB function each >= 0.8x the in-process
score_frame and score_columns.

usage (from the repository root, after ``python setup.py build_ext --inplace``):

    PYTHONPATH=src python benchmarks/bench_tables_sql.py [--n 20000] [--seed 13]
        [--repeat 5] [--duckdb-threads T]
"""
import argparse
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import (  # noqa: E402
    command_line,
    cpu_model,
    dist_version,
    git_revision,
    load_pairs,
    log,
    measure_interleaved,
    shared_dir,
)

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TARGET = 0.8
NO_OP = "DuckDB no-op function"
NO_OP_VARCHAR = "DuckDB no-op function, VARCHAR references"


def register_no_op(con):
    """``rouge_no_op(candidate, refs)``: made as rouge_scores is (a macro
    over a Python function of the union's two members), with its result
    type, a struct of zeros for every row (DuckDB's own share of a query:
    each vector converted to Arrow and back, one call per vector)."""
    import numpy as np
    import pyarrow as pa

    import rougekit.duckdb
    from rougekit.frames import column_names

    names = column_names(TYPES)

    def no_op(candidates, references):
        zeros = pa.array(np.zeros(len(candidates)))
        return pa.StructArray.from_arrays([zeros] * len(names), names=names)

    def no_op_of_members(candidates, one, many):
        return no_op(candidates, one)

    struct = "STRUCT(" + ", ".join(f"{n} DOUBLE" for n in names) + ")"
    con.create_function("rouge_no_op_texts", no_op_of_members, ["VARCHAR", "VARCHAR", "VARCHAR[]"],
                        struct, type="arrow", null_handling="special")
    member = f"union_extract(CAST(refs AS {rougekit.duckdb.REFERENCES_TYPE}), '{{}}')"
    con.execute(f"CREATE TEMP MACRO rouge_no_op(candidate, refs) AS rouge_no_op_texts("
                f"candidate, {member.format('one')}, {member.format('many')})")
    # a plain VARCHAR second parameter: what the macro's cast costs
    con.create_function("rouge_no_op_varchar", no_op, ["VARCHAR", "VARCHAR"], struct,
                        type="arrow", null_handling="special")


def columns_of_struct(series):
    return {name: series.struct.field(name).to_list() for name in series.struct.fields}


def check(name, got, want):
    for column, values in want.items():
        if got[column] != values:
            i = next(k for k, (a, b) in enumerate(zip(got[column], values)) if a != b)
            sys.exit(f"bench: {name} differs from score_frame in {column}, row {i}: "
                     f"{got[column][i]!r} != {values[i]!r}")


def measure(form, con, scorer, candidates, references, repeat):
    """rows/s of each method on one form of the references (a str or a list
    per row), after checking the expression and rouge_scores against
    score_frame."""
    import polars as pl
    import pyarrow as pa

    import rougekit
    from rougekit.frames import column_names

    frame = pl.DataFrame({"candidate": candidates, "reference": references})
    table = pa.table({"candidate": candidates, "reference": references})
    con.register("arrow_pairs", table)
    con.execute("CREATE OR REPLACE TABLE pairs AS SELECT * FROM arrow_pairs")
    con.unregister("arrow_pairs")
    expression = pl.col("candidate").rouge.score("reference", TYPES, use_stemmer=True)
    fns = {
        "polars expression": lambda: frame.select(expression).to_series(),
        "DuckDB rouge_scores": lambda: con.sql(
            "SELECT rouge_scores(candidate, reference) AS s FROM pairs").to_arrow_table(),
        "score_frame (polars)": lambda: rougekit.score_frame(
            frame, TYPES, references="reference", use_stemmer=True),
        "score_frame (pyarrow)": lambda: rougekit.score_frame(
            table, TYPES, references="reference", use_stemmer=True),
    }
    if isinstance(references[0], str):
        fns["score_columns"] = lambda: scorer.score_columns(references, candidates)
    fns[NO_OP] = lambda: con.sql(
        "SELECT rouge_no_op(candidate, reference) AS s FROM pairs").to_arrow_table()
    if isinstance(references[0], str):
        fns[NO_OP_VARCHAR] = lambda: con.sql(
            "SELECT rouge_no_op_varchar(candidate, reference) AS s FROM pairs").to_arrow_table()

    log(f"{form}: checking exactness ...")
    want = rougekit.score_frame(table, TYPES, references="reference", use_stemmer=True)
    want = {c: want.column(c).to_pylist() for c in column_names(TYPES)}
    check("the polars expression", columns_of_struct(fns["polars expression"]()), want)
    arrow = fns["DuckDB rouge_scores"]().column("s").combine_chunks()
    check("DuckDB's rouge_scores", {c: arrow.field(c).to_pylist() for c in want}, want)

    log(f"{form}: timing {len(candidates)} rows, {repeat} rounds ...")
    timed = measure_interleaved(list(fns.values()), repeat)
    return {name: len(candidates) / min(times) for name, (_, _, times) in zip(fns, timed)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--duckdb-threads", type=int, default=None,
                    help="DuckDB's threads setting (default: DuckDB's, the cores)")
    ap.add_argument("--shared")
    args = ap.parse_args(argv)

    import duckdb

    import rougekit
    import rougekit.duckdb
    import rougekit.polars  # noqa: F401  (the rouge namespace)

    # the news pairs' lead sentences are one line: the warning says so once per
    # scorer, which would be noise here
    warnings.simplefilter("ignore", rougekit.SentenceSplitWarning)
    pairs = load_pairs(shared_dir(args.shared), args.n, args.seed)
    candidates = [p["candidate"] for p in pairs]
    first = [p["references"][0] for p in pairs]
    every = [p["references"] for p in pairs]
    con = duckdb.connect()
    if args.duckdb_threads:
        con.execute(f"SET threads = {args.duckdb_threads}")
    rougekit.duckdb.register(con, TYPES, use_stemmer=True)
    register_no_op(con)
    scorer = rougekit.RougeScorer(TYPES, use_stemmer=True)

    results = {form: measure(form, con, scorer, candidates, references, args.repeat)
               for form, references in (("one reference", first),
                                        ("every reference", every))}

    print("# The polars expression and the DuckDB functions beside score_frame\n")
    print(f"- command: `{command_line()}`; git {git_revision()}")
    print(f"- CPU: {cpu_model()}; {os.cpu_count()} cores; Python {sys.version.split()[0]}")
    print(f"- rougekit {rougekit.__version__} (BACKEND={rougekit.BACKEND}); polars "
          f"{dist_version('polars')}; duckdb {dist_version('duckdb')}; pyarrow "
          f"{dist_version('pyarrow')}")
    print(f"- {len(pairs):,} pairs from make_pairs.py --n {args.n} --seed {args.seed}; "
          f"types {'+'.join(TYPES)}, stemming on; best of {args.repeat} interleaved passes")
    print("- exactness: every score of the expression and of rouge_scores == score_frame's\n")
    verdicts = []
    for form, rates in results.items():
        baselines = {k: v for k, v in rates.items()
                     if not k.startswith(("polars", "DuckDB"))}
        print(f"## {form}\n")
        print("| method | rows/s | " + " | ".join(f"vs {b}" for b in baselines) + " |")
        print("|---|---:|" + "---:|" * len(baselines))
        for name, rate in rates.items():
            print(f"| {name} | {rate:,.0f} | " + " | ".join(
                f"{rate / base:.2f}x" for base in baselines.values()) + " |")
            if name.startswith(("polars", "DuckDB")) and name not in (NO_OP, NO_OP_VARCHAR):
                verdicts.append((f"{name}, {form}",
                                 min(rate / base for base in baselines.values())))
        print()
    for name, ratio in verdicts:
        print(f"- {name}: >= {TARGET:g}x every in-process baseline: {ratio:.2f}x, "
              f"{'MET' if ratio >= TARGET else 'NOT MET'}")


if __name__ == "__main__":
    main()
