"""Throughput of ``last_cards`` (every composition of the last n cards, priced exactly), on one core.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/last_cards.py             # n = 14 (817,190 compositions), about a minute of CPU
    python tests/benchmarks/last_cards.py --quick     # n = 11 (167,960), a few seconds
    python tests/benchmarks/last_cards.py --panel     # the command's 14 default bets instead of three
    python tests/benchmarks/last_cards.py --command 6-26   # the command itself, two workers: minutes
    python tests/benchmarks/last_cards.py --command 6-26 --bets banker,player,tie   # three bets, not the panel

On 8 decks, by value, Banker, Player and Tie 8:1, in one process, it measures the CPU time of

(a) ``last_cards(8, n, ...)`` itself (numbering, weights, the kernel, exact signs, the sums);
(b) the engine's batched kernel alone on the same compositions (``CompiledBets`` with ``exact_signs=False``),
    the floor of (a);
(c) the obvious way: one ``expected_values`` call per composition (on a sample), the baseline;
(d) ``last_cards(8, n, ..., workers=2)``: the pool path, its CPU time that of the whole process tree (this
    process, a fork server if the pool starts from one, and the workers, read from ``/proc`` while they live),
    on a pool started and warmed first, so that a loss per block in the pool (pickling, transfers, the
    reduction) shows as a ratio (d)/(a) below one; the pool's start, paid once per command, is printed apart;

and prints compositions per CPU second, the ratios (a)/(b), (c)/(a) and (d)/(a), and what rate (d) means for
``n <= 16`` and ``n <= 26`` (sum over n = 6..n_max of C(n + 9, 9)) on two cores.  CPU time, not wall
time: the development machine is shared, so its wall clock says more about the other work than this.
``--panel`` prices the command's default bets (the standard panel's 14 that need no ranks) instead.

With ``--command A-B`` it instead runs ``baccarat last-cards --decks 8 --cards-left A-B --format json
--workers 2`` as a user would and prints the CPU seconds of its whole process tree (the command, its
fork server and workers, measured as in ``workers.py``), the wall seconds, compositions per CPU second,
and the CPU seconds halved: the wall time on two idle cores.  Nothing is asserted.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import ctypes  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from math import comb  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from toolkit.bets.paytable import get_bet, standard_bets  # noqa: E402
from toolkit.bets.pricing import expected_values  # noqa: E402
from toolkit.exact.engine import as_rank_matrix, compiled_bets  # noqa: E402
from toolkit.parallel import shutdown_pool  # noqa: E402
from toolkit.studies._remainders import unrank_block, way_counts  # noqa: E402
from toolkit.studies.last_cards import last_cards, needs_ranks  # noqa: E402

BETS = ("banker", "player", "tie")


def _cpu(fn) -> tuple[float, object]:
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def _descendants(pid: int) -> list[int]:
    """``pid`` and every live process below it (children listed by the kernel, thread by thread)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            todo.extend(int(c) for c in task.read_text().split())
    return out


def _cpu_of_tree() -> float:
    """CPU seconds so far of this process and every live descendant, each with its reaped children's."""
    total = 0
    for pid in _descendants(os.getpid()):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return total / os.sysconf("SC_CLK_TCK")


def _pool_cpu(bets, n: int, rate: float) -> tuple[float, float]:
    """``(start, steady)``: CPU seconds of the whole tree to start a pool of two workers and price a small warm-up
    (less its compositions' time at the single process's ``rate``), then to price every composition of ``n`` on the
    warm pool; the workers are measured while they live (a fork server's workers are never reaped here)."""
    shutdown_pool()  # a fresh pool: its start is measured
    before = _cpu_of_tree()
    warm = last_cards(8, 9, bets, workers=2, progress=False, block_size=4096)  # 12 blocks: both workers start
    started = _cpu_of_tree()
    last_cards(8, n, bets, workers=2, progress=False)
    done = _cpu_of_tree()
    shutdown_pool()
    return started - before - int(warm["compositions"][0]) / rate, done - started


