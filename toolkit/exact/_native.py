"""The engine's walk as a native kernel built at run time for the CPU it runs on (llvmlite, installed with numba).

The numba kernel of :mod:`toolkit.exact._kernels` loops over the shoes of a block to a run-time width,
so LLVM vectorises it for 256-bit registers, with run-time alias checks and unaligned scratch.  This module
writes the same walk in LLVM IR with the lane width a compile-time constant (``LANES`` shoes a block, or 64
where a 128-lane block's event sums would overflow the CPU's L1 data cache, :func:`block_lanes`; in
vectors of ``width`` doubles: 8 where the CPU has AVX-512, 4 with AVX2, 2 otherwise), every row 64-byte
aligned, and a node's row formed once per strip of ``strip`` vectors and kept in registers while the node's
weights are applied to the event sums (``acc[g] += w * row``: a load, a fused multiply-add and a store per
vector).  The ratios of a block are made once, one row per distinct ratio of the walk, so a node's row is its
parent's times one row of that table.  A node's run of leaf children (the level-6 multisets under a level-5
one, most of the walk) is formed from the parent's row still in registers, and no row that no later node reads
is stored (with 512-bit vectors; with narrower ones the registers are too few and each node reloads its
parent's row, see :func:`native_kernel`).  The CPU's features are read when the kernel is first used
(:func:`target`), never at install time, and nothing needs setting.

Each event sum receives the same terms in the same order, with the same roundings, as in the reference
kernel (``fma(w, row, acc)`` where numba contracts ``acc += w * row``; partial sums per ``CHUNK`` nodes;
``(n_v - h) * (1 / (N - s))`` for a node's ratio), so the results are bit for bit those of
:func:`toolkit.exact._kernels.event_kernel` (``tests/test_kernels.py`` checks it).  Where the kernel cannot
be built (no LLVM target for the machine), :func:`native_kernel` returns None and the numba kernel runs.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numba
import numpy as np

__all__ = ["ISAS", "NativeKernel", "aligned_empty", "block_lanes", "l1_data_bytes", "native_kernel", "target"]

#: Shoes per block: a compile-time constant of the native kernel (rows of 1 KiB, 64-byte aligned).
LANES = 128
#: Instruction sets the kernel can be built for: ``"native"`` is the best one the CPU has.
ISAS = ("native", "avx512", "avx2", "sse2")
#: Blocks per call of the kernel: bounds the event sums held at once (events x LANES x 8 bytes a block).
_BLOCKS_PER_CALL = 64


@lru_cache(maxsize=1)
def l1_data_bytes() -> int | None:
    """The size of the first core's level-1 data cache in bytes, read from Linux's sysfs; None where it is not there.

    >>> size = l1_data_bytes()
    >>> size is None or size >= 1024
    True
    """
    from pathlib import Path

    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            level, kind, size = ((index / name).read_text().strip() for name in ("level", "type", "size"))
        except OSError:
            continue
        if level == "1" and kind == "Data" and size[:-1].isdigit() and size[-1] in "KM":
            return int(size[:-1]) * (1024 if size[-1] == "K" else 1024 * 1024)
    return None


def block_lanes(n_events: int, l1_bytes: int | None = None) -> int:
    """Shoes a block of the native kernel for an event table of ``n_events`` events: ``LANES`` (128), or 64 where the
    event sums of a 128-lane block (``n_events x 128 x 8`` bytes, rewritten by every weight) overflow the CPU's L1 data
    cache and those of a 64-lane one fit in it (``l1_bytes``, by default :func:`l1_data_bytes`; 128 when unknown).

    Measured with the standard panel's 38 events (38 KiB of sums at 128 lanes): on an AMD EPYC Zen 4 (32 KiB of L1)
    64 lanes are 1.08 to 1.14 times as fast as 128; on an Intel Xeon (48 KiB) 5 to 10 % slower.  The numbers are
    the same bit for bit at any width.

    >>> block_lanes(38, 32 * 1024), block_lanes(38, 48 * 1024), block_lanes(38, None) in (64, 128)
    (64, 128, True)
    """
    size = l1_data_bytes() if l1_bytes is None else l1_bytes
    if size is None:
        return LANES
    wide, narrow = n_events * LANES * 8, n_events * (LANES // 2) * 8
    return LANES // 2 if wide > size >= narrow else LANES


def aligned_empty(shape: tuple[int, ...], align: int = 64) -> np.ndarray:
    """An uninitialised float64 array whose first element sits on an ``align``-byte boundary."""
    n = int(np.prod(shape))
    buf = np.empty(n + align // 8)
    skip = (-buf.ctypes.data % align) // 8
    return buf[skip : skip + n].reshape(shape)


def _llvm() -> Any:
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm


def target(isa: str = "native") -> tuple[str, str, int]:
    """``(cpu, features, width)`` for ``isa``: the host's CPU name and feature string, and doubles per vector.

    ``"native"`` picks 512-bit vectors where the host has AVX-512 (F and DQ), else 256-bit ones with AVX2 and FMA,
    else 128-bit ones; ``"avx2"`` and ``"sse2"`` switch the wider features off (to measure what a smaller CPU
    gets); ``"avx512"`` needs the host to have it.
    """
    if isa not in ISAS:
        raise ValueError(f"isa must be one of {', '.join(ISAS)}; got {isa!r}")
    llvm = _llvm()
    cpu = llvm.get_host_cpu_name()
    features = dict(llvm.get_host_cpu_features())
    has512 = bool(features.get("avx512f") and features.get("avx512dq"))
    has256 = bool(features.get("avx2") and features.get("fma"))
    if isa == "native":
        isa = "avx512" if has512 else "avx2" if has256 else "sse2"
    if (isa == "avx512" and not has512) or (isa == "avx2" and not has256):
        raise ValueError(f"this CPU ({cpu}) has no {isa}")
    if isa != "avx512":
        features = {k: (on and not k.startswith(("avx512", "amx", "avx10", "evex512"))) for k, on in features.items()}
    if isa == "sse2":
        wide = ("avx", "fma", "f16c", "vaes", "vpclmul")
        features = {k: (on and not k.startswith(wide)) for k, on in features.items()}
    flat = ",".join(("+" if on else "-") + k for k, on in sorted(features.items()))
    if isa == "avx512":
        flat += ",-prefer-256-bit"
    return cpu, flat, {"avx512": 8, "avx2": 4, "sse2": 2}[isa]


class _Ir:
    """Lines of LLVM IR for vectors of ``width`` doubles, and the few instruction patterns the kernel repeats."""

    def __init__(self, width: int, lanes: int = LANES, row: int = LANES, table: bool = False) -> None:
        self.width = width
        self.table = table  # the ratios of a block made once into a table of rows, one per distinct ratio code
        self.lanes = lanes
        self.row = row  # doubles from one row of a buffer to the next
        self.vec = f"<{width} x double>"
        self.align = 8 * width
        self.n_vec = lanes // width
        self.lines: list[str] = []

    def __call__(self, line: str) -> None:
        self.lines.append(line)

    def splat(self, name: str, scalar: str) -> None:
        vec = self.vec
        self(f"  {name}.i = insertelement {vec} poison, double {scalar}, i32 0")
        self(f"  {name} = shufflevector {vec} {name}.i, {vec} poison, <{self.width} x i32> zeroinitializer")

    def vload(self, name: str, base: str, index: str) -> None:
        self(f"  {name}.p = getelementptr inbounds double, ptr {base}, i64 {index}")
        self(f"  {name} = load {self.vec}, ptr {name}.p, align {self.align}")

    def vstore(self, value: str, base: str, index: str, tag: str) -> None:
        self(f"  {tag}.p = getelementptr inbounds double, ptr {base}, i64 {index}")
        self(f"  store {self.vec} {value}, ptr {tag}.p, align {self.align}")

    def rows(self, label: str, previous: str, after: str, body: Callable[[str, str], None]) -> None:
        """A loop over the ``nevents`` rows of event sums (index ``%label``), ``body(offset_name, tag)`` per vector."""
        e = self
        e(f"{label}:")
        e(f"  %{label}.g = phi i64 [ 0, %{previous} ], [ %{label}.next, %{label} ]")
        e(f"  %{label}.o = mul i64 %{label}.g, {self.row}")
        for j in range(self.n_vec):
            e(f"  %{label}.o{j} = add i64 %{label}.o, {j * self.width}")
            body(f"%{label}.o{j}", f"%{label}.{j}")
        e(f"  %{label}.next = add i64 %{label}.g, 1")
        e(f"  %{label}.more = icmp slt i64 %{label}.next, %nevents")
        e(f"  br i1 %{label}.more, label %{label}, label %{after}")


def _ir_block(e: _Ir) -> None:
    """The start of a block of ``LANES`` shoes: row 0 of the path set to 1, the event sums cleared."""
    e("block:")
    e("  %blk = phi i64 [ 0, %entry ], [ %blk.next, %block.end ]")
    e(f"  %nvb.o = mul i64 %blk, {10 * e.row}")
    e("  %nvb = getelementptr inbounds double, ptr %nv, i64 %nvb.o")
    e(f"  %invb.o = mul i64 %blk, {6 * e.row}")
    e("  %invb = getelementptr inbounds double, ptr %inv, i64 %invb.o")
    e(f"  %totb.o0 = mul i64 %blk, {e.row}")
    e("  %totb.o = mul i64 %totb.o0, %nevents")
    e("  %tot = getelementptr inbounds double, ptr %sums, i64 %totb.o")
    for j in range(e.n_vec):
        e.vstore("%one", "%stack", str(j * e.width), f"%st0.{j}")
    e("  %ev.any = icmp sgt i64 %nevents, 0")
    first = "tab.pre" if e.table else "nodes.pre"
    e(f"  br i1 %ev.any, label %clear, label %{first}")

    def clear(offset: str, tag: str) -> None:
        e.vstore("%zero", "%acc", offset, f"{tag}.a")
        e.vstore("%zero", "%tot", offset, f"{tag}.t")

    e.rows("clear", "block", first, clear)
    if e.table:
        _ir_table(e)
    e("nodes.pre:")
    e("  %nodes.any = icmp sgt i64 %nnodes, 0")
    e("  br i1 %nodes.any, label %node, label %finish.pre")


def _ir_table(e: _Ir) -> None:
    """The block's table of ratio rows: row ``c`` is ``(n_v - h) * (1 / (N - s))`` for ratio code ``codes[c]``."""
    vec, width = e.vec, e.width
    e("tab.pre:")
    e("  %tab.any = icmp sgt i64 %ncodes, 0")
    e("  br i1 %tab.any, label %tab, label %nodes.pre")
    e("tab:")
    e("  %tc = phi i64 [ 0, %tab.pre ], [ %tc.next, %tab ]")
    e("  %tc.p = getelementptr inbounds i64, ptr %codes, i64 %tc")
    e("  %tc.r = load i64, ptr %tc.p, align 8")
    e("  %tc.v = udiv i64 %tc.r, 36")
    e("  %tc.r6 = udiv i64 %tc.r, 6")
    e("  %tc.hi = urem i64 %tc.r6, 6")
    e("  %tc.h = sitofp i64 %tc.hi to double")
    e("  %tc.q = urem i64 %tc.r, 6")
    e(f"  %tc.nvo = mul i64 %tc.v, {e.row}")
    e(f"  %tc.invo = mul i64 %tc.q, {e.row}")
    e(f"  %tc.o = mul i64 %tc, {e.row}")
    e.splat("%tc.hv", "%tc.h")
    for j in range(e.n_vec):
        for name, base, offset in (("n", "%nvb", "%tc.nvo"), ("iv", "%invb", "%tc.invo")):
            e(f"  %tc.{name}o{j} = add i64 {offset}, {j * width}")
            e.vload(f"%tc.{name}{j}", base, f"%tc.{name}o{j}")
        e(f"  %tc.d{j} = fsub {vec} %tc.n{j}, %tc.hv")
        e(f"  %tc.m{j} = fmul {vec} %tc.d{j}, %tc.iv{j}")
        e(f"  %tc.so{j} = add i64 %tc.o, {j * width}")
        e.vstore(f"%tc.m{j}", "%tabs", f"%tc.so{j}", f"%tc.s{j}")
    e("  %tc.next = add i64 %tc, 1")
    e("  %tc.more = icmp slt i64 %tc.next, %ncodes")
    e("  br i1 %tc.more, label %tab, label %nodes.pre")


