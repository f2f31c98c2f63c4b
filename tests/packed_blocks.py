"""Running a study's packed-job function over blocks as a fresh worker would (shared by the studies' tests)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolkit import _packing


def run_as_a_fresh_worker(
    fn: Callable[[Any, tuple[bytes, bytes]], Any], blocks: Sequence[Any], packed: tuple[bytes, bytes], job: Any
) -> tuple[list[Any], Any]:
    """``fn(block, packed)`` for every block in a process that has never seen ``job`` (a spawned worker, or one on a
    cluster), checking that the job is unpickled at the first block only; the outputs and the job unpickled."""
    assert _packing._SPECS[packed[0]] is job  # the process that packs it keeps the job itself
    _packing._SPECS.clear()  # as in a fresh worker
    outputs, seen = [], []
    for block in blocks:
        outputs.append(fn(block, packed))
        seen.append(_packing._SPECS[packed[0]])
    assert seen[0] is not job  # a copy, unpickled at the first block
    assert all(s is seen[0] for s in seen)  # and only then
    return outputs, seen[0]
