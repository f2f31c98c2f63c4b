"""The GPU check in one call: compile the CUDA kernel, check it against the CPU on dealt shoes, time both.

Run from the repository root on a machine with an NVIDIA GPU (not collected by pytest)::

    pip install -e ".[gpu]"                      # numba-cuda with the CUDA 12 wheels
    python tests/benchmarks/gpu.py               # 200,000 coups of dealt 8-deck shoes, about a minute
    python tests/benchmarks/gpu.py --coups 1000000 --repeats 5

Without a GPU, numba's CUDA simulator runs the same kernel source on the CPU, one Python thread per GPU
thread, so only tiny sizes are possible (it checks that the script runs end to end, not the speed)::

    NUMBA_ENABLE_CUDASIM=1 python tests/benchmarks/gpu.py --tiny

It deals ``--shoes`` seeded 8-deck shoes (``toolkit.dealing.deal``: standard burn and cut card) and takes
the shoe's composition before each of the first ``--coups`` coups, then for the standard panel of bets

1. compiles the CUDA kernel (:mod:`toolkit.exact._gpu`) and says how long it took;
2. checks the GPU's event columns against the CPU kernel's on every coup (largest difference, how many are
   bit for bit equal), and the panel's expectations with exact signs on both devices: every difference
   within the engine's documented rounding bound (``CompiledBets.bounds``) and every sign the same;
3. times, in interleaved repeats (median kept), the event columns on the GPU (transfers included) and on
   one CPU core (the native kernel this CPU gets), and prints states (coups) per second and their ratio;
4. prints one JSON line with the figures last.

It exits 1 if a check fails, 0 otherwise.
"""

from __future__ import annotations

import os

# One CPU core for the CPU side: pin every thread pool before numpy or numba are imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numba  # noqa: E402
import numpy as np  # noqa: E402

from toolkit.bets.paytable import standard_bets  # noqa: E402
from toolkit.dealing.dealer import deal  # noqa: E402
from toolkit.exact import _gpu  # noqa: E402
from toolkit.exact._native import native_kernel  # noqa: E402
from toolkit.exact.engine import _values_from_ranks, compiled_bets  # noqa: E402


def median_times(repeats: int, fns: dict) -> dict[str, float]:
    """Median wall time of each function over ``repeats`` interleaved rounds (a GPU's time is wall time)."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: float(np.median(t)) for name, t in times.items()}


def describe_device(simulated: bool) -> str:
    """The GPU's name and compute capability, or what runs instead."""
    if simulated:
        return "numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1): the kernel interpreted on the CPU"
    from numba import cuda

    device = cuda.get_current_device()
    name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
    return f"{name}, compute capability {device.compute_capability[0]}.{device.compute_capability[1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=3_000, help="shoes dealt (about 70 coups each)")
    parser.add_argument("--coups", type=int, default=200_000, help="coups (states) evaluated on both devices")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved timing rounds, median kept")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--tiny", action="store_true", help="a few coups (for the CUDA simulator)")
    args = parser.parse_args(argv)
    if args.tiny:
        args.shoes, args.coups, args.repeats = 1, 3, 1

    from numba.core import config

    simulated = bool(config.ENABLE_CUDASIM)
    if not _gpu.available():
        print("no CUDA GPU here: install the 'gpu' extra on a machine with an NVIDIA GPU, or run under")
        print("NUMBA_ENABLE_CUDASIM=1 with --tiny to check the script end to end")
        return 2
    print(f"device: {describe_device(simulated)}")
    host = platform.processor() or platform.machine()
    print(f"host: {host}, numba {numba.__version__}, python {sys.version.split()[0]}")

    dealt = deal(args.shoes, seed=args.seed, workers=1, progress=False)
    ranks = np.ascontiguousarray(dealt.remaining()[: args.coups], dtype=np.int64)
    values = np.ascontiguousarray(_values_from_ranks(ranks))
    bets = tuple(standard_bets())
    compiled = compiled_bets(bets)
    table = compiled.events
    kernel = native_kernel()
    cpu_name = f"native kernel ({kernel.isa})" if kernel is not None else "numba kernel"
    print(
        f"{len(ranks):,} coups of {args.shoes:,} dealt 8-deck shoes (seed {args.seed}), {len(bets)} bets, "
        f"{table.n_events} events, {len(table.walk.level):,} nodes, {len(table.walk.weight):,} weights"
    )

    start = time.perf_counter()
    _gpu.event_columns(table, values[: min(len(values), 4)])
    compile_s = time.perf_counter() - start
    print(
        f"CUDA kernel compiled and first run in {compile_s:.2f} s (threads a block: {_gpu.threads_for(table.n_events)})"
    )

    gpu = _gpu.event_columns(table, values)
    cpu = table(values)
    diff = float(np.abs(gpu - cpu).max()) if len(cpu) else 0.0
    same_bits = int(np.sum(gpu == cpu))
    ev_gpu = compiled(ranks, device="gpu")
    ev_cpu = compiled(ranks)
    raw_gpu = compiled(ranks, exact_signs=False, device="gpu")
    raw_cpu = compiled(ranks, exact_signs=False)
    within = bool(np.all(np.abs(raw_gpu - raw_cpu) <= compiled.bounds))
    same_signs = bool(np.array_equal(np.sign(ev_gpu), np.sign(ev_cpu)))
    print(f"event columns: max |gpu - cpu| = {diff:.2e}; {same_bits:,} of {gpu.size:,} bit for bit equal")
    print(f"expectations: every |gpu - cpu| within the rounding bound: {within}; exact signs the same: {same_signs}")

    timed = median_times(args.repeats, {"gpu": lambda: _gpu.event_columns(table, values), "cpu": lambda: table(values)})
    gpu_rate, cpu_rate = len(values) / timed["gpu"], len(values) / timed["cpu"]
    print(f"{'path':<44} {'seconds':>9} {'states/s':>14}")
    print(f"{'GPU, event columns (transfers included)':<44} {timed['gpu']:>9.3f} {gpu_rate:>14,.0f}")
    print(f"{'CPU, one core, ' + cpu_name:<44} {timed['cpu']:>9.3f} {cpu_rate:>14,.0f}")
    print(f"GPU / one CPU core: {gpu_rate / cpu_rate:.2f} x (same run, same coups)")
    ok = within and same_signs and diff < 1e-12
    print("check:", "OK" if ok else "FAILED")
    summary = {
        "simulated": simulated,
        "coups": len(values),
        "compile_s": compile_s,
        "max_diff": diff,
        "bit_equal": same_bits,
        "entries": int(gpu.size),
        "within_bound": within,
        "same_signs": same_signs,
        "gpu_states_per_s": gpu_rate,
        "cpu_states_per_s": cpu_rate,
        "ratio": gpu_rate / cpu_rate,
        "ok": ok,
    }
    print(json.dumps(summary))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