def _ir_node(e: _Ir) -> None:
    """The start of a node: the partial sums flushed every ``chunk`` nodes, the node's ratio, weights and rows."""
    e("node:")
    e("  %i = phi i64 [ 0, %nodes.pre ], [ %i.after, %node.end ]")
    e("  %cd = phi i64 [ %chunk, %nodes.pre ], [ %cd.next, %node.end ]")  # nodes left in the chunk (no division)
    e("  %flush.now = icmp eq i64 %cd, 0")
    e("  %cd.now = select i1 %flush.now, i64 %chunk, i64 %cd")
    e("  br i1 %flush.now, label %flush, label %node.body")

    def flush(offset: str, tag: str) -> None:
        e.vload(f"{tag}.t", "%tot", offset)
        e.vload(f"{tag}.a", "%acc", offset)
        e(f"  {tag}.s = fadd {e.vec} {tag}.t, {tag}.a")
        e.vstore(f"{tag}.s", "%tot", offset, f"{tag}.st")
        e.vstore("%zero", "%acc", offset, f"{tag}.z")

    e.rows("flush", "node", "node.body", flush)
    e("node.body:")
    for name, array, index in (("s", "level", "%i"), ("r", "ratio", "%i")):
        e(f"  %{name}.p = getelementptr inbounds i64, ptr %{array}, i64 {index}")
        e(f"  %{name} = load i64, ptr %{name}.p, align 8")
    e("  %v = udiv i64 %r, 36")
    e("  %r6 = udiv i64 %r, 6")
    e("  %hi = urem i64 %r6, 6")
    e("  %h = sitofp i64 %hi to double")
    e("  %q = urem i64 %r, 6")
    e("  %i.next = add i64 %i, 1")
    for name, index in (("k0", "%i"), ("k1", "%i.next")):
        e(f"  %{name}.p = getelementptr inbounds i64, ptr %start, i64 {index}")
        e(f"  %{name} = load i64, ptr %{name}.p, align 8")
    e("  %has.k = icmp slt i64 %k0, %k1")
    e("  %pl.p = getelementptr inbounds i64, ptr %plan, i64 %i")  # run of leaf children | store flag << 32
    e("  %pl = load i64, ptr %pl.p, align 8")
    e("  %run = and i64 %pl, 4294967295")
    e("  %keep.b = lshr i64 %pl, 32")
    e("  %keep = icmp ne i64 %keep.b, 0")
    e("  %has.run = icmp ne i64 %run, 0")
    e("  %run.end = add i64 %i, %run")
    e("  %step = add i64 %run, 1")
    e(f"  %row.o = mul i64 %s, {e.row}")
    e(f"  %par.o = sub i64 %row.o, {e.row}")
    e(f"  %nvr.o = mul i64 %v, {e.row}")
    e(f"  %invr.o = mul i64 %q, {e.row}")
    if e.table:
        e("  %ti.p = getelementptr inbounds i64, ptr %idx, i64 %i")
        e("  %ti = load i64, ptr %ti.p, align 8")
        e(f"  %tab.o = mul i64 %ti, {e.row}")
    e.splat("%hv", "%h")
    e("  br label %strip0")


