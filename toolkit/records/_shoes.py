"""The shoes of a record in file order: their ids, each one's header, and the shoe of every row as an index.

Private to :mod:`toolkit.records._load`.  Shoe-level facts are kept as arrays in file order and
the rows carry their shoe's index (``_s``), so that checking and assembling a record does no work
keyed by shoe id (no join or group-by over the shoes): a file of 100,000 single-coup shoes costs
about what the same coups in a thousand long shoes cost.  A record whose shoes all have the file's
header (no header sections, no shoe's own keys) builds no per-shoe header at all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np
import polars as pl

from toolkit.records._raw import Raw
from toolkit.records._sections import section_headers, shoe_headers
from toolkit.records.header import ShoeHeader
from toolkit.records.validation import Checker

__all__ = ["Shoes", "shoe_index", "shoe_table"]


@dataclass(frozen=True)
class Shoes:
    """Shoes in file order: ``ids`` (text), the header of each, ``shared``, the one header of them all (if so).

    ``at`` is the index of each among the record's ``total`` shoes (the ``_s`` of its rows).
    """

    ids: pl.Series
    headers: list[ShoeHeader]
    shared: ShoeHeader | None
    at: np.ndarray
    total: int

    @classmethod
    def every(cls, ids: pl.Series, headers: list[ShoeHeader], shared: ShoeHeader | None) -> Shoes:
        """All the shoes of a record."""
        return cls(ids, headers, shared, np.arange(ids.len(), dtype=np.int64), ids.len())

    def __len__(self) -> int:
        return self.ids.len()

    def take(self, keep: np.ndarray) -> Shoes:
        """The shoes where the boolean array ``keep`` is true, in the same order."""
        if keep.all():
            return self
        index = np.flatnonzero(keep)
        if self.shared is not None:
            headers = [self.shared] * len(index)
        else:
            headers = [self.headers[i] for i in index]
        return Shoes(self.ids.gather(index), headers, self.shared, self.at[index], self.total)

    def span(self, start: int, stop: int) -> Shoes:
        """The shoes ``start`` to ``stop`` (excluded), in the same order."""
        if start == 0 and stop == len(self):
            return self
        headers = self.headers[start:stop] if self.shared is None else [self.shared] * (stop - start)
        return Shoes(self.ids.slice(start, stop - start), headers, self.shared, self.at[start:stop], self.total)

    def marked(self, ids: pl.Series | Collection[str]) -> np.ndarray:
        """A boolean array: which shoes are among ``ids`` (as text)."""
        if len(ids) == 0:
            return np.zeros(len(self), bool)
        column = ids if isinstance(ids, pl.Series) else pl.Series(list(ids), dtype=pl.String)
        return self.ids.is_in(column.implode()).to_numpy()

    def rows_of(self, frame: pl.DataFrame) -> pl.Series:
        """A boolean series: which rows of ``frame`` (with ``_s``) are of these shoes."""
        mine = np.zeros(self.total, bool)
        mine[self.at] = True
        return pl.Series(mine[frame["_s"].to_numpy()])

    def decks(self) -> np.ndarray:
        """The number of decks of each shoe."""
        if self.shared is not None:
            return np.full(len(self), self.shared.dealing.decks, np.int64)
        return np.array([h.dealing.decks for h in self.headers], np.int64)

    def by_id(self) -> dict[str, ShoeHeader]:
        """The header of each shoe, by id."""
        return dict(zip(self.ids.to_list(), self.headers, strict=True))


def shoe_index(shoe: pl.Series) -> tuple[pl.Series, pl.Series]:
    """The shoes in file order (their ids), and ``_s``: the index among them of the shoe of every row.

    When each shoe's rows are together (as records are written), ``_s`` is the number of the run of
    equal ids, and the ids are told from the runs' ids, with no lookup of every row by id.
    """
    runs = shoe.rle_id()
    firsts = shoe.filter((runs != runs.shift(1)).fill_null(True))  # the first row of every run
    ids = firsts.unique(maintain_order=True)
    if ids.len() == firsts.len():  # one run a shoe, in file order
        return ids, runs.cast(pl.Int64).alias("_s")
    positions = pl.Series(np.arange(ids.len(), dtype=np.int64))
    return ids, shoe.replace_strict(ids, positions, return_dtype=pl.Int64).alias("_s")


def shoe_table(
    raw: Raw,
    frame: pl.DataFrame,
    ids: pl.Series,
    base: ShoeHeader,
    over: Mapping[str, object] | None,
    file_header: ShoeHeader,
    checker: Checker,
) -> Shoes:
    """The shoes of ``frame`` (``ids`` in file order) and the header of each: the file's, its section's, its own.

    A bad section or a bad shoe header is a problem of the shoes it concerns
    (:func:`~toolkit.records._sections.section_headers`, :func:`~toolkit.records._sections.shoe_headers`);
    such a shoe keeps the file's header.
    """
    if not raw.sections and not raw.shoe_meta:
        return Shoes.every(ids, [file_header] * ids.len(), file_header)
    order = ids.to_list()
    sections = section_headers(raw, frame, order, base, over, file_header, checker)
    own = shoe_headers(raw, sections, checker)
    headers = [own.get(s, sections.get(s, file_header)) for s in order]
    shared = headers[0] if headers and all(h is headers[0] for h in headers) else None
    return Shoes.every(ids, headers, shared)
