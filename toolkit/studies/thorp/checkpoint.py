"""Checkpoints of a Thorp study: the tally and the number of finished blocks, saved atomically.

A checkpoint (``checkpoint.npz`` in a folder) records the study's fingerprint,
seed included, so a run resumed from it deals the same shoes and gives the same
result as an uninterrupted run; a checkpoint of another study is refused.

>>> import tempfile
>>> from toolkit.studies.thorp.design import ThorpStudy
>>> study = ThorpStudy(n_shoes=10, seed=3, bets=("banker",))
>>> folder = Path(tempfile.mkdtemp())
>>> checkpoint_seed(folder) is None
True
>>> save_checkpoint(folder, study, empty_tally(study), 0, {})
>>> checkpoint_seed(folder), load_checkpoint(folder, study)[1]
(3, 0)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from toolkit._files import atomic_write, refuse_symlink
from toolkit.studies.thorp.design import ThorpStudy
from toolkit.studies.thorp.tally import Tally, empty_tally

__all__ = ["CHECKPOINT", "checkpoint_seed", "load_checkpoint", "save_checkpoint"]

#: The file a checkpoint is saved to, in the run's folder.
CHECKPOINT = "checkpoint.npz"


def save_checkpoint(folder: Path, study: ThorpStudy, tally: Tally, done: int, seconds: dict[str, float]) -> None:
    """Save ``tally`` after ``done`` blocks of ``study`` (and the worker seconds so far) to ``folder``, atomically.

    Parameters
    ----------
    folder
        The checkpoint's folder (made if missing; a link is refused).
    study
        The study (its fingerprint is saved).
    tally
        The tally so far.
    done
        Blocks finished.
    seconds
        Worker seconds so far, by part.

    Returns
    -------
    None
    """
    refuse_symlink(folder, "checkpoint folder")
    folder.mkdir(parents=True, exist_ok=True)
    meta = json.dumps({"fingerprint": study.fingerprint(), "blocks_done": done, "seconds": seconds})
    arrays: dict[str, Any] = {"__meta__": np.array(meta), **tally.arrays}
    atomic_write(folder / CHECKPOINT, lambda fh: np.savez(fh, **arrays), "checkpoint")


def load_checkpoint(folder: Path, study: ThorpStudy) -> tuple[Tally, int, dict[str, float]] | None:
    """The tally, blocks done and seconds checkpointed in ``folder`` (``None`` when none); refuses another study's.

    Parameters
    ----------
    folder
        The checkpoint's folder.
    study
        The study being resumed (its fingerprint must match the saved one).

    Returns
    -------
    tuple or None
        ``(tally, blocks_done, seconds)``, or ``None`` when there is no checkpoint.
    """
    path = refuse_symlink(folder / CHECKPOINT, "checkpoint")
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
            arrays = {k: data[k] for k in data.files if k != "__meta__"}
        saved_fingerprint, blocks_done = meta["fingerprint"], int(meta["blocks_done"])
    except Exception as err:  # a truncated or foreign file: zipfile, numpy and json errors alike
        raise ValueError(_unreadable(path, err)) from None
    meta["blocks_done"] = blocks_done
    meta["fingerprint"] = saved_fingerprint
    saved = json.loads(json.dumps(meta["fingerprint"]))
    wanted = json.loads(json.dumps(study.fingerprint()))
    if saved != wanted:
        differ = sorted(k for k in wanted if saved.get(k) != wanted.get(k))
        raise ValueError(
            f"{path} was written by a different study (differs in: {', '.join(differ)}); "
            "resume with the same options, or start afresh (--no-resume / resume=False)"
        )
    expected = empty_tally(study)
    if {k: v.shape for k, v in arrays.items()} != {k: v.shape for k, v in expected.arrays.items()}:
        raise ValueError(f"{path} holds arrays of another layout (another toolkit version?); start afresh")
    return Tally(arrays), int(meta["blocks_done"]), dict(meta.get("seconds", {}))


def checkpoint_seed(folder: str | os.PathLike) -> int | None:
    """The seed of the study checkpointed in ``folder`` (``None`` when there is no checkpoint).

    Parameters
    ----------
    folder
        A run's folder.

    Returns
    -------
    int or None
    """
    path = refuse_symlink(Path(folder) / CHECKPOINT, "checkpoint")
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            return int(json.loads(str(data["__meta__"]))["fingerprint"]["seed"])
    except Exception as err:  # a truncated or foreign file: zipfile, numpy and json errors alike
        raise ValueError(_unreadable(path, err)) from None


def _unreadable(path: Path, err: BaseException) -> str:
    reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return (
        f"{path} is not a readable study checkpoint ({reason}); "
        "start afresh with --no-resume (resume=False), or remove the file"
    )
