"""Throughput of the exact engine's paths on random depleted 8-deck shoes, on one core.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/engine.py                 # defaults: 100,000 shoes for the batched path
    python tests/benchmarks/engine.py --shoes 20000 --quick

First, the event kernels alone on the panel's event table (``--kernel-shoes`` of the shoes; ``--kernels`` stops
there): the reference kernel of ``tests/reference_kernel.py``, the numba kernel and the native kernel for
AVX-512 and AVX2 where the CPU has them, interleaved, median CPU time, each checked bit for bit against the
reference; and the core's read-modify-write bound, measured with a small loop built like the kernel, with the
fraction of it the native kernel reaches.  Targets: >= 1.7 x the reference with 512-bit vectors, >= 1.15 x with
256-bit ones, >= 75 % of the bound.

Then it measures, on the same shoes (13 counts by rank, 8 decks less a uniform random number of
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

TARGET = 5.0  # batched path over the frozen kernel, same run, same shoes (the first target was 2x)
TARGET_512 = 1.7  # native kernel over the reference kernel with 512-bit vectors (AVX-512), same run
TARGET_256 = 1.15  # the same with 256-bit vectors (AVX2)
TARGET_BOUND = 0.75  # native kernel over the core's read-modify-write bound (same vector width)
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


def load_reference_kernel():
    """The kernel the package's kernels are tested against (``tests/reference_kernel.py``)."""
    tests = str(Path(__file__).resolve().parents[1])
    sys.path.insert(0, tests)
    try:
        import reference_kernel
    finally:
        sys.path.remove(tests)
    return reference_kernel


def bound_kernel(isa: str, strip: int, lanes: int = 128):
    """A small loop at the core's read-modify-write limit: ``acc[g] = fma(w, row, acc[g])`` over a list of (event,
    weight) pairs, for ``strip`` vectors of a ``lanes``-lane row held in registers (the kernel's innermost work and
    nothing else), built for ``isa`` like the kernel.  Returns ``f(acc, event, weight, reps)``."""
    import ctypes

    from toolkit.exact import _native

    llvm = _native._llvm()
    cpu, features, width = _native.target(isa)
    e = _native._Ir(width, lanes)
    vec, n_vec = e.vec, e.n_vec
    strip = min(strip, n_vec)
    e(f"declare {vec} @llvm.fma.v{width}f64({vec}, {vec}, {vec})")
    e("define void @rmw(ptr noalias %acc, ptr noalias readonly %row, ptr noalias readonly %event, ")
    e("                 ptr noalias readonly %weight, i64 %n, i64 %reps) #0 {")
    e("entry:")
    e("  br label %rep")
    e("rep:")
    e("  %rp = phi i64 [ 0, %entry ], [ %rp.next, %rep.end ]")
    e("  br label %strip0")
    n_strips = (n_vec + strip - 1) // strip
    for t in range(n_strips):
        js = range(t * strip, min((t + 1) * strip, n_vec))
        e(f"strip{t}:")
        for j in js:
            e.vload(f"%x.{j}", "%row", str(j * width))
        e(f"  br label %k{t}")
        e(f"k{t}:")
        e(f"  %k.{t} = phi i64 [ 0, %strip{t} ], [ %k.{t}.next, %k{t} ]")
        e(f"  %g.{t}.p = getelementptr inbounds i64, ptr %event, i64 %k.{t}")
        e(f"  %g.{t} = load i64, ptr %g.{t}.p, align 8")
        e(f"  %w.{t}.p = getelementptr inbounds double, ptr %weight, i64 %k.{t}")
        e(f"  %w.{t} = load double, ptr %w.{t}.p, align 8")
        e.splat(f"%ws.{t}", f"%w.{t}")
        e(f"  %go.{t} = mul i64 %g.{t}, {lanes}")
        for j in js:
            e(f"  %ao.{t}.{j} = add i64 %go.{t}, {j * width}")
            e.vload(f"%a.{t}.{j}", "%acc", f"%ao.{t}.{j}")
            e(f"  %an.{t}.{j} = call {vec} @llvm.fma.v{width}f64({vec} %ws.{t}, {vec} %x.{j}, {vec} %a.{t}.{j})")
            e.vstore(f"%an.{t}.{j}", "%acc", f"%ao.{t}.{j}", f"%as.{t}.{j}")
        e(f"  %k.{t}.next = add i64 %k.{t}, 1")
        e(f"  %k.{t}.more = icmp slt i64 %k.{t}.next, %n")
        nxt = f"strip{t + 1}" if t + 1 < n_strips else "rep.end"
        e(f"  br i1 %k.{t}.more, label %k{t}, label %{nxt}")
    e("rep.end:")
    e("  %rp.next = add i64 %rp, 1")
    e("  %rp.more = icmp slt i64 %rp.next, %reps")
    e("  br i1 %rp.more, label %rep, label %done")
    e("done:")
    e("  ret void")
    e("}")
    e(f'attributes #0 = {{ nounwind "min-legal-vector-width"="{64 * width}" "prefer-vector-width"="{64 * width}" }}')
    machine = llvm.Target.from_default_triple().create_target_machine(cpu=cpu, features=features, opt=3)
    module = llvm.parse_assembly("\n".join(e.lines) + "\n")
    module.verify()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    proto = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 4), ctypes.c_int64, ctypes.c_int64)
    function = proto(engine.get_function_address("rmw"))
    row = _native.aligned_empty((lanes,))
    row[:] = 1.0 + 1e-9

    def run(acc: np.ndarray, event: np.ndarray, weight: np.ndarray, reps: int) -> None:
        function(acc.ctypes.data, row.ctypes.data, event.ctypes.data, weight.ctypes.data, len(event), reps)

    run.engine = engine  # type: ignore[attr-defined]  # keeps the machine code alive
    return run


