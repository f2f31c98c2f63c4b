"""What the Thorp study tests share: the small study most of them run."""

from __future__ import annotations

#: The reference study: 120 shoes in three blocks of 40.
SMALL = {"n_shoes": 120, "seed": 11, "block_size": 40}
