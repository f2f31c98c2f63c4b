"""Throughput of the Thorp study end to end, extrapolated to one million 8-deck shoes.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/thorp.py                      # 10,000 shoes, 1 and 2 workers
    python tests/benchmarks/thorp.py --shoes 20000 --workers 2
    python tests/benchmarks/thorp.py --quick              # 2,000 shoes, a smoke run
    python tests/benchmarks/thorp.py --side-bets --shoes 1000 --skip-serial --workers 1
                                                          # also: four side bets added, the same shoes

It runs :func:`toolkit.studies.run_study` (deal, exact EV of the whole standard panel before every
coup from the unseen cards, streaming aggregation, Jacobson's setting) on a sample of shoes, in
one process and with ``--workers`` processes, and prints:

* coups per second end to end, and the time one million shoes would take at that rate
  (target: at most 10 minutes, about 150,000 coups per second, on a 2-core machine);
* where the time goes: worker seconds spent dealing, in the exact EVs, aggregating, and in
  Jacobson's setting (per coup, so independent of the worker count), and the rest of the wall
  time (process start-up, pickling, merging);
* the ratio against evaluating one composition at a time (``expected_values`` called on each
  coup's unseen composition alone), on one core;
* the peak resident memory, for two sample sizes, to show that it does not grow with the shoes;
* with ``--side-bets``, the same shoes with four catalogue side bets added (Perfect Pairs, Perfect Pairs v2,
  Tiger Pair, 3 Giving 8), in one process: the ratio of CPU times inside the blocks (target: at most 1.3x).

The machine is shared: the load average is printed beside the figures.
"""

from __future__ import annotations

import os

# One BLAS thread everywhere (the study sets it per block too): small matrix products on a
# busy machine stall badly with more.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from toolkit.bets.paytable import get_bet, standard_bets  # noqa: E402
from toolkit.bets.pricing import expected_values  # noqa: E402
from toolkit.dealing.dealer import Dealing, deal  # noqa: E402
from toolkit.studies import ThorpStudy, run_study  # noqa: E402

TARGET_SECONDS = 600  # one million shoes
MILLION = 1_000_000


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "n/a"


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pipeline(shoes: int, workers: int, seed: int, observers: tuple[str, ...]) -> dict[str, float]:
    study = ThorpStudy(n_shoes=shoes, seed=seed, observers=observers)
    start = time.perf_counter()
    result = run_study(study, workers=workers, progress=False)
    wall = time.perf_counter() - start
    coups = result.n_hands
    return {"wall": wall, "coups": coups, "shoes": shoes, **result.seconds}


SIDE_BETS = ("perfect_pair", "perfect_pair_v2", "tiger_pair", "three_giving_eight")


def side_bet_ratio(shoes: int, seed: int) -> None:
    """The study's CPU time on the same shoes with and without four side bets (one process)."""
    panel = standard_bets()
    bets = (*panel, *(get_bet(n) for n in SIDE_BETS))
    run_study(ThorpStudy(n_shoes=20, seed=seed + 1, bets=bets), progress=False)  # the side bets' tables, once
    cpu = {}
    for label, chosen in (("panel", panel), ("panel + 4 side bets", bets)):
        result = run_study(ThorpStudy(n_shoes=shoes, seed=seed, bets=chosen), progress=False)
        cpu[label] = result.seconds["cpu"]
        print(f"{label}: {result.n_hands:,} coups, {cpu[label]:.2f} CPU s in the blocks")
    ratio = cpu["panel + 4 side bets"] / cpu["panel"]
    print(f"four side bets ({', '.join(SIDE_BETS)}): {ratio:.2f}x the panel's CPU time (target 1.3x)")


