"""Bets on coup fields: the rich engine against the pair trick, and the standard panel before and after.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/coup_bets.py              # 2,000 random depleted 8-deck shoes, 5 repeats

(a) **Which is faster for a pair bet**: Player Pair written as a pay table over the 1,600 outcome
    classes (the fast engine: a closed form in the rank counts, the pair trick) against the same
    rule written over the coup fields and priced by :mod:`toolkit.bets.coup_bets` (rows of ranks at the
    first two positions, a compiled pass).  Both are exact against the card-by-card oracle
    (tests/test_coup_bets.py); the ratio says which path to take, and the toolkit takes the fast
    engine whenever a bet names only outcome-class fields (``make_bet``).
(b) The cost per shoe of every catalogue bet, of three bets written as in files and of two bets at the
    language's reach (every dealt card's colour, the ranks of all six positions), as a ratio to the
    standard panel's seventeen bets together, with the evaluator each compiles to (pay table, value
    events, prefix patterns or label events).  Target: each at most 3x.
(c) The standard panel through ``toolkit.expected_values`` (the one pricing function every command calls)
    against the engine's ``paytable_expected_values`` directly: the price of the dispatch (target: ratio 1.00).

Ratios within one run are the figures: the machine may be shared.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

import toolkit as bt  # noqa: E402
from toolkit.bets.catalogue import catalogue_names  # noqa: E402
from toolkit.bets.coup_bets import CoupBet, coup_expected_values  # noqa: E402
from toolkit.exact.engine import paytable_expected_values  # noqa: E402

#: Three bets as a user writes them in files: a third card's suit, both hands' ranks, totals and winner.
FILE_BETS = (
    ("third_card_heart", [("player_3_suit = 'h'", 3)]),
    ("same_first_ranks", [("player_1_rank = banker_1_rank AND player_2_rank = banker_2_rank", 60)]),
    ("banker_wins_with_seven", [("winner = 'banker' AND banker_total = 7 AND player_total <= 5", 4)]),
)
_ALL_RED = " AND ".join(
    f"({hand}_cards = 2 OR {hand}_3_colour = 'red')" if i == 3 else f"{hand}_{i}_colour = 'red'"
    for hand in ("player", "banker")
    for i in (1, 2, 3)
)
#: The language's reach: every dealt card's colour, the ranks of all six positions.
REACH_BETS = (
    ("every_card_red", [(_ALL_RED, 20)]),
    (
        "mirrored_ranks",
        [("player_1_rank = banker_1_rank AND player_2_rank = banker_2_rank AND player_3_rank = banker_3_rank", 500)],
    ),
)


def shoes(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty((n, 13), dtype=np.int64)
    for i in range(n):
        full = np.repeat(np.arange(13), 32)
        left = rng.integers(20, 417)
        out[i] = np.bincount(rng.choice(full, size=left, replace=False), minlength=13)
    return out


def best(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    s = shoes(args.shoes)
    panel = bt.standard_bets()
    pair = bt.get_bet("player_pair")
    rich_pair = CoupBet("player_pair_rich", pl.when(pl.col("player_pair")).then(11).otherwise(-1))
    for warm in (lambda: paytable_expected_values(s[:4], [pair]), lambda: coup_expected_values(s[:4], rich_pair)):
        warm()
    assert np.allclose(paytable_expected_values(s, [pair])[:, 0], coup_expected_values(s, rich_pair), atol=1e-12)

    t_fast = best(lambda: paytable_expected_values(s, [pair]), args.repeats)
    t_rich = best(lambda: coup_expected_values(s, rich_pair), args.repeats)
    print(f"(a) Player Pair: rich engine / pair trick = {t_rich / t_fast:.1f} (time ratio, {args.shoes} shoes)")

    t_panel = best(lambda: paytable_expected_values(s, panel), args.repeats)
    rich = [bt.get_bet(n) for n in catalogue_names()]
    rich += [bt.make_bet(name, rows) for name, rows in FILE_BETS + REACH_BETS]
    for bet in rich:
        bt.expected_values(s[:4], [bet])
        t = best(lambda bet=bet: bt.expected_values(s, [bet]), args.repeats)
        evaluator = bet.evaluator
        print(
            f"(b) {bet.name} [{evaluator}]: {t / t_panel:.2f} x the standard panel's 17 bets "
            f"({t / args.shoes * 1e3:.3f} ms a shoe)"
        )

    t_direct = best(lambda: paytable_expected_values(s, panel), args.repeats)
    t_dispatch = best(lambda: bt.expected_values(s, panel), args.repeats)
    print(f"(c) standard panel: expected_values / the engine's paytable_expected_values = {t_dispatch / t_direct:.3f}")


if __name__ == "__main__":
    main()
