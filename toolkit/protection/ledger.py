"""A table's bets read beside its shoes: each bad bet a located problem, every other bet and every shoe kept.

A surveillance log of bets (``shoe, coup, who, bet, amount``: a file read by
:func:`toolkit.records.read_bets`, or a frame) is checked line by line against
the shoes: an unknown bet, an amount that is not a positive number, a bet
without a bettor, a bet on a coup the record does not hold (after the shoe's
last coup, or on a shoe it does not hold).  Each bad line becomes a
:class:`~toolkit.records.Problem` naming its file, line, shoe and coup, and only
that line is left out: the shoe and the other bets stay (where
:meth:`toolkit.records.Records.with_bets` sets the whole shoe aside).

>>> import polars as pl
>>> from toolkit.records import simulate_records
>>> shoes = simulate_records(1, seed=2)
>>> log = pl.DataFrame({"shoe": ["1", "1"], "coup": ["1", "999"], "who": ["s1", "s1"],
...                     "bet": ["banker", "banker"], "amount": ["5", "5"]})
>>> kept = attach_bets(shoes, log, source="log.csv")
>>> kept.bets.height, kept.n_shoes, kept.report.problems[0].line
(1, 1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import polars as pl

from toolkit.records import Records, ShoeHeader, read_bets, read_records

__all__ = ["attach_bets", "read_table"]


def attach_bets(records: Records, bets: pl.DataFrame, source: str = "<bets>") -> Records:
    """``records`` with the good lines of a bets table attached; each bad line a problem of ``source``.

    Parameters
    ----------
    records
        The shoes (their own bets, if any, are replaced).
    bets
        ``shoe, coup, who, bet, amount`` (text or numbers) and optionally ``line``
        (default: the row number from 1).
    source
        The name the problems give as their file.

    Returns
    -------
    Records
        The same shoes, with the good bets; ``report`` lists the bad ones too.
    """
    missing = [c for c in ("shoe", "coup", "who", "bet", "amount") if c not in bets.columns]
    if missing:
        raise ValueError(f"{source}: a bets table needs the columns shoe, coup, who, bet, amount; missing {missing}")
    table = bets if "line" in bets.columns else bets.with_row_index("line", offset=1)
    table = table.with_columns(
        pl.col("line").cast(pl.Int64), *(pl.col(c).cast(pl.String) for c in ("shoe", "coup", "who", "bet", "amount"))
    )
    out = replace(records, bets=records.bets.clear(), source=source).with_bets(table)
    return replace(out, source=records.source)


def read_table(
    path: str | Path, bets: str | Path | None = None, header: ShoeHeader | Mapping[str, object] | str | None = None
) -> Records:
    """A record file and, optionally, a separate bets file: the shoes with every good bet (see the module notes).

    Parameters
    ----------
    path
        The record (:func:`toolkit.records.read_records`); bets it carries itself are checked by the reader,
        which sets a shoe with a bad bet aside.
    bets
        A bets table file (:func:`toolkit.records.read_bets`): its bad lines are problems, nothing else is lost.
    header
        Shoe header settings over the file's (as :func:`toolkit.records.read_records` takes them).

    Returns
    -------
    Records
        The shoes with their bets and the report of every problem.
    """
    records = read_records(path, header=header)
    if bets is None:
        return records
    return attach_bets(records, read_bets(bets), source=str(bets))