def _ir_weights(e: _Ir, tag: str, rows: list[str], js: range, k_first: str, k_last: str, come: str, then: str) -> None:
    """``acc[g] = fma(w, row, acc[g])`` for each weight ``k_first .. k_last - 1`` (the row's vectors ``rows``, in
    registers), entered from block ``come`` and leaving to ``then``; the loop's block is ``tag``."""
    vec, width = e.vec, e.width
    e(f"{tag}:")
    e(f"  %{tag}.k = phi i64 [ {k_first}, %{come} ], [ %{tag}.next, %{tag} ]")
    e(f"  %{tag}.gp = getelementptr inbounds i64, ptr %event, i64 %{tag}.k")
    e(f"  %{tag}.g = load i64, ptr %{tag}.gp, align 8")
    e(f"  %{tag}.wp = getelementptr inbounds double, ptr %weight, i64 %{tag}.k")
    e(f"  %{tag}.w = load double, ptr %{tag}.wp, align 8")
    e.splat(f"%{tag}.ws", f"%{tag}.w")
    e(f"  %{tag}.go = mul i64 %{tag}.g, {e.row}")
    for x, j in zip(rows, js, strict=True):
        e(f"  %{tag}.ao{j} = add i64 %{tag}.go, {j * width}")
        e.vload(f"%{tag}.a{j}", "%acc", f"%{tag}.ao{j}")
        e(f"  %{tag}.an{j} = call {vec} @llvm.fma.v{width}f64({vec} %{tag}.ws, {vec} {x}, {vec} %{tag}.a{j})")
        e.vstore(f"%{tag}.an{j}", "%acc", f"%{tag}.ao{j}", f"%{tag}.as{j}")
    e(f"  %{tag}.next = add i64 %{tag}.k, 1")
    e(f"  %{tag}.more = icmp slt i64 %{tag}.next, {k_last}")
    e(f"  br i1 %{tag}.more, label %{tag}, label %{then}")


