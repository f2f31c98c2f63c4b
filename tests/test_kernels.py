"""The engine's event kernels against the reference kernel (``tests/reference_kernel.py``), bit for bit.

The package's kernels (the numba walk and, where it can be built, the native one of
:mod:`toolkit.exact._native`) change how the walk is scheduled, never which terms each event sum receives
nor in which order, so their results must equal the reference kernel's exactly (not within a bound) on
every shoe: random depleted shoes of every size class (a handful of cards to eight full decks, one to
eight decks), batches that end inside a block of lanes, and event tables from one bet to a panel with
a side bet of many events.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference_kernel import event_kernel as reference_kernel
from reference_kernel import reference_columns

from toolkit.bets.paytable import PayTable, get_bet, standard_bets
from toolkit.exact import _native
from toolkit.exact._kernels import CHUNK, LANES, NATIVE_MIN_ROWS, event_kernel
from toolkit.exact.engine import _values_from_ranks, compiled_bets


def _both_pairs_and_tie(c):
    return 200 if c.player_pair and c.banker_pair and c.player_total == c.banker_total else -1


def _panels():
    return {
        "banker": (get_bet("banker"),),
        "standard": tuple(standard_bets()),
        "standard+side": (*standard_bets(), PayTable.from_function("both_pairs_and_tie", _both_pairs_and_tie)),
    }


def depleted_shoes(rng: np.random.Generator, n: int) -> np.ndarray:
    """``(n, 13)`` counts by rank: 1 to 8 decks less random cards, sizes from every class (6 cards to full)."""
    rows = []
    for i in range(n):
        decks = int(rng.integers(1, 9))
        full = np.full(13, 4 * decks)
        size_class = i % 4  # tiny, small, middle, near full
        low, high = [(6, 12), (12, 40), (40, 4 * 13 * decks // 2), (4 * 13 * decks // 2, 4 * 13 * decks)][size_class]
        rows.append(rng.multivariate_hypergeometric(full, int(rng.integers(low, max(low + 1, high + 1)))))
    return np.array(rows, dtype=np.int64)


@pytest.fixture(scope="module")
def tables():
    return {name: compiled_bets(bets).events for name, bets in _panels().items()}


@pytest.fixture(scope="module")
def values():
    shoes = depleted_shoes(np.random.default_rng(36), 3 * LANES + 77)
    return np.ascontiguousarray(_values_from_ranks(shoes))


@pytest.mark.parametrize("name", ["banker", "standard", "standard+side"])
def test_numba_kernel_equals_the_reference_bit_for_bit(tables, values, name):
    table = tables[name]
    expected = reference_columns(table, values)
    got = event_kernel(values, table.walk.arrays, table.base, table.delta, LANES, CHUNK)
    assert got.shape == expected.shape
    assert np.array_equal(got, expected, equal_nan=True)


def test_table_call_equals_the_reference_bit_for_bit_on_ragged_batches(tables, values):
    table = tables["standard"]
    for n in (1, 5, NATIVE_MIN_ROWS - 1, NATIVE_MIN_ROWS, LANES - 1, LANES + 1, 2 * LANES + 3, 2 * LANES + 70):
        assert np.array_equal(table(values[:n]), reference_columns(table, values[:n]), equal_nan=True)


def _isas() -> list[str]:
    """The instruction sets this CPU can run the native kernel with (AVX-512 and AVX2 where present, SSE2 always)."""
    found = []
    for isa in ("avx512", "avx2", "sse2"):
        try:
            _native.target(isa)
        except ValueError:
            continue
        found.append(isa)
    return found


@pytest.mark.parametrize("isa", _isas())
@pytest.mark.parametrize("name", ["banker", "standard", "standard+side"])
def test_native_kernel_equals_the_reference_bit_for_bit(tables, values, name, isa):
    table = tables[name]
    kernel = _native.native_kernel(isa)
    assert kernel is not None
    assert kernel.width == {"avx512": 8, "avx2": 4, "sse2": 2}[isa]
    assert np.array_equal(kernel(table, values, CHUNK), reference_columns(table, values), equal_nan=True)


@pytest.mark.parametrize(("fuse", "ratios"), [(True, True), (False, True), (True, False), (False, False)])
@pytest.mark.parametrize("chunk", [CHUNK, 7, 1])
def test_leaf_runs_and_flushes_match_the_reference_at_any_chunk(tables, values, fuse, ratios, chunk):
    # a run of leaf children formed from their parent's row in registers never crosses a flush of the partial sums;
    # the ratios made once a block as a table, or at each node, give the same numbers
    table = tables["standard+side"]
    kernel = _native.native_kernel(_isas()[0], fuse=fuse, table=ratios)
    assert kernel is not None
    expected = reference_kernel(values, table.walk.arrays, table.base, table.delta, LANES, chunk)
    assert np.array_equal(kernel(table, values, chunk), expected, equal_nan=True)


def test_native_kernel_over_several_calls_and_odd_strips(tables, values, monkeypatch):
    # more blocks than one call of the kernel holds, strips that do not divide a row, another lane width
    monkeypatch.setattr(_native, "_BLOCKS_PER_CALL", 2)
    table = tables["standard+side"]
    for strip, lanes, fuse in ((3, LANES, True), (5, LANES, False), (4, 64, True)):
        kernel = _native.native_kernel(_isas()[0], strip, lanes, fuse)
        assert kernel is not None
        assert np.array_equal(kernel(table, values, CHUNK), reference_columns(table, values), equal_nan=True)


def test_native_target_is_chosen_from_the_cpu_at_run_time():
    import llvmlite.binding as llvm

    features = dict(llvm.get_host_cpu_features())
    width = _native.target("native")[2]
    if features.get("avx512f") and features.get("avx512dq"):
        assert width == 8
        assert "zmm" in _native._assembly("native")
    elif features.get("avx2") and features.get("fma"):
        assert width == 4
        assert "ymm" in _native._assembly("native")
    else:
        assert width == 2
    _, narrow, _ = _native.target("sse2")
    assert "+avx512f" not in narrow
    assert "+avx2" not in narrow
    with pytest.raises(ValueError, match="isa must be one of"):
        _native.target("avx1024")


def test_aligned_buffers_start_on_64_bytes():
    for shape in [(7, LANES), (3, 10, LANES), (1,)]:
        a = _native.aligned_empty(shape)
        assert a.shape == shape
        assert a.ctypes.data % 64 == 0


@pytest.mark.parametrize("width", [64, 128])
def test_table_call_at_either_block_width_equals_the_reference_bit_for_bit(tables, values, monkeypatch, width):
    # the table call picks 64-lane blocks where the CPU's L1 data cache is small (block_lanes): the same numbers,
    # on batches that end inside a block, in a half block, or on a block's edge
    from toolkit.exact import _kernels

    monkeypatch.setattr(_kernels, "block_lanes", lambda n_events: width)
    table = tables["standard+side"]
    for n in (1, 31, 32, 33, 63, 64, 65, 127, 129, 2 * LANES + 70):
        assert np.array_equal(table(values[:n]), reference_columns(table, values[:n]), equal_nan=True)


def test_block_lanes_halves_the_block_only_where_the_event_sums_overflow_l1():
    kib = 1024
    assert _native.block_lanes(38, 32 * kib) == 64  # AMD Zen 4: 38 KiB of sums at 128 lanes, 19 KiB at 64
    assert _native.block_lanes(38, 48 * kib) == 128  # Intel Xeon (Emerald Rapids): they fit at 128
    assert _native.block_lanes(32, 32 * kib) == 128  # exactly the cache: fits
    assert _native.block_lanes(300, 32 * kib) == 128  # too many events for either: the wider block
    size = _native.l1_data_bytes()
    assert size is None or size >= 4 * kib
    assert _native.block_lanes(38) in (64, 128)


def test_native_kernel_writes_into_a_given_output(tables, values):
    table = tables["standard"]
    kernel = _native.native_kernel(_isas()[0])
    assert kernel is not None
    n = 2 * LANES + 3
    out = np.full((n + 10, len(table.base)), np.nan)
    kernel(table, values[:n], CHUNK, out[5 : n + 5])
    assert np.array_equal(out[5 : n + 5], reference_columns(table, values[:n]))
    assert np.isnan(out[:5]).all()
    assert np.isnan(out[n + 5 :]).all()
    with pytest.raises(ValueError, match=r"out must be a \(259, 14\) float64 array"):
        kernel(table, values[:n], CHUNK, out[: n - 1])
