"""Throughput of the exact engine's paths on random depleted 8-deck shoes, on one core.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/engine.py                 # defaults: 100,000 shoes for the batched path
    python tests/benchmarks/engine.py --shoes 20000 --quick

It measures, on the same shoes (13 counts by rank, 8 decks less a uniform random number of
cards, at least 20 left), for the standard panel of bets:

(a) the batched float path, ``expected_values(shoes, standard_bets())`` (exact signs on, the default),
    against the kernel as it stood before the event kernel (frozen in ``_frozen_engine.py``), measured
    in interleaved repeats on the same shoes (the median of each is kept), and with ``exact_signs=False``
    (what settling the signs costs);
(a') the same on a CUDA GPU (``device="gpu"``) when one is present;
(b) the same path called one shoe at a time;
(c) the exact path: ``distribution(shoe, exact=True)`` in Fractions, dotted with every bet's pay table;
(d) the slow reference enumerator of ``tests/reference_enumerator.py`` (floats), if present;
(e) pybaccarat's exact calculator (Banker, Player, Tie only), if installed.

and prints compositions per second per core, each path's ratio to the batched path, and the
largest difference between the float path and (c), (d), (e): float against exact must stay
below 1e-12.  Target: the batched path at least twice as fast as the frozen kernel (the ratio
measured in the same run, not the absolute rate, is the figure: the machine may be shared).
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
import sys  # noqa: E402
import time  # noqa: E402
from fractions import Fraction  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

import toolkit as bt  # noqa: E402
from toolkit.exact.engine import as_rank_matrix  # noqa: E402

TARGET = 2.0  # batched path over the frozen kernel, same run, same shoes
TOLERANCE = 1e-12  # largest |float - exact| accepted


def random_depleted_shoes(n: int, rng: np.random.Generator, decks: int = 8, min_left: int = 20) -> np.ndarray:
    """``(n, 13)`` counts by rank: ``decks`` decks less a uniform random number of random cards."""
    full = np.full(13, 4 * decks, dtype=np.int64)
    left = rng.integers(min_left, full.sum() + 1, size=n)
    return np.array([rng.multivariate_hypergeometric(full, k) for k in left], dtype=np.int64)


def best_of(repeats: int, fn) -> tuple[float, object]:
    """Smallest wall time of ``repeats`` calls, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def interleaved(repeats: int, fns: dict) -> dict[str, tuple[float, object, float]]:
    """Median wall time of each function over ``repeats`` rounds (one call of each per round), its result,
    and its median CPU time (``time.process_time``: on a shared machine, the time it was not waiting for a core)."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    cpu: dict[str, list[float]] = {name: [] for name in fns}
    results: dict[str, object] = {}
    for _ in range(repeats):
        for name, fn in fns.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            results[name] = fn()
            times[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    return {name: (float(np.median(times[name])), results[name], float(np.median(cpu[name]))) for name in fns}


def load_frozen():
    """The frozen baseline kernel (``_frozen_engine.py`` beside this script)."""
    here = str(Path(__file__).resolve().parent)
    sys.path.insert(0, here)
    try:
        import _frozen_engine
    finally:
        sys.path.remove(here)
    return _frozen_engine


def gpu_available() -> bool:
    """A real CUDA GPU with numba-cuda (not the simulator)."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return False
    from toolkit.exact._gpu import available

    return available()


def exact_panel(shoe: np.ndarray, panel) -> list[Fraction]:
    """Exact EVs of the panel: one rational distribution, dotted with each bet's pay table."""
    p = bt.distribution(tuple(int(c) for c in shoe), exact=True)
    support = [(i, q) for i, q in enumerate(p) if q]
    return [sum((q * bet.payoffs[i] for i, q in support), Fraction(0)) for bet in panel]


