"""Checking a record's bets against the bets the rules know and the coups recorded.

Private to :mod:`toolkit.records._load` and :mod:`toolkit.records.model` (the bets a record carries, and those
:meth:`~toolkit.records.model.Records.with_bets` attaches).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from toolkit.records.validation import Checker

__all__ = ["check_bets"]


def check_bets(bets: pl.DataFrame, coups: pl.DataFrame, known: Sequence[str], checker: Checker) -> pl.DataFrame:
    """Bets (``shoe, coup, who, bet, amount, line`` as text) against the known bet names and the coups recorded.

    A bad bet is a problem of its own row (code ``bad_bet``): it is reported with its line and left out,
    and its shoe loads with every other bet.  A line the reader could not read (a column ``unread`` holding
    why, from :func:`toolkit.records.read_bets`) is a ``bad_line`` problem of that line alone.  Returns the
    good rows of ``bets``.
    """
    if "unread" in bets.columns:
        unread = bets.filter(pl.col("unread").is_not_null())
        for line, shoe, why in unread.select("line", "shoe", "unread").iter_rows():
            checker.add(line, shoe, None, "bad_line", why, row_only=True)
        if unread.height:
            checker.left_out.append(unread)
        bets = bets.filter(pl.col("unread").is_null())
    frame = bets.with_row_index("_row").with_columns(
        pl.col("shoe").cast(pl.String),
        pl.col("amount").cast(pl.String),
        pl.col("coup").cast(pl.String).str.strip_chars().cast(pl.Int64, strict=False),
        pl.col("coup").cast(pl.String).fill_null("").alias("_coup"),
        pl.col("bet").fill_null("").alias("_bet"),
        pl.col("amount").cast(pl.String).fill_null("").alias("_amount"),
    )
    amount = pl.col("amount").str.strip_chars().cast(pl.Float64, strict=False)
    last = coups.group_by(pl.col("shoe").cast(pl.String)).agg(pl.col("coup").cast(pl.Int64).max().alias("_last"))
    have = coups.select(pl.col("shoe").cast(pl.String), pl.col("coup").cast(pl.Int64), pl.lit(True).alias("_ok"))
    frame = frame.join(have, on=["shoe", "coup"], how="left").join(last, on="shoe", how="left").sort("_row")
    after = pl.col("_last").is_not_null() & (pl.col("coup") > pl.col("_last"))
    unknown = f"unknown bet '{{_bet}}'; known bets: {', '.join(known)}"
    key = ["shoe", "coup", "who", "bet"]
    numbered = pl.col("coup").is_not_null()
    checks = (
        (pl.col("bet").is_null() | ~pl.col("bet").is_in(list(known)), unknown),
        (amount.is_null() | ~amount.is_finite() | (amount <= 0), "bet amount '{_amount}' is not a positive number"),
        (pl.col("who").is_null() | (pl.col("who").str.strip_chars() == ""), "a bet needs a bettor ('who')"),
        (
            numbered & pl.col("_ok").is_null() & after,
            "bet on coup {coup}, after the last coup of shoe {shoe} (coup {_last})",
        ),
        (numbered & pl.col("_ok").is_null() & ~after, "bet on a coup that is not in the record (or was set aside)"),
        (~numbered, "the bet's coup '{_coup}' is not a whole number"),
    )
    bad = pl.lit(False)
    for condition, message in checks:
        checker.add_rows(frame.filter(condition.fill_null(True)), "bad_bet", message, "coup", row_only=True)
        bad = bad | condition.fill_null(True)
    # of the bets that are good otherwise, one given twice (a seat, a bet, a coup) is a problem at its second line
    good_so_far = frame.filter(~bad).with_columns(pl.col("line").first().over(key).alias("_first"))
    twice = ~pl.struct(key).is_first_distinct()
    message = "{who}'s bet on {bet} in coup {coup} is given twice (first at line {_first}): a bet is given once"
    checker.add_rows(good_so_far.filter(twice), "bad_bet", message, "coup", row_only=True)
    bad = bad | pl.col("_row").is_in(good_so_far.filter(twice)["_row"].implode())
    good = pl.col("_row").is_in(frame.filter(~bad)["_row"].implode())
    rows = bets.with_row_index("_row")
    if rows.height:
        checker.left_out.append(rows.filter(~good).drop("_row"))
    return rows.filter(good).drop("_row")