def kernel_section(shoes: np.ndarray, panel, repeats: int) -> bool:
    """The event kernels alone on the panel's event table, interleaved, CPU time; the read-modify-write bound."""
    from toolkit.exact import _native
    from toolkit.exact._kernels import CHUNK, LANES, event_kernel
    from toolkit.exact.engine import _values_from_ranks, compiled_bets

    table = compiled_bets(tuple(panel)).events
    values = np.ascontiguousarray(_values_from_ranks(as_rank_matrix(shoes)))
    reference = load_reference_kernel()
    isas = [isa for isa in ("avx512", "avx2") if _supported(isa)]
    kernels = {"reference (tests/reference_kernel.py)": lambda: reference.reference_columns(table, values)}
    kernels["numba kernel (event_kernel)"] = lambda: event_kernel(
        values, table.walk.arrays, table.base, table.delta, LANES, CHUNK
    )
    widths = sorted({LANES, _native.block_lanes(table.n_events)})  # 64 too where the table call takes 64 lanes
    built = {(isa, lanes): _native.native_kernel(isa, lanes=lanes) for isa in isas for lanes in widths}
    for (isa, lanes), kernel in built.items():
        kernels[f"native kernel, {isa}, {lanes} lanes"] = lambda kernel=kernel: kernel(table, values, CHUNK)
    expected = kernels["reference (tests/reference_kernel.py)"]()
    identical = {name: bool(np.array_equal(fn(), expected, equal_nan=True)) for name, fn in kernels.items()}

    walk = table.walk
    n_events, n_out = table.delta.shape
    n_nodes, n_weights = len(walk.level), len(walk.weight)
    flushes = n_events * (-(-n_nodes // CHUNK) + 1)
    per_state = n_weights + n_nodes + flushes + n_events * n_out
    rng = np.random.default_rng(0)
    event = np.ascontiguousarray(walk.event)
    weight = np.ascontiguousarray(walk.weight) * 1e-12  # small: the sums stay finite and normal
    loops = {}
    for (isa, lanes), kernel in built.items():
        acc = _native.aligned_empty((n_events, lanes))
        acc[:] = rng.random(acc.shape)
        run = bound_kernel(isa, kernel.strip, lanes)
        reps = reps_of(len(shoes), lanes)
        loops[f"bound, {isa}, {lanes} lanes"] = lambda run=run, acc=acc, reps=reps: run(acc, event, weight, reps)
    timed = interleaved(repeats, {**kernels, **loops})

    ref_cpu = timed["reference (tests/reference_kernel.py)"][2]
    print()
    print(
        f"kernels alone on {len(shoes):,} shoes, panel event table: {n_events} events, {n_nodes:,} nodes, "
        f"{n_weights:,} weights; CPU time, median of {repeats} interleaved runs; the table call takes "
        f"{_native.block_lanes(n_events)} lanes a block on this CPU (L1 data cache: {_native.l1_data_bytes()} bytes)"
    )
    print(f"{'kernel':<40} {'states/s/core':>14} {'x reference':>12} {'bit for bit':>12}")
    for name in kernels:
        cpu = timed[name][2]
        print(f"{name:<40} {len(shoes) / cpu:>14,.0f} {ref_cpu / cpu:>12.2f} {identical[name]!s:>12}")
    ok = all(identical.values())
    targets = {"avx512": TARGET_512, "avx2": TARGET_256}
    print(
        f"read-modify-write lane updates a state: {per_state:,} ({n_weights:,} weights + {n_nodes:,} node rows "
        f"+ {flushes:,} flushes + {n_events * n_out:,} outputs)"
    )
    for isa, lanes in built:
        lane_rate = reps_of(len(shoes), lanes) * len(event) * lanes / timed[f"bound, {isa}, {lanes} lanes"][2]
        bound = lane_rate / per_state
        cpu = timed[f"native kernel, {isa}, {lanes} lanes"][2]
        rate, ratio = len(shoes) / cpu, ref_cpu / cpu
        fraction = rate / bound
        met = ratio >= targets[isa] and fraction >= TARGET_BOUND
        print(
            f"{isa}, {lanes} lanes: bound {lane_rate / 1e9:.2f} G lane updates/s = {bound:,.0f} states/s; native "
            f"kernel {rate:,.0f} states/s = {100 * fraction:.0f} % of it; {ratio:.2f} x the reference "
            f"(targets >= {targets[isa]:g} x, >= {100 * TARGET_BOUND:.0f} %) -> {'MET' if met else 'NOT MET'}"
        )
    return ok


def reps_of(shoes: int, lanes: int) -> int:
    """Passes of the bound's loop standing for ``shoes`` states at ``lanes`` a block."""
    return max(1, shoes // lanes)


def _supported(isa: str) -> bool:
    from toolkit.exact import _native

    try:
        _native.target(isa)
    except ValueError:
        return False
    return True


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
    parser.add_argument("--kernels", action="store_true", help="only the kernels alone and the bound")
    parser.add_argument("--kernel-shoes", type=int, default=20_000, help="shoes for the kernels alone")
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

    kernels_ok = kernel_section(shoes[: args.kernel_shoes], panel, args.repeats)
    if args.kernels:
        return 0 if kernels_ok else 1

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
    return 0 if ok_exact and kernels_ok else 1


if __name__ == "__main__":
    sys.exit(main())