def _ir_row(e: _Ir, out: str, parents: list[str], js: range, h: str, nv_o: str, inv_o: str) -> None:
    """``out.j = parent.j * ((n_v - h) * (1 / (N - s)))`` for the vectors ``js`` of a row (two roundings in the
    ratio, one in the product, as in the reference kernel)."""
    vec, width = e.vec, e.width
    if e.table:  # the ratio made once a block: nv_o is the offset of its row in the table
        for p, j in zip(parents, js, strict=True):
            e(f"  {out}.to{j} = add i64 {nv_o}, {j * width}")
            e.vload(f"{out}.t{j}", "%tabs", f"{out}.to{j}")
            e(f"  {out}.{j} = fmul {vec} {p}, {out}.t{j}")
        return
    for p, j in zip(parents, js, strict=True):
        for name, base, offset in (("n", "%nvb", nv_o), ("iv", "%invb", inv_o)):
            e(f"  {out}.{name}o{j} = add i64 {offset}, {j * width}")
            e.vload(f"{out}.{name}{j}", base, f"{out}.{name}o{j}")
        e(f"  {out}.d{j} = fsub {vec} {out}.n{j}, {h}")
        e(f"  {out}.m{j} = fmul {vec} {out}.d{j}, {out}.iv{j}")
        e(f"  {out}.{j} = fmul {vec} {p}, {out}.m{j}")