def one_at_a_time(n: int, seed: int) -> float:
    """Coups per second when each coup's unseen composition is evaluated alone (one core)."""
    dealt = deal(max(1, n // 80 + 1), Dealing(), seed=seed, progress=False)
    comps = dealt.unseen[:n].astype(np.int64)
    panel = standard_bets()
    expected_values(comps[:1], panel)
    start = time.perf_counter()
    for i in range(len(comps)):
        expected_values(comps[i : i + 1], panel)
    return len(comps) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10_000, help="shoes in the sample")
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the parallel run")
    parser.add_argument("--single", type=int, default=3_000, help="coups evaluated one at a time")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--observer", choices=("unseen", "both"), default="unseen")
    parser.add_argument("--skip-serial", action="store_true", help="only the parallel run")
    parser.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    parser.add_argument("--side-bets", action="store_true", help="also the same shoes with four side bets added")
    args = parser.parse_args(argv)
    if args.quick:
        args.shoes, args.single = 2_000, 500
    observers = ("unseen", "remaining") if args.observer == "both" else ("unseen",)

    print(f"Thorp study benchmark: {args.shoes:,} 8-deck shoes, observers {', '.join(observers)}, "
          f"{len(standard_bets())} bets, load average {load()}, {os.cpu_count()} CPUs")  # fmt: skip
    warm = pipeline(60, 1, args.seed + 1, observers)  # compiles or loads numba kernels, builds tables
    print(f"warm-up: {warm['wall']:.2f} s")

    runs = []
    if not args.skip_serial:
        runs.append((1, pipeline(args.shoes, 1, args.seed, observers)))
        rss_small = peak_rss_mib()
    if args.workers > 1 or args.skip_serial:
        runs.append((args.workers, pipeline(args.shoes, args.workers, args.seed, observers)))

    print()
    print(f"{'workers':>7} {'shoes':>8} {'coups':>11} {'wall s':>8} {'coups/s':>10} {'1M shoes (s)':>13} "
          f"{'deal':>6} {'EV':>6} {'aggr':>6} {'jacob':>6} {'other':>6}")  # fmt: skip
    best = 0.0
    for workers, r in runs:
        rate = r["coups"] / r["wall"]
        best = max(best, rate)
        coups_per_shoe = r["coups"] / r["shoes"]
        million = MILLION * coups_per_shoe / rate
        busy = r["deal"] + r["ev"] + r["aggregate"] + r["jacobson"]
        other = max(r["wall"] - busy / workers, 0.0)
        r["other_share"] = other / r["wall"]
        share = {k: r[k] / max(busy, 1e-9) * 100 for k in ("deal", "ev", "aggregate", "jacobson")}
        print(
            f"{workers:>7} {r['shoes']:>8,} {r['coups']:>11,} {r['wall']:>8.1f} {rate:>10,.0f} {million:>13,.0f} "
            f"{share['deal']:>5.1f}% {share['ev']:>5.1f}% {share['aggregate']:>5.1f}% {share['jacobson']:>5.1f}% "
            f"{other / r['wall'] * 100:>5.1f}%"
        )
    print("(deal/EV/aggr/jacob: share of worker seconds; other: wall time not spent in blocks, as a share of wall)")

    if not args.skip_serial:
        serial = runs[0][1]
        single = one_at_a_time(args.single, args.seed)
        rate_1 = serial["coups"] / serial["wall"]
        print()
        print(f"one composition at a time: {single:,.0f} coups/s on one core; the batched pipeline on one core: "
              f"{rate_1:,.0f} coups/s, {rate_1 / single:,.0f} x faster")  # fmt: skip
        ev_rate = serial["coups"] * len(observers) / serial["ev"]
        print(f"exact EVs alone inside the pipeline: {ev_rate:,.0f} compositions/s per worker")
        # memory: a run 4 times smaller must peak at about the same resident size
        small = pipeline(max(args.shoes // 4, 1), 1, args.seed, observers)
        print(f"peak resident memory: {rss_small:,.0f} MiB after {args.shoes:,} shoes "
              f"(a {small['shoes']:,}-shoe run afterwards: {peak_rss_mib():,.0f} MiB, the peak so far)")  # fmt: skip

    # On a shared machine wall time measures the neighbours too; CPU time inside the blocks does not.
    per_core = max(r["coups"] / r["cpu"] for _, r in runs)
    print()
    print(
        f"CPU time inside the blocks: {per_core:,.0f} coups per CPU-second; two idle cores: about "
        f"{2 * per_core:,.0f} coups/s, less start-up and merging ({runs[-1][1]['other_share']:.0%} of wall above)"
    )
    coups_per_shoe = runs[-1][1]["coups"] / runs[-1][1]["shoes"]
    idle = MILLION * coups_per_shoe / (2 * per_core)
    print(f"one million shoes on two idle cores, from CPU time: {idle / 60:.1f} minutes (+ start-up, merging)")
    million = MILLION * coups_per_shoe / best
    verdict = "MET" if million <= TARGET_SECONDS else "NOT MET"
    print()
    print(f"one million shoes ({coups_per_shoe:.1f} coups each) at the best rate, {best:,.0f} coups/s: "
          f"{million / 60:.1f} minutes -> target {TARGET_SECONDS // 60} minutes {verdict}")  # fmt: skip
    if args.side_bets:
        print()
        side_bet_ratio(args.shoes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
