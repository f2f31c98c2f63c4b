"""Writing shoe records: any layout, in CSV, JSON lines or Parquet, with the shoe header.

:func:`write_records` writes the frame of a layout (:func:`layout_frame`) and
the headers in the formats described in :mod:`toolkit.records.read`; a record
read back from the file equals the one written.

>>> import tempfile, pathlib
>>> from toolkit.records.read import read_records
>>> from toolkit.records.simulate import simulate_records
>>> recs = simulate_records(2, seed=5)
>>> path = write_records(recs, pathlib.Path(tempfile.mkdtemp()) / "shoes.csv", layout="coups")
>>> read_records(path).coups.equals(recs.coups)
True
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import polars as pl

from toolkit._check import one_of
from toolkit.records._io import write_container
from toolkit.records.model import LAYOUTS, Records, _exposed_burn
from toolkit.records.roads import WINNER_LETTER, road_strings

__all__ = ["layout_frame", "write_records"]


def layout_frame(records: Records, layout: str | None = None, roles: bool = True) -> pl.DataFrame:
    """The frame a file of ``layout`` holds for these records (``records.layout`` by default).

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    layout
        ``"cards"``, ``"coups"`` or ``"road"``.
    roles
        List the cards' roles (cards layout).

    Returns
    -------
    polars.DataFrame
        The rows of the file.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> layout_frame(simulate_records(1, seed=1), "road").columns
    ['shoe', 'road']
    """
    layout = one_of(layout or records.layout, LAYOUTS, "layout")
    if layout == "road":
        return road_strings(records.coups)
    if records.cards is None:
        raise ValueError(f"an outcome-only record (bead road) cannot be written as {layout!r}: it holds no cards")
    if layout == "cards":
        cols = ["shoe", "position", "card", "role"] if roles else ["shoe", "position", "card"]
        return records.cards.select(cols)
    frame = records.coups.select(
        "shoe", "coup", "player", "banker", pl.col("winner").replace_strict(WINNER_LETTER, return_dtype=pl.String)
    )
    if records.bets.height:
        bets = records.bets.group_by(["shoe", "coup"], maintain_order=True).agg(
            pl.struct("who", "bet", "amount").alias("bets")
        )
        frame = frame.join(bets, on=["shoe", "coup"], how="left", maintain_order="left")
    return frame


def _shoe_meta(records: Records, layout: str) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    burns = records.shoes["burn_card"].to_list()
    if records.cards is not None and layout != "cards":
        exposed = records.cards.filter(_exposed_burn(records)).select("shoe", "card")
        burns_by_shoe = dict(zip(exposed["shoe"].to_list(), exposed["card"].to_list(), strict=True))
        burns = [burns_by_shoe.get(s) for s in records.shoe_ids]
    for shoe, own, burn in zip(records.shoe_ids, records.headers, burns, strict=True):
        keys = replace(own, burn_card=burn if layout != "cards" else None).as_dict(
            replace(records.header, burn_card=None)
        )
        if keys:
            out[str(shoe)] = keys
    return out


def write_records(
    records: Records,
    path: str | Path,
    layout: str | None = None,
    format: str | None = None,
    roles: bool = True,
) -> Path:
    """Write records as a file of ``layout`` (default: the layout they were read from).

    The container follows the suffix (``.csv``, ``.jsonl``, ``.parquet``) unless
    ``format`` is given.  The header and the shoes' own headers are written as
    described in :mod:`toolkit.records.read`; a record read back from the file
    equals the one written (same frames, same headers).  The per-coup layout
    cannot hold face-down burned or undealt cards, and the bead road holds only
    outcomes; the header's tableau is not written (the header text has no key
    for it), so a record dealt under another tableau is read back with its
    header (``read_records(path, header=records.header)``).

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    path
        The file.
    layout
        ``"cards"``, ``"coups"`` or ``"road"``.
    format
        ``"csv"``, ``"jsonl"`` or ``"parquet"`` (default: from the suffix).
    roles
        List the cards' roles (cards layout).

    Returns
    -------
    pathlib.Path
        The file written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from toolkit.records.simulate import simulate_records
    >>> from toolkit.records.read import read_records
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> recs = simulate_records(2, seed=1)
    >>> back = read_records(write_records(recs, folder / "shoes.csv"))
    >>> back.coups.equals(recs.coups)
    True
    """
    layout = layout or records.layout
    frame = layout_frame(records, layout, roles)
    return write_container(
        frame, Path(path), format, replace(records.header, burn_card=None).as_dict(), _shoe_meta(records, layout)
    )