def _ir_strips(e: _Ir, strip: int) -> None:
    """The node's row, ``strip`` vectors at a time, kept in registers while its weights go to the event sums
    (stored only if a child outside its run of leaves needs it), then the rows of its run of leaf children, each
    formed from the parent's row still in registers and never stored."""
    width, n_vec = e.width, e.n_vec
    n_strips = (n_vec + strip - 1) // strip
    for t in range(n_strips):
        js = range(t * strip, min((t + 1) * strip, n_vec))
        nxt = f"strip{t + 1}" if t + 1 < n_strips else "node.end"
        e(f"strip{t}:")
        parents = []
        for j in js:
            e(f"  %po.{j} = add i64 %par.o, {j * width}")
            e.vload(f"%p.{j}", "%stack", f"%po.{j}")
            parents.append(f"%p.{j}")
        _ir_row(e, f"%x{t}", parents, js, "%hv", "%tab.o" if e.table else "%nvr.o", "%invr.o")
        rows = [f"%x{t}.{j}" for j in js]
        e(f"  br i1 %keep, label %strip{t}.st, label %strip{t}.w")
        e(f"strip{t}.st:")
        for j in js:
            e(f"  %so.{j} = add i64 %row.o, {j * width}")
            e.vstore(f"%x{t}.{j}", "%stack", f"%so.{j}", f"%sx.{j}")
        e(f"  br label %strip{t}.w")
        e(f"strip{t}.w:")
        e(f"  br i1 %has.k, label %strip{t}.k, label %strip{t}.kend")
        _ir_weights(e, f"strip{t}.k", rows, js, "%k0", "%k1", f"strip{t}.w", f"strip{t}.kend")
        e(f"strip{t}.kend:")
        e(f"  br i1 %has.run, label %strip{t}.c, label %{nxt}")
        c = f"%c{t}"  # the leaf children i + 1 .. i + run
        e(f"strip{t}.c:")
        e(f"  {c} = phi i64 [ %i.next, %strip{t}.kend ], [ {c}.next, %strip{t}.cend ]")
        e(f"  {c}.rp = getelementptr inbounds i64, ptr %ratio, i64 {c}")
        e(f"  {c}.r = load i64, ptr {c}.rp, align 8")
        e(f"  {c}.v = udiv i64 {c}.r, 36")
        e(f"  {c}.r6 = udiv i64 {c}.r, 6")
        e(f"  {c}.hi = urem i64 {c}.r6, 6")
        e(f"  {c}.h = sitofp i64 {c}.hi to double")
        e(f"  {c}.q = urem i64 {c}.r, 6")
        e(f"  {c}.nvo = mul i64 {c}.v, {e.row}")
        e(f"  {c}.invo = mul i64 {c}.q, {e.row}")
        e.splat(f"{c}.hv", f"{c}.h")
        if e.table:
            e(f"  {c}.tip = getelementptr inbounds i64, ptr %idx, i64 {c}")
            e(f"  {c}.ti = load i64, ptr {c}.tip, align 8")
            e(f"  {c}.tabo = mul i64 {c}.ti, {e.row}")
        _ir_row(e, f"{c}.y", rows, js, f"{c}.hv", f"{c}.tabo" if e.table else f"{c}.nvo", f"{c}.invo")
        e(f"  {c}.next = add i64 {c}, 1")
        e(f"  {c}.k0p = getelementptr inbounds i64, ptr %start, i64 {c}")
        e(f"  {c}.k0 = load i64, ptr {c}.k0p, align 8")
        e(f"  {c}.k1p = getelementptr inbounds i64, ptr %start, i64 {c}.next")
        e(f"  {c}.k1 = load i64, ptr {c}.k1p, align 8")
        e(f"  {c}.hask = icmp slt i64 {c}.k0, {c}.k1")
        e(f"  br i1 {c}.hask, label %strip{t}.ck, label %strip{t}.cend")
        _ir_weights(
            e, f"strip{t}.ck", [f"{c}.y.{j}" for j in js], js, f"{c}.k0", f"{c}.k1", f"strip{t}.c", f"strip{t}.cend"
        )
        e(f"strip{t}.cend:")
        e(f"  {c}.more = icmp sle i64 {c}.next, %run.end")
        e(f"  br i1 {c}.more, label %strip{t}.c, label %{nxt}")
    e("node.end:")
    e("  %i.after = add i64 %run.end, 1")
    e("  %cd.next = sub i64 %cd.now, %step")
    e("  %i.more = icmp slt i64 %i.after, %nnodes")
    e("  br i1 %i.more, label %node, label %finish.pre")