def load_reference_enumerator():
    """``tests/reference_enumerator.py`` if it is there (another engineer's module), else None."""
    tests = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(tests))
    try:
        import reference_enumerator
    except ImportError as err:
        print(f"(d) skipped: tests/reference_enumerator.py not importable ({err})")
        return None
    finally:
        sys.path.remove(str(tests))
    return reference_enumerator


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000, help="shoes for the batched path (a)")
    parser.add_argument("--single", type=int, default=2_000, help="shoes for one-at-a-time calls (b)")
    parser.add_argument("--exact", type=int, default=10, help="shoes for the exact Fraction path (c)")
    parser.add_argument("--reference", type=int, default=5, help="shoes for the reference enumerator (d)")
    parser.add_argument("--pybaccarat", type=int, default=3, help="shoes for pybaccarat (e)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats of (a), median kept")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.shoes, args.single, args.exact, args.reference, args.pybaccarat = 5_000, 200, 2, 1, 1

    rng = np.random.default_rng(args.seed)
    shoes = random_depleted_shoes(args.shoes, rng)
    panel = bt.standard_bets()
    n_bets = len(panel)
    print(
        f"{args.shoes:,} random depleted 8-deck shoes ({shoes.sum(axis=1).min()}-{shoes.sum(axis=1).max()} cards "
        f"left), panel of {n_bets} bets, seed {args.seed}, one thread (numba {os.environ['NUMBA_NUM_THREADS']})"
    )

    start = time.perf_counter()
    bt.expected_values(shoes[:10], panel)  # builds the coup tables, compiles or loads the numba kernels
    print(f"warm-up (tables, numba): {time.perf_counter() - start:.2f} s")

    frozen = load_frozen().FrozenBets(np.array([b.payoff_array for b in panel]), bt.PUNTO_BANCO)
    ranks = as_rank_matrix(shoes)
    frozen(ranks[:10])  # compiles the frozen kernel
    rows: list[tuple[str, int, float, int]] = []  # (path, shoes, seconds, bets per shoe)
    timed = interleaved(
        args.repeats,
        {
            "new": lambda: bt.expected_values(shoes, panel),
            "frozen": lambda: frozen(ranks),
            "plain": lambda: bt.expected_values(shoes, panel, exact_signs=False),
        },
    )
    seconds, ev, _ = timed["new"]
    rows.append(("(a) batched float, expected_values", len(shoes), seconds, n_bets))
    rows.append(("(a) same, exact_signs=False", len(shoes), timed["plain"][0], n_bets))
    rows.append(("(a) frozen kernel (before the event kernel)", len(shoes), timed["frozen"][0], n_bets))
    ratio = timed["frozen"][0] / seconds
    ratio_plain = timed["frozen"][0] / timed["plain"][0]
    ratio_cpu = timed["frozen"][2] / timed["new"][2]
    ratio_plain_cpu = timed["frozen"][2] / timed["plain"][2]
    sign_cost = seconds / timed["plain"][0] - 1
    sign_cost_cpu = timed["new"][2] / timed["plain"][2] - 1
    frozen_diff = float(np.abs(np.asarray(timed["frozen"][1]) - np.asarray(timed["plain"][1])).max())
    settled = int(np.sum(np.asarray(timed["plain"][1]) != ev))

    if gpu_available():
        bt.expected_values(shoes[:10], panel, device="gpu")  # compiles the CUDA kernel
        on_gpu = interleaved(args.repeats, {"gpu": lambda: bt.expected_values(shoes, panel, device="gpu")})
        rows.append(("(a') batched, device='gpu'", len(shoes), on_gpu["gpu"][0], n_bets))
        gpu_diff = float(np.abs(np.asarray(on_gpu["gpu"][1]) - ev).max())
    else:
        gpu_diff = None
        print("(a') skipped: no CUDA GPU here (numba.cuda.is_available() is False or numba-cuda missing)")

    single = shoes[: args.single]

    def one_at_a_time() -> None:
        for i in range(len(single)):
            bt.expected_values(single[i : i + 1], panel)

    seconds, _ = best_of(1, one_at_a_time)
    rows.append(("(b) one shoe per call, expected_values", len(single), seconds, n_bets))

    diffs: dict[str, float] = {}
    sample = shoes[: args.exact]
    start = time.perf_counter()
    exact = [exact_panel(s, panel) for s in sample]
    rows.append(("(c) exact Fractions, distribution(exact=True)", len(sample), time.perf_counter() - start, n_bets))
    diffs["(c) exact"] = max(
        abs(float(e - Fraction(f))) for es, fs in zip(exact, ev, strict=False) for e, f in zip(es, fs, strict=True)
    )

    reference = load_reference_enumerator()
    if reference is not None:
        payouts = reference.standard_payouts()
        names = [bet.name for bet in panel]
        sample = shoes[: args.reference]

        def reference_panel(shoe: np.ndarray) -> list[float]:
            dist = reference.coup_distribution(tuple(int(c) for c in shoe), exact=False)
            return [sum(p * float(payouts[name](c)) for c, p in dist.items()) for name in names]

        start = time.perf_counter()
        ref = [reference_panel(s) for s in sample]
        rows.append(("(d) reference enumerator (floats)", len(sample), time.perf_counter() - start, n_bets))
        diffs["(d) reference"] = float(np.abs(np.array(ref) - ev[: len(sample)]).max())

    try:
        from pybaccarat.compute_baccarat_odds import ComputeBaccaratOdds
    except ImportError:
        print("(e) skipped: pybaccarat is not installed (see tests/benchmarks/README.md)")
    else:
        calculator = ComputeBaccaratOdds(1)
        sample = shoes[: args.pybaccarat]
        main3 = [i for i, bet in enumerate(panel) if bet.name in ("banker", "player", "tie")]
        theirs = []
        start = time.perf_counter()
        for shoe in sample:
            calculator.recompute([int(c) for c in shoe])
            b, p, t = calculator.count_banker, calculator.count_player, calculator.count_tie
            theirs.append([(0.95 * b - p) / (b + p + t), (p - b) / (b + p + t), (8 * t - b - p) / (b + p + t)])
        rows.append(("(e) pybaccarat (Banker, Player, Tie)", len(sample), time.perf_counter() - start, 3))
        diffs["(e) pybaccarat"] = float(np.abs(np.array(theirs) - ev[: len(sample)][:, main3]).max())

    base = rows[0][1] / rows[0][2]
    print()
    print(f"{'path':<48} {'shoes':>9} {'seconds':>9} {'shoes/s/core':>14} {'batched is x faster':>20}")
    for name, n, sec, _ in rows:
        rate = n / sec
        print(f"{name:<48} {n:>9,} {sec:>9.3f} {rate:>14,.1f} {base / rate:>20,.1f}")
    print()
    for name, diff in diffs.items():
        print(f"max |float path - {name}| over the shared shoes: {diff:.2e}")
    print(
        f"max |new - frozen kernel| (both plain floats): {frozen_diff:.2e}; "
        f"expectations settled exactly by exact_signs: {settled}"
    )
    if gpu_diff is not None:
        print(f"max |gpu - cpu|: {gpu_diff:.2e}")
    print(f"exact signs cost {100 * sign_cost:+.1f} % over exact_signs=False (CPU time: {100 * sign_cost_cpu:+.1f} %)")
    ok_speed = ratio >= TARGET
    ok_exact = diffs["(c) exact"] < TOLERANCE
    print(
        f"ratio new / frozen kernel: {ratio:.2f} x (exact_signs=False: {ratio_plain:.2f} x; "
        f"in CPU time {ratio_cpu:.2f} x and {ratio_plain_cpu:.2f} x), "
        f"target >= {TARGET:g} x -> {'MET' if ok_speed else 'NOT MET'}"
    )
    print(f"accuracy: float vs exact < {TOLERANCE:g}: {diffs['(c) exact']:.2e} -> {'OK' if ok_exact else 'FAILED'}")
    return 0 if ok_exact else 1


if __name__ == "__main__":
    sys.exit(main())
