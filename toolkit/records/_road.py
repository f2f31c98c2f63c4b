"""Checking bead roads: one road a shoe, and no more coups than the shoe can hold.

Private to :mod:`toolkit.records._load`.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from toolkit.coup.cards import parse_card
from toolkit.coup.options import Burn, LastHand, code
from toolkit.coup.step import burn_count, cut_card_after, may_start
from toolkit.dealing.dealer import Dealing
from toolkit.records.header import ShoeHeader
from toolkit.records.validation import Checker, parse_road

__all__ = ["max_coups", "road_coups"]


def max_coups(dealing: Dealing, burn_card: str | None = None) -> tuple[int, int]:
    """The most coups a shoe dealt by ``dealing`` can hold, and the fewest cards burned before them.

    Every coup takes at least four cards; the burn takes at least one exposed card
    and the fewest face-down cards its rule allows (the exact count when the exposed
    ``burn_card`` is known); the coups then run by the dealing's cut card and
    last-hand rule (:func:`toolkit.coup.step.may_start`, :func:`toolkit.coup.step.cut_card_after`).

    >>> max_coups(Dealing())  # 416 cards, an ace exposed and one card burned, the cut card 14 from the end
    (101, 2)
    """
    cards = 52 * dealing.decks
    if dealing.burn == Burn.STANDARD:
        counts = [burn_count(parse_card(burn_card), dealing.burn_ace)] if burn_card else None
        burned = 1 + min(counts or [burn_count(r, dealing.burn_ace) for r in range(13)])
    elif dealing.burn == Burn.FIXED:
        burned = dealing.burn_cards
    else:
        burned = 0
    mode = code(LastHand(dealing.last_hand))
    position, coups, last = burned, 0, False
    while may_start(cards - position, coups, 0, mode):
        start, position, coups = position, position + 4, coups + 1
        stop, last = cut_card_after(start, position, cards - dealing.cut_card, last, mode, 0)
        if stop:
            break
    return coups, burned


def road_coups(frame: pl.DataFrame, headers: Mapping[str, ShoeHeader], checker: Checker) -> pl.DataFrame:
    """The coups of bead roads; a shoe's road may run on over consecutive rows, not over two separate blocks."""
    rows: list[tuple[str, int, str, bool, bool]] = []
    count: dict[str, int] = {}
    where: dict[str, tuple[int, int]] = {}  # first and last line of each shoe's road
    previous = None
    for shoe, road, line in frame.select("shoe", pl.col("road").cast(pl.String), "line").iter_rows():
        if shoe in where and previous != shoe:
            checker.add(
                line,
                shoe,
                None,
                "duplicate_shoe",
                f"shoe {shoe} was given a road at line {where[shoe][0]} and again here, after other shoes: "
                "a shoe's road is one row (or consecutive rows)",
            )
        previous = shoe
        coups, errors = parse_road(road or "")
        for message in errors:
            checker.add(line, shoe, None, "bad_road", message)
        if not coups and not errors:
            checker.add(line, shoe, None, "bad_road", "empty road: expected B, P or T per coup")
        done = count.get(shoe, 0)
        rows.extend((shoe, done + i, w, pp, bp) for i, (w, pp, bp) in enumerate(coups, start=1))
        count[shoe] = done + len(coups)
        where[shoe] = (where.get(shoe, (line, line))[0], line)
    for shoe, n in count.items():
        if shoe not in headers:
            continue
        header = headers[shoe]
        most, burned = max_coups(header.dealing, header.burn_card)
        if n > most:
            d = header.dealing
            checker.add(
                where[shoe][1],
                shoe,
                None,
                "too_many_coups",
                f"the road holds {n} coups; a shoe of {d.decks} deck(s) holds at most {most}: {52 * d.decks} cards, "
                f"at least {burned} burned ({d.burn} burn), at least 4 cards a coup, and the cut card "
                f"{d.cut_card} from the end ({d.last_hand})",
            )
    schema = {
        "shoe": pl.String,
        "coup": pl.Int32,
        "winner": pl.String,
        "player_pair": pl.Boolean,
        "banker_pair": pl.Boolean,
    }
    return pl.DataFrame(rows, schema=schema, orient="row").with_columns(
        pl.lit(None, pl.List(pl.String)).alias("player"),
        pl.lit(None, pl.List(pl.String)).alias("banker"),
        pl.lit(None, pl.Int8).alias("player_total"),
        pl.lit(None, pl.Int8).alias("banker_total"),
        pl.lit(None, pl.Boolean).alias("natural"),
    )
