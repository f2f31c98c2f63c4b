"""The roads of a shoe: the bead road string, the bead plate and the big road, as the casino boards show them.

:func:`road_strings` writes each shoe's outcomes as a bead road string (the
``road`` layout of :mod:`toolkit.records.read`); :func:`bead_plate` and
:func:`big_road` lay out one shoe's outcomes as polars frames (see
:mod:`toolkit.plots.records` for the plots).

>>> from toolkit.records.read import records_from_frame
>>> recs = records_from_frame(pl.DataFrame({"shoe": [1], "road": ["BpPTB"]}))
>>> road_strings(recs.coups).rows()
[(1, 'BpPTB')]
"""

from __future__ import annotations

from typing import Any

import polars as pl

from toolkit._check import positive_int
from toolkit.records.model import Records

__all__ = ["WINNER_LETTER", "bead_plate", "big_road", "road_strings"]

#: The letter of each winner on a road.
WINNER_LETTER = {"banker": "B", "player": "P", "tie": "T"}


def road_strings(coups: pl.DataFrame) -> pl.DataFrame:
    """``shoe, road``: the bead road string of every shoe of a coups frame (``Records.coups``), in shoe order.

    Parameters
    ----------
    coups
        A coups frame (``shoe, coup, winner, player_pair, banker_pair``).

    Returns
    -------
    polars.DataFrame
        ``shoe, road``.

    Examples
    --------
    >>> from toolkit.records.read import records_from_frame
    >>> road_strings(records_from_frame(pl.DataFrame({"shoe": [1], "road": ["BBPT"]})).coups).rows()
    [(1, 'BBPT')]
    """
    token = (
        pl.col("winner").replace_strict(WINNER_LETTER, return_dtype=pl.String)
        + pl.when(pl.col("player_pair")).then(pl.lit("p")).otherwise(pl.lit(""))
        + pl.when(pl.col("banker_pair")).then(pl.lit("b")).otherwise(pl.lit(""))
    )
    return coups.group_by("shoe", maintain_order=True).agg(token.str.join("").alias("road"))


def _shoe_coups(records: Records, shoe: object) -> pl.DataFrame:
    row = records.index_of(shoe)
    ids = records.shoes["shoe"]
    return records.coups.filter(pl.col("shoe") == ids[row]).sort("coup")


def bead_plate(records: Records, shoe: object, rows: int = 6) -> pl.DataFrame:
    """The bead plate of a shoe: every coup in order, down the columns of ``rows`` cells.

    Columns: ``coup, column, row, winner, player_pair, banker_pair, label``
    (``B``/``P``/``T``).

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    shoe
        The shoe's id.
    rows
        Cells down a column.

    Returns
    -------
    polars.DataFrame
        One row per coup.

    Examples
    --------
    >>> from toolkit.records.read import records_from_frame
    >>> recs = records_from_frame(pl.DataFrame({"shoe": [1], "road": ["BBPTPpB"]}))
    >>> bead_plate(recs, 1, rows=3).select("coup", "column", "row", "label").rows()[:4]
    [(1, 0, 0, 'B'), (2, 0, 1, 'B'), (3, 0, 2, 'P'), (4, 1, 0, 'T')]
    """
    rows = positive_int(rows, "rows")
    coups = _shoe_coups(records, shoe)
    index = pl.col("coup") - 1
    return coups.select(
        "coup",
        (index // rows).cast(pl.Int32).alias("column"),
        (index % rows).cast(pl.Int32).alias("row"),
        "winner",
        "player_pair",
        "banker_pair",
        pl.col("winner").replace_strict(WINNER_LETTER).alias("label"),
    )


def big_road(records: Records, shoe: object, rows: int = 6) -> pl.DataFrame:
    """The big road of a shoe: a column per Banker or Player streak, ties marked on the cell before.

    A streak runs down its column; when it reaches the bottom (or a cell already
    taken) it turns right along that row (the "dragon tail").  Each new streak
    starts at the top of the column after the previous streak's first column.
    Ties before the first decision are marked on the first cell.

    Columns: ``column, row, winner, streak, coup, ties, player_pair, banker_pair``
    (``coup``: the coup of the cell; ``ties``: ties dealt after it).

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    shoe
        The shoe's id.
    rows
        Cells down a column.

    Returns
    -------
    polars.DataFrame
        One row per cell.

    Examples
    --------
    >>> from toolkit.records.read import records_from_frame
    >>> recs = records_from_frame(pl.DataFrame({"shoe": [1], "road": ["BBBTPB"]}))
    >>> big_road(recs, 1, rows=2).select("column", "row", "winner", "ties").rows()
    [(0, 0, 'banker', 0), (0, 1, 'banker', 0), (1, 1, 'banker', 1), (1, 0, 'player', 0), (2, 0, 'banker', 0)]
    """
    rows = positive_int(rows, "rows")
    coups = _shoe_coups(records, shoe)
    taken: set[tuple[int, int]] = set()
    cells: list[dict[str, Any]] = []
    leading_ties = 0
    streak_col = col = row = -1
    last = None
    streak = 0
    turned = False
    for coup, winner, pp, bp in coups.select("coup", "winner", "player_pair", "banker_pair").iter_rows():
        if winner == "tie":
            if cells:
                cells[-1]["ties"] = int(cells[-1]["ties"]) + 1
            else:
                leading_ties += 1
            continue
        if winner != last:
            streak += 1
            streak_col += 1
            while (streak_col, 0) in taken:
                streak_col += 1
            col, row, turned = streak_col, 0, False
        elif not turned and row + 1 < rows and (col, row + 1) not in taken:
            row += 1
        else:
            col, turned = col + 1, True
        taken.add((col, row))
        cells.append(
            {
                "column": col,
                "row": row,
                "winner": winner,
                "streak": streak,
                "coup": coup,
                "ties": 0 if cells else leading_ties,
                "player_pair": pp,
                "banker_pair": bp,
            }
        )
        last = winner
    schema = {
        "column": pl.Int32,
        "row": pl.Int32,
        "winner": pl.String,
        "streak": pl.Int32,
        "coup": pl.Int32,
        "ties": pl.Int32,
        "player_pair": pl.Boolean,
        "banker_pair": pl.Boolean,
    }
    return pl.DataFrame(cells, schema=schema)