def _ir(width: int, strip: int, lanes: int, row: int, table: bool = False) -> str:
    """LLVM IR of ``walk_blocks`` for vectors of ``width`` doubles, rows formed ``strip`` vectors at a time, rows of
    every buffer ``row`` doubles apart."""
    e = _Ir(width, lanes, row, table)
    vec = e.vec
    e(f"declare {vec} @llvm.fma.v{width}f64({vec}, {vec}, {vec})")
    e("")
    e(
        "define void @walk_blocks(ptr noalias readonly %nv, ptr noalias readonly %inv, "
        "i64 %nblocks, ptr noalias readonly %level, ptr noalias readonly %ratio, "
        "ptr noalias readonly %start, ptr noalias readonly %event, "
        "ptr noalias readonly %weight, i64 %nnodes, i64 %chunk, i64 %nevents, "
        "ptr noalias %stack, ptr noalias %acc, ptr noalias %sums, "
        "ptr noalias readonly %plan, ptr noalias readonly %idx, ptr noalias readonly %codes, i64 %ncodes, "
        "ptr noalias %tabs) #0 {"
    )
    e("entry:")
    e.splat("%zero", "0.0")
    e.splat("%one", "1.0")
    e("  %any = icmp sgt i64 %nblocks, 0")
    e("  br i1 %any, label %block, label %done")
    _ir_block(e)
    _ir_node(e)
    _ir_strips(e, min(strip, e.n_vec))
    e("finish.pre:")  # the block's event sums: tot + acc, left in sums
    e("  br i1 %ev.any, label %finish, label %block.end")

    def finish(offset: str, tag: str) -> None:
        e.vload(f"{tag}.t", "%tot", offset)
        e.vload(f"{tag}.a", "%acc", offset)
        e(f"  {tag}.s = fadd {vec} {tag}.t, {tag}.a")
        e.vstore(f"{tag}.s", "%tot", offset, f"{tag}.st")

    e.rows("finish", "finish.pre", "block.end", finish)
    e("block.end:")
    e("  %blk.next = add i64 %blk, 1")
    e("  %blk.more = icmp slt i64 %blk.next, %nblocks")
    e("  br i1 %blk.more, label %block, label %done")
    e("done:")
    e("  ret void")
    e("}")
    e("")
    e(f'attributes #0 = {{ nounwind "min-legal-vector-width"="{64 * width}" "prefer-vector-width"="{64 * width}" }}')
    return "\n".join(e.lines) + "\n"


_ARGTYPES = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64] + [ctypes.c_void_p] * 5
_ARGTYPES += [ctypes.c_int64] * 3 + [ctypes.c_void_p] * 6 + [ctypes.c_int64, ctypes.c_void_p]


