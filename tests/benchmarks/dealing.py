"""Throughput of dealing and of playing strategies through dealt shoes, on one core.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/dealing.py               # defaults: 20,000 shoes
    python tests/benchmarks/dealing.py --shoes 5000 --loop-shoes 100

On the same seeded 8-deck shoes (standard burn, cut card 14 from the end, one more hand), it measures

(a) shuffling: ``shuffled_shoes`` (numpy ``Generator.permuted``), shoes per second;
(b) dealing: ``deal_block`` (the numba kernel) on the shuffled shoes, shoes and coups per second;
(c) a plain per-card Python loop dealer (``tests/loop_dealer.py``) on the first ``--loop-shoes``
    of the same shoes, and the ratio (b) / (c) (its coups are checked identical to (b));
(d) coups evaluated per second by the strategy harness (``toolkit.counting.harness.play``): the Dragon 7 and
    Panda 8 counts (running and true count of every coup, the exact EV of each bet placed, its payout),
    and computer-perfect Dragon 7 (the exact EV of every coup);
(e) the same evaluation as a plain loop, one coup at a time (a count updated card by card, one exact
    EV per coup), on the first ``--loop-coups`` coups, and the ratios (d) / (e).

Each timing is the best of ``--repeats`` runs.  Results go to stdout (and ``--json FILE``).
"""

from __future__ import annotations

import os

# One core: pin every thread pool before numpy, scipy or numba are imported.
for _var in (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMBA_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the loop dealer

from loop_dealer import deal_shoe  # noqa: E402

from toolkit.bets.paytable import get_bet  # noqa: E402
from toolkit.bets.pricing import expected_values  # noqa: E402
from toolkit.counting import count_strategy, get_count_system, perfect_strategy, play  # noqa: E402
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes  # noqa: E402


def best_of(repeats: int, fn) -> tuple[float, object]:
    """Smallest wall time of ``repeats`` calls, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def loop_evaluate(shoes: list, system, bet, perfect: bool, max_coups: int) -> tuple[int, float]:
    """One coup at a time: the count updated card by card, a bet decided before the coup, one exact EV per bet.

    Counting play bets at true count >= the system's threshold; perfect play prices every coup and bets when
    positive.  Returns the coups evaluated and the expected units won.
    """
    tags = system.tags
    done, total = 0, 0.0
    for shoe in shoes:
        rc = tags[shoe.burn_card] if shoe.burn_card >= 0 else 0
        for coup in shoe.coups:
            if done == max_coups:
                return done, total
            if perfect:
                ev = expected_values(np.array([coup.unseen]), [bet])[0, 0]
                total += max(ev, 0.0)
            elif rc / (coup.left / 52) >= system.threshold:
                total += expected_values(np.array([coup.unseen]), [bet])[0, 0]
            for card in coup.player + coup.banker:
                rc += tags[card]
            done += 1
    return done, total


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=20_000)
    parser.add_argument("--loop-shoes", type=int, default=200)
    parser.add_argument("--loop-coups", type=int, default=3_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    dealing = Dealing()
    report: dict[str, float] = {"shoes": args.shoes}

    # warm up the compiled kernels (numba caches; the engine's tables)
    warm = deal_block(shuffled_shoes(4, 8, 0), dealing)
    play(warm, [count_strategy("dragon7"), perfect_strategy("dragon7")])

    t_shuffle, shoes = best_of(args.repeats, lambda: shuffled_shoes(args.shoes, 8, np.random.default_rng(args.seed)))
    t_deal, dealt = best_of(args.repeats, lambda: deal_block(shoes, dealing))
    coups = len(dealt)
    report.update(
        shuffle_shoes_per_s=args.shoes / t_shuffle,
        deal_shoes_per_s=args.shoes / t_deal,
        deal_coups_per_s=coups / t_deal,
        shuffle_and_deal_shoes_per_s=args.shoes / (t_shuffle + t_deal),
        coups_per_shoe=coups / args.shoes,
    )

    loop_rows = shoes[: args.loop_shoes].tolist()
    t_loop, loop_shoes = best_of(1, lambda: [deal_shoe(row) for row in loop_rows])
    n_loop_coups = sum(len(s.coups) for s in loop_shoes)
    check = deal_block(shoes[: args.loop_shoes], dealing)
    loop_cards = [c.player + c.banker for s in loop_shoes for c in s.coups]
    numba_cards = [[int(x) for x in row[0:3] if x >= 0] + [int(x) for x in row[3:6] if x >= 0] for row in check.cards]
    if loop_cards != numba_cards:
        raise SystemExit("the loop dealer and the numba dealer disagree on the benchmark shoes")
    report.update(
        loop_deal_shoes_per_s=args.loop_shoes / t_loop,
        loop_deal_coups_per_s=n_loop_coups / t_loop,
        deal_speedup_vs_loop=(args.shoes / t_deal) / (args.loop_shoes / t_loop),
    )

    counts_pair = [count_strategy("dragon7"), count_strategy("panda8")]
    t_counts, _ = best_of(args.repeats, lambda: play(dealt, counts_pair))
    t_perfect, _ = best_of(args.repeats, lambda: play(dealt, [perfect_strategy("dragon7")]))
    report.update(
        count_play_coups_per_s=coups / t_counts,
        perfect_play_coups_per_s=coups / t_perfect,
    )

    # the plain loop: the first loop_coups coups of the loop dealer's shoes
    system, bet = get_count_system("dragon7"), get_bet("dragon7")
    t_loop_count, (n_count, _) = best_of(1, lambda: loop_evaluate(loop_shoes, system, bet, False, args.loop_coups))
    t_loop_perfect, (n_perfect, _) = best_of(1, lambda: loop_evaluate(loop_shoes, system, bet, True, args.loop_coups))
    report.update(
        loop_count_coups_per_s=n_count / t_loop_count,
        loop_perfect_coups_per_s=n_perfect / t_loop_perfect,
    )
    # the count harness plays two counts; the loop baseline one, so compare per count
    report["count_play_speedup_vs_loop"] = 2 * report["count_play_coups_per_s"] / report["loop_count_coups_per_s"]
    report["perfect_play_speedup_vs_loop"] = report["perfect_play_coups_per_s"] / report["loop_perfect_coups_per_s"]

    width = max(len(k) for k in report)
    for key, value in report.items():
        print(f"{key:<{width}}  {value:>14,.1f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
