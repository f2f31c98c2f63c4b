"""A count's win computed (:func:`toolkit.count_value`) against simulating it: CPU time, as a ratio.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/computed_counts.py                 # 20,000 shoes, the published counts
    python tests/benchmarks/computed_counts.py --shoes 5000    # a quicker run (the ratio scales with it)

For each published count (8 decks, cut card 14 from the end, standard burn) it measures the CPU time of the
computed win and of a ``--shoes`` simulation of the same strategy in this process (``workers=1``), and prints
both figures, the simulation's standard error and the ratio computed / simulated.  The issue's target: the
computed count costs no more than a 20,000-shoe simulation (ratio <= 1), aiming for a tenth.  Ratios within one
run are the figures: the machine may be shared.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

from toolkit.counting import count_strategy, count_value, run_strategies  # noqa: E402
from toolkit.dealing.dealer import Dealing  # noqa: E402

COUNTS = ("dragon7", "panda8", "three_giving_eight", "how_dragon7")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=20_000)
    parser.add_argument("--counts", default=",".join(COUNTS))
    args = parser.parse_args()
    dealing = Dealing()
    count_value("dragon7", Dealing(decks=1))  # compile the kernels outside the timings
    run_strategies([count_strategy("dragon7")], 10, dealing, seed=1, workers=1, progress=False)
    print(f"{'count':<20} {'computed':>10} {'cpu s':>7} {'simulated':>10} {'se':>7} {'cpu s':>8} {'ratio':>7}")
    for name in args.counts.split(","):
        strategy = count_strategy(name)
        t0 = time.process_time()
        value = count_value(strategy, dealing)
        t_computed = time.process_time() - t0
        t0 = time.process_time()
        (res,) = run_strategies([strategy], args.shoes, dealing, seed=31, workers=1, progress=False)
        t_simulated = time.process_time() - t0
        ev = res.units_per_shoe_ev
        se = (ev.high - ev.low) / 3.919927969080108
        print(
            f"{name:<20} {value.units_per_shoe_ev:>10.4f} {t_computed:>7.2f} {ev.value:>10.4f} {se:>7.4f} "
            f"{t_simulated:>8.1f} {t_computed / t_simulated:>7.3f}"
        )


if __name__ == "__main__":
    main()
