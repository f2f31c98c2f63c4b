"""A study's job sent to worker processes once: pickled once where it is made, unpickled once per process.

Every block's task used to carry the job itself (a study's bets hold 1,600 fractions each): pickled in the parent
and unpickled in a worker for every block, then compared field by field at each cached evaluator lookup.  Packed,
a task carries bytes that are copied, never pickled again, and every block of a process finds the very object its
first block unpickled.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

__all__ = ["pack_spec", "unpack_spec"]


#: Specs this process has packed or unpacked, by digest: a worker unpickles a study's spec once, not once per block,
#: and every block then finds the evaluators compiled for that very spec (an equal copy would be compared to the
#: cached one field by field, 1,600 fractions a bet, at every lookup).
_SPECS: dict[bytes, Any] = {}


def pack_spec(spec: Any) -> tuple[bytes, bytes]:
    """``(digest, pickle)`` of ``spec``, made once, for :func:`unpack_spec`: every block's task then carries bytes
    (copied, never pickled again) instead of the spec, whose bets hold 1,600 fractions each (pickled in the parent
    and unpickled in a worker per block, then compared field by field at each evaluator lookup: about a fifth of
    a block's time).  Any study's spec travels this way (:func:`toolkit.studies.thorp.tally.tally_packed`, the
    cut-card study's :func:`toolkit.studies.cut_card.tally.tally_packed`, the shuffle power study's job).

    Parameters
    ----------
    spec
        A study's block spec or job (:func:`toolkit.studies.thorp.tally.block_spec`, say).

    Returns
    -------
    tuple of bytes
        Its SHA-256 digest and its pickle.
    """
    blob = pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)
    digest = hashlib.sha256(blob).digest()
    _SPECS.clear()  # one study at a time here (and in forked workers, which inherit it)
    _SPECS[digest] = spec
    return digest, blob


def unpack_spec(packed: tuple[bytes, bytes]) -> Any:
    """The spec packed by :func:`pack_spec`: the very object this process packed or first unpickled.

    Parameters
    ----------
    packed
        ``pack_spec(spec)``.

    Returns
    -------
    object
        The spec (unpickled at most once in this process).
    """
    digest, blob = packed
    spec = _SPECS.get(digest)
    if spec is None:
        spec = pickle.loads(blob)  # our own bytes, made by pack_spec
        _SPECS.clear()
        _SPECS[digest] = spec
    return spec