def command(cards_left: str, save: str | None = None, bets: str | None = None) -> None:
    """``baccarat last-cards`` on two workers: CPU seconds of the whole process tree, wall seconds, the rate."""
    from workers import measure  # the sibling benchmark's measurement of a command's process tree

    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come here
    here = str(Path(__file__).resolve().parents[2])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        args = ["last-cards", "--decks", "8", "--cards-left", cards_left, "--format", "json", "--workers", "2"]
        args += [f"--bet={b}" for b in bets.split(",")] if bets else []
        m = measure(args, here, stdout=out)
        payload = json.loads(out.read_text())
        if save:
            Path(save).write_text(out.read_text())
    count = payload["compositions"]
    print(f"baccarat {' '.join(args)}: {count:,} compositions, {payload['exact_signs']:,} signs decided exactly")
    print(
        f"  cpu {m['cpu']:.1f} s (whole tree)  wall {m['wall']:.1f} s  peak rss {m['rss_mb']:.0f} MB summed; "
        f"{count / m['cpu']:,.0f} compositions per CPU second; cpu / 2 = {m['cpu'] / 2:.0f} s on two idle cores"
    )
    print(f"  largest |mean - fresh edge| {payload['largest_mean_deviation']:.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=14, help="n, the cards left (default 14)")
    parser.add_argument("--quick", action="store_true", help="n = 11")
    parser.add_argument("--sample", type=int, default=2000, help="compositions priced one call at a time in (c)")
    parser.add_argument("--panel", action="store_true", help="the command's default bets instead of three")
    parser.add_argument("--command", metavar="A-B", help="time `baccarat last-cards --cards-left A-B` instead")
    parser.add_argument("--bets", metavar="A,B", help="with --command: these bets instead of the default panel")
    parser.add_argument("--save", metavar="FILE", help="with --command: keep the command's JSON in FILE")
    args = parser.parse_args()
    if args.command:
        command(args.command, args.save, args.bets)
        return
    n = 11 if args.quick else args.cards
    bets = tuple(b for b in standard_bets() if not needs_ranks(b)) if args.panel else tuple(map(get_bet, BETS))
    last_cards(8, 6, bets, workers=1, progress=False)  # compile and load the kernels
    caps = np.array([128] + [32] * 9)
    ways = way_counts(caps, n)
    count = int(ways[0, n])
    comps = np.empty((count, 10), dtype=np.int64)
    unrank_block(n, ways, 0, count, comps)
    ranks = as_rank_matrix(comps)
    evaluate = compiled_bets(bets)

    t_a, _ = _cpu(lambda: last_cards(8, n, bets, workers=1, progress=False))
    t_b, _ = _cpu(lambda: evaluate(ranks, exact_signs=False))
    sample = ranks[:: max(1, count // args.sample)][: args.sample]
    t_c, _ = _cpu(lambda: [expected_values(r[None], bets) for r in sample])
    rate_a, rate_b, rate_c = count / t_a, count / t_b, len(sample) / t_c
    start, t_d = _pool_cpu(bets, n, rate_a)
    rate_d = count / t_d
    names = ", ".join(b.name for b in bets)
    print(f"n = {n}: {count:,} compositions of 8 decks by value; {len(bets)} bets: {names}")
    print(f"(a) last_cards, one process {rate_a:12,.0f} compositions per CPU second")
    print(f"(b) kernel alone            {rate_b:12,.0f}   (a) takes {rate_b / rate_a:.2f} x the kernel's time")
    print(f"(c) one call each           {rate_c:12,.0f}   (a) is {rate_a / rate_c:.0f} x faster")
    print(f"(d) last_cards, 2 workers   {rate_d:12,.0f}   (d) / (a) = {rate_d / rate_a:.2f} (whole tree's CPU)")
    print(f"    the pool's start, once per command: {start:.1f} CPU s (workers, fork server, their first kernels)")
    for top in (16, 26):
        total = comb(top + 10, 10) - comb(15, 10)
        print(f"n = 6..{top}: {total:,} compositions: {total / rate_d / 2:,.0f} s on two cores at rate (d)")


if __name__ == "__main__":
    main()
