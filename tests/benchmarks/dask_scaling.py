"""How the Thorp study scales on a Dask cluster: one worker against two, and the same results.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/dask_scaling.py                 # 50,000 shoes, 3 repeats of each
    python tests/benchmarks/dask_scaling.py --shoes 2000    # a smoke run (2 blocks: no real scaling)

It starts two ``distributed.LocalCluster`` s side by side, with ``k = 1`` and ``k = 2`` worker
processes of one thread each (``processes=True``, no dashboard), warms every worker up (numba
kernels loaded, the panel's evaluator built), then runs :func:`toolkit.studies.run_study` on the
same :class:`~toolkit.studies.ThorpStudy` (the standard panel, fixed seed) through each cluster's
``Client`` in interleaved repeats (1, 2, 1, 2, ...), and prints

* the median wall time of each, and the ratio ``t(1) / t(2)`` (target: at least 1.8 on a
  machine with two idle cores; the study's 1,000-shoe blocks are independent, so only the
  scheduling and the pickling of the tallies stop it from being 2);
* whether both clusters gave identical results: the tally bit for bit and every table
  ``write_outputs`` writes (``by_unseen``, ``by_bucket``, ``cumulative``, ``claims``,
  ``per_shoe``, ``jacobson``, ``variance``), since block ``i`` is seeded by child ``i`` of
  ``SeedSequence(seed)`` wherever it runs (:mod:`toolkit.parallel`).

Exits 1 if the results differ.  The machine is shared: the load average is printed beside
the figures, and the ratio means something only when two cores are idle.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"):
    os.environ[_var] = "1"  # one BLAS thread per worker process (inherited by the workers)

import argparse  # noqa: E402
import logging  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

from toolkit.studies import StudyResult, ThorpStudy, run_study  # noqa: E402

WORKERS = (1, 2)
TARGET_RATIO = 1.8


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "n/a"


def tables(result: StudyResult) -> dict:
    """The tables a run writes (as :func:`toolkit.studies.write_outputs` makes them)."""
    return {
        "by_unseen": result.by_unseen(),
        "by_bucket": result.by_bucket(),
        "cumulative": result.cumulative(),
        "claims": result.claims(),
        "per_shoe": result.per_shoe(),
        "jacobson": result.jacobson(),
        "variance": result.variance(),
    }


def differences(a: StudyResult, b: StudyResult) -> list[str]:
    """What differs between two results of the same study (empty: identical)."""
    out = [] if a.tally.equals(b.tally) else ["tally"]
    ta, tb = tables(a), tables(b)
    return out + [name for name in ta if not ta[name].equals(tb[name])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=50_000, help="shoes of the study (default 50,000)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the study (default 2024)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs on each cluster (default 3; median)")
    args = parser.parse_args()
    if args.shoes < 1 or args.repeats < 1:
        parser.error("--shoes and --repeats must be at least 1")

    from distributed import Client, LocalCluster

    # the scheduler's HTTP server (not the dashboard) falls back from a busy port 8787 with a warning
    warnings.filterwarnings("ignore", message="Port 8787 is already in use")

    study = ThorpStudy(n_shoes=args.shoes, seed=args.seed)
    print(f"Thorp study: {study.n_shoes:,} shoes in {study.n_blocks} blocks of {study.block_size}, seed {study.seed}")
    print(f"load average before: {load()}")
    clusters, clients = {}, {}
    try:
        for k in WORKERS:
            clusters[k] = LocalCluster(
                n_workers=k,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
            clients[k] = Client(clusters[k])
            # warm-up: 2k tiny blocks, so every worker loads the kernels and builds the panel's evaluator
            run_study(ThorpStudy(n_shoes=2 * k, seed=0, block_size=1), scheduler=clients[k], progress=False)
        times: dict[int, list[float]] = {k: [] for k in WORKERS}
        results: dict[int, StudyResult] = {}
        for r in range(args.repeats):
            for k in WORKERS:
                t0 = time.perf_counter()
                results[k] = run_study(study, scheduler=clients[k], progress=False)
                times[k].append(time.perf_counter() - t0)
                print(f"  repeat {r + 1}, {k} worker{'s' if k > 1 else ''}: {times[k][-1]:.2f} s  (load {load()})")
    finally:
        logging.getLogger("distributed").setLevel(logging.ERROR)  # no INFO lines while the clusters close
        for client in clients.values():
            client.close()
        for cluster in clusters.values():
            cluster.close()

    median = {k: statistics.median(times[k]) for k in WORKERS}
    for k in WORKERS:
        rate = results[k].n_hands / median[k]
        print(f"{k} worker{'s' if k > 1 else ' '}: median {median[k]:.2f} s, {rate:,.0f} coups/s")
    ratio = median[1] / median[2]
    verdict = "meets" if ratio >= TARGET_RATIO else "below"
    print(f"t(1) / t(2) = {ratio:.2f}  ({verdict} the target {TARGET_RATIO})")
    if study.n_blocks < 2 * max(WORKERS):
        print(f"  (only {study.n_blocks} blocks: too few to keep two workers busy; use the full --shoes)")
    diff = differences(results[1], results[2])
    if diff:
        print(f"results DIFFER between 1 and 2 workers: {', '.join(diff)}")
        return 1
    print("results identical for 1 and 2 workers (tally bit for bit, and every table)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
