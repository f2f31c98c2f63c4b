"""A bet written as one polars expression against the same bet written as SQL rows: the time to compile.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/expression_bets.py                 # the four-card poker hand by suit, 1 repeat
    python tests/benchmarks/expression_bets.py --suit colour   # by colour (smaller), for a quick run

The bet (``tests/expression_twins.py``): a poker hand of the first four cards as Jackpot Baccarat pays on
them (four of a kind, a four-card flush, two ranks), once as one expression over ``concat_list`` and
``list.sort``/``list.n_unique`` and once as SQL pay-table rows.  Each is built afresh and its
combinatorial-analysis table computed on a full 8-deck shoe (``toolkit.ca_table``: the prefix patterns and
the exact label events, every labelled tuple of the four cards evaluated); the script prints both times and
the ratio expression / rows (target: at most 2), and exits non-zero if the tables differ.  Before the
expression was evaluated once per distinct input (``toolkit/bets/_expressions.py``) it did not finish in
15 minutes.

Ratios within one run are the figures: the machine may be shared.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the twins

from expression_twins import poker_expression, poker_rows

from toolkit.bets import ca_table


def compile_time(build, suit: str) -> tuple[float, list[int]]:
    bet = build(suit)  # a fresh bet: nothing compiled yet
    t = time.perf_counter()
    table = ca_table(bet, 8)
    return time.perf_counter() - t, table["combinations"].to_list()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suit", choices=("suit", "colour"), default="suit")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    compile_time(poker_rows, "colour")  # warm the kernels both paths share
    rows_times, expr_times = [], []
    for _ in range(args.repeats):
        rows_t, rows_table = compile_time(poker_rows, args.suit)
        expr_t, expr_table = compile_time(poker_expression, args.suit)
        rows_times.append(rows_t)
        expr_times.append(expr_t)
        if rows_table != expr_table:
            print(f"the tables differ: rows {rows_table}, expression {expr_table}")
            return 1
    rows_t, expr_t = min(rows_times), min(expr_times)
    print(f"four-card poker hand by {args.suit}, ca_table on 8 decks (best of {args.repeats}):")
    print(f"  SQL rows          {rows_t:8.2f} s")
    print(f"  one expression    {expr_t:8.2f} s")
    print(f"  expression / rows {expr_t / rows_t:8.2f}  (target <= 2)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