@dataclass(frozen=True)
class NativeKernel:
    """A built kernel: ``isa`` and vector ``width`` it was built for, its machine code's entry point."""

    isa: str
    width: int
    strip: int
    lanes: int
    row: int
    fuse: bool
    function: Any
    engine: Any  # keeps the machine code alive
    walks: dict = field(default_factory=dict, repr=False, compare=False)  # what _walk made, by walk

    def _walk(self, walk: Any, chunk: int) -> tuple[np.ndarray, ...]:
        """The walk's arrays as the kernel reads them, with its plan and ratio table (made once per walk)."""
        made = self.walks.get((id(walk), chunk))
        if made is not None and made[0] is walk:
            return made[1]
        level, ratio, start, event, weight = (np.ascontiguousarray(a) for a in walk.arrays)
        plan = _plan(level, chunk, self.fuse)
        codes, idx = np.unique(ratio, return_inverse=True)
        codes, idx = np.ascontiguousarray(codes, dtype=np.int64), np.ascontiguousarray(idx, dtype=np.int64).ravel()
        arrays = (level, ratio, start, event, weight, plan, idx, codes)
        if len(self.walks) >= 16:  # many event tables in turn: keep the latest
            self.walks.clear()
        self.walks[(id(walk), chunk)] = (walk, arrays)
        return arrays

    def __call__(self, table: Any, values: np.ndarray, chunk: int, out: np.ndarray | None = None) -> np.ndarray:
        """``(B, C)`` columns of ``table`` (an :class:`~toolkit.exact._kernels.EventTable`) for ``(B, 10)`` counts,
        written into ``out`` when given (a ``(B, C)`` float64 array whose rows may be a slice of a larger one)."""
        rows = values.shape[0]
        n_events, n_out = table.delta.shape
        if out is None:
            out = np.empty((rows, n_out))
        elif out.shape != (rows, n_out) or out.dtype != np.float64:
            raise ValueError(f"out must be a ({rows}, {n_out}) float64 array; got {out.shape} {out.dtype}")
        if rows == 0:
            return out
        level, ratio, start, event, weight, plan, idx, codes = self._walk(table.walk, chunk)
        tabs = aligned_empty((max(len(codes), 1), self.row))
        row, lanes = self.row, self.lanes
        stack = aligned_empty((7, row))
        acc = aligned_empty((max(n_events, 1), row))
        step = _BLOCKS_PER_CALL * lanes
        blocks = min(_BLOCKS_PER_CALL, -(-rows // lanes))
        nv = aligned_empty((blocks, 10, row))
        inv = aligned_empty((blocks, 6, row))
        sums = aligned_empty((blocks, max(n_events, 1), row))
        for first in range(0, rows, step):
            part = values[first : first + step]
            n_blocks = -(-part.shape[0] // lanes)
            _prepare(part, nv, inv, lanes)
            self.function(
                nv.ctypes.data,
                inv.ctypes.data,
                n_blocks,
                level.ctypes.data,
                ratio.ctypes.data,
                start.ctypes.data,
                event.ctypes.data,
                weight.ctypes.data,
                level.shape[0],
                chunk,
                n_events,
                stack.ctypes.data,
                acc.ctypes.data,
                sums.ctypes.data,
                plan.ctypes.data,
                idx.ctypes.data,
                codes.ctypes.data,
                len(codes),
                tabs.ctypes.data,
            )
            _output(sums, table.base, table.delta, out[first : first + part.shape[0]], lanes)
        return out


@numba.njit(cache=True, nogil=True)
def _plan(level, chunk, fuse):  # pragma: no cover - compiled
    """Per node ``run | keep << 32``: ``run`` leaf children right after it in the walk, within its chunk of nodes,
    whose rows the kernel forms from its row in registers (none unless ``fuse``); ``keep`` whether a later node
    still reads its row."""
    n = level.shape[0]
    plan = np.zeros(n, dtype=np.int64)
    i = 0
    while i < n:
        s = level[i]
        end = (i // chunk + 1) * chunk
        j = i + 1
        while fuse and j < n and j < end and level[j] == s + 1 and (j + 1 == n or level[j + 1] <= s + 1):
            j += 1
        run = j - i - 1
        keep = 1 if j < n and level[j] > s else 0
        plan[i] = run | (keep << 32)
        i = j
    return plan


@numba.njit(cache=True, nogil=True)
def _prepare(values, nv, inv, lanes):  # pragma: no cover - compiled
    """Counts by value (as floats) and the six reciprocals ``1 / (N - s)`` of each shoe, block by block, the last
    block padded with copies of the last shoe (their lanes are computed and never read)."""
    rows = values.shape[0]
    for blk in range(-(-rows // lanes)):
        for b in range(lanes):
            row = min(blk * lanes + b, rows - 1)
            total = 0
            for v in range(10):
                total += values[row, v]
                nv[blk, v, b] = values[row, v]
            for s in range(6):
                inv[blk, s, b] = 1.0 / (total - s)


@numba.njit(cache=True, nogil=True, fastmath={"contract"})
def _output(sums, base, delta, out, lanes):  # pragma: no cover - compiled
    """``out[b] = base + sums[b] @ delta`` row by row, each sum over the events in order (as the numba kernel)."""
    rows = out.shape[0]
    n_events, n_out = delta.shape
    row = np.empty(lanes)
    for blk in range(-(-rows // lanes)):
        first = blk * lanes
        width = min(lanes, rows - first)
        for c in range(n_out):
            for b in range(width):
                row[b] = base[c]
            for g in range(n_events):
                d = delta[g, c]
                for b in range(width):
                    row[b] += sums[blk, g, b] * d
            for b in range(width):
                out[first + b, c] = row[b]


def _module(isa: str, strip: int, lanes: int = LANES, row: int = LANES, table: bool = False) -> tuple[Any, Any, int]:
    llvm = _llvm()
    cpu, features, width = target(isa)
    machine = llvm.Target.from_default_triple().create_target_machine(cpu=cpu, features=features, opt=3)
    module = llvm.parse_assembly(_ir(width, strip, lanes, row, table))
    module.triple = machine.triple
    module.data_layout = str(machine.target_data)
    module.verify()
    return module, machine, width


def _assembly(isa: str = "native", strip: int = 8) -> str:
    """The machine code of the kernel for ``isa``, as assembly (to check which registers it uses)."""
    module, machine, _ = _module(isa, strip)
    return str(machine.emit_assembly(module))


@lru_cache(maxsize=8)
def native_kernel(
    isa: str = "native", strip: int | None = None, lanes: int = LANES, fuse: bool | None = None, table: bool = True
) -> NativeKernel | None:
    """The kernel built for ``isa`` (see :func:`target`) and ``lanes`` shoes a block (a multiple of 8), a node's
    row formed ``strip`` vectors at a time (by default 16: a whole row of 128 shoes with 512-bit vectors, in 16 of
    the 32 registers; 8 with narrower ones, half of the 16); None where LLVM cannot build it for this machine (the
    caller then runs the numba kernel).  ``fuse`` forms the rows of a node's run of leaf children from its row in
    registers (by default with 512-bit vectors only); ``table`` makes the ratios ``(n_v - h) * (1 / (N - s))`` of a
    block once, a row for each distinct ratio of the walk (182 for the standard panel, in L2), so a node's row is
    one load and one product from its parent's (+11 % with 512-bit vectors, +15 % with 256-bit ones, the same
    numbers bit for bit).  Measured on an AVX-512 Xeon: 128 lanes and whole rows are
    fastest (64 or 256 lanes, or half rows, 5 to 10 % slower); fusing leaf runs gains about 5 % with 512-bit
    vectors and loses about 9 % with 256-bit ones (register spills); padding the rows against 4 KiB aliasing
    gained nothing.

    Examples
    --------
    >>> kernel = native_kernel()
    >>> kernel is None or kernel.width in (2, 4, 8)  # doubles per vector: 128, 256 or 512 bits
    True
    """
    if lanes % 8 or lanes <= 0:
        raise ValueError(f"lanes must be a positive multiple of 8; got {lanes}")
    try:
        if strip is None:
            strip = 16 if target(isa)[2] == 8 else 8
        module, machine, width = _module(isa, strip, lanes, lanes, table)
        engine = _llvm().create_mcjit_compiler(module, machine)
        engine.finalize_object()
        address = engine.get_function_address("walk_blocks")
    except (RuntimeError, ValueError, OSError):  # pragma: no cover - no LLVM target for this machine
        if isa != "native":
            raise
        return None
    function = ctypes.CFUNCTYPE(None, *_ARGTYPES)(address)
    name = isa if isa != "native" else {8: "avx512", 4: "avx2", 2: "sse2"}[width]
    return NativeKernel(name, width, strip, lanes, lanes, width == 8 if fuse is None else fuse, function, engine)
