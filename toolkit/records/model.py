"""Recorded shoes as checked data: :class:`Records`, the valid shoes of a record with the report of the rest.

Records are made by reading a file or a frame (:mod:`toolkit.records.read`), by
simulating shoes (:mod:`toolkit.records.simulate`), and written back by
:mod:`toolkit.records.write`; :data:`LAYOUTS` names the three layouts of a
record and the columns that tell them apart (see :mod:`toolkit.records.read`).

>>> from toolkit.records.simulate import simulate_records
>>> recs = simulate_records(2, seed=5)
>>> recs.kind, recs.n_shoes, recs.report.ok
('cards', 2, True)
>>> recs.coups.columns[:5]
['shoe', 'coup', 'player', 'banker', 'player_total']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl

from toolkit._show import frame_html, frame_text, html_table, text_table
from toolkit.bets.paytable import standard_bets
from toolkit.coup.options import HiddenBurn
from toolkit.dealing.dealer import DealtShoes
from toolkit.records.header import ShoeHeader
from toolkit.records.validation import Checker, RecordError, ValidationReport, check_bets, first_problem

__all__ = ["LAYOUTS", "Records"]

#: Record layouts and the columns that identify them.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "cards": ("shoe", "position", "card"),
    "coups": ("shoe", "coup", "player", "banker"),
    "road": ("shoe", "road"),
}


def _empty_bets() -> pl.DataFrame:
    return pl.DataFrame(
        schema={"shoe": pl.String, "coup": pl.Int64, "who": pl.String, "bet": pl.String, "amount": pl.Float64}
    )


@dataclass(frozen=True)
class Records:
    """Shoes read from a record and checked (only the valid ones; see ``report`` for the rest).

    Attributes
    ----------
    kind
        ``"cards"`` (card level: long form or per coup), ``"values"`` (card level, each card
        given only as its baccarat value 0-9: no ranks, so no pairs) or ``"road"`` (outcomes only).
    layout
        The layout it was read from: ``"cards"``, ``"coups"`` or ``"road"``.
    header
        The file's :class:`ShoeHeader`.
    headers
        The header of every shoe (the file's, with the shoe's own keys applied), in shoe order.
    shoes
        One row per shoe: ``shoe`` (its id as written: integers when every id is
        one), ``coups``, ``cards_seen``, ``burn_card``.
    cards
        Card level only: one row per card, ``shoe, position, card, role, coup``
        (canonical card strings such as ``"Ts"``; ``coup`` null for burned and
        undealt cards).
    coups
        One row per coup: ``shoe, coup, player, banker`` (card lists; null for a
        road), ``player_total, banker_total, winner, player_pair, banker_pair, natural``.
    bets
        ``shoe, coup, who, bet, amount`` (empty when the record carries no bets).
    dealt
        Card level only: the coups as :class:`~toolkit.dealing.dealer.DealtShoes` arrays,
        shoe ``i`` being row ``i`` of ``shoes``: unseen composition before every
        coup, burn, cards.  Face-down burned cards a record does not list are
        counted (their number follows from the burn rule) but their ranks are
        unknown, so ``dealt.burned_ranks`` is zero for them.
    report
        What reading found (:class:`~toolkit.records.validation.ValidationReport`).
    source
        Where the record came from.
    read_as
        How a file in a foreign layout was read, in one line (``"per-position card columns
        pcard1,pcard2,pcard3, bcard1,bcard2,bcard3; shoes from 'shoe number'; ..."``);
        empty for a file in one of the record's own layouts.
    """

    kind: str
    layout: str
    header: ShoeHeader
    headers: tuple[ShoeHeader, ...]
    shoes: pl.DataFrame
    cards: pl.DataFrame | None
    coups: pl.DataFrame
    bets: pl.DataFrame = field(default_factory=_empty_bets)
    dealt: DealtShoes | None = None
    report: ValidationReport = field(default_factory=ValidationReport)
    source: str = "<memory>"
    read_as: str = ""

    def _shown(self) -> tuple[str, list[tuple[str, object]]]:
        title = f"Records: {self.n_shoes:,} {self.kind}-level shoe(s) from {self.source}"
        winners = self.coups["winner"].value_counts().sort("winner") if self.coups.height else None
        rows: list[tuple[str, object]] = [
            ("layout", self.layout),
            ("coups", self.coups.height),
            ("cards", self.cards.height if self.cards is not None else None),
            ("bets", self.bets.height),
            ("header", self.header),
        ]
        if winners is not None:
            rows.append(("winners", ", ".join(f"{w} {n:,}" for w, n in winners.iter_rows())))
        rows.append(("problems", f"{len(self.report.problems):,} ({len(self.report.invalid_shoes):,} shoes set aside)"))
        if self.read_as:
            rows.append(("read as", self.read_as))
        return title, rows

    def __repr__(self) -> str:
        """A few lines: the shoes, coups, cards, bets and problems (the frames hold the data)."""
        title, rows = self._shown()
        return text_table(title, rows) + "\n" + frame_text("shoes", self.shoes, max_rows=5)

    def _repr_html_(self) -> str:
        title, rows = self._shown()
        return html_table(title, rows) + frame_html("shoes", self.shoes, max_rows=5)

    @property
    def n_shoes(self) -> int:
        """Shoes loaded (the valid ones)."""
        return self.shoes.height

    @property
    def shoe_ids(self) -> list:
        """The shoe ids, in file order."""
        return self.shoes["shoe"].to_list()

    def index_of(self, shoe: object) -> int:
        """Row of a shoe (by id; ``"7"`` finds shoe ``7``) in ``shoes``; :class:`ValueError` if absent."""
        ids = [str(s) for s in self.shoe_ids]
        try:
            return ids.index(str(shoe))
        except ValueError:
            shown = ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")
            raise ValueError(f"no shoe {shoe!r} in {self.source}; shoes: {shown or 'none loaded'}") from None

    def select(self, shoes: Iterable[object]) -> Records:
        """The records of some shoes (by id), in the order given."""
        rows = [self.index_of(s) for s in shoes]
        ids = pl.Series("shoe", [self.shoe_ids[i] for i in rows], dtype=self.shoes["shoe"].dtype)

        def keep(frame: pl.DataFrame) -> pl.DataFrame:
            order = pl.DataFrame({"shoe": ids, "_order": np.arange(len(rows))})
            return (
                frame.join(order, on="shoe", how="inner", maintain_order="left")
                .sort("_order", maintain_order=True)
                .drop("_order")
            )

        dealt = _select_dealt(self.dealt, rows) if self.dealt is not None else None
        return replace(
            self,
            headers=tuple(self.headers[i] for i in rows),
            shoes=keep(self.shoes),
            cards=keep(self.cards) if self.cards is not None else None,
            coups=keep(self.coups),
            bets=keep(self.bets.with_columns(pl.col("shoe").cast(ids.dtype))),
            dealt=dealt,
        )

    def observed(self) -> Records:
        """What a counter at the table records: the exposed burn card and the coups (no face-down or undealt cards)."""
        if self.cards is None:
            raise ValueError("an outcome-only record (bead road) holds no cards")
        cards = self.cards.filter(pl.col("role").is_in(["player", "banker"]) | _exposed_burn(self))
        cards = cards.with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("shoe").alias("position"))
        dealt = self.dealt
        if dealt is not None:
            dealt = replace(dealt, burned_ranks=np.zeros_like(dealt.burned_ranks))
        headers = tuple(replace(h, hidden_burn=HiddenBurn.OMITTED) for h in self.headers)
        return replace(
            self, cards=cards, dealt=dealt, headers=headers, header=replace(self.header, hidden_burn=HiddenBurn.OMITTED)
        )

    def outcomes(self) -> Records:
        """The outcome-only record (bead road) of these shoes."""
        coups = self.coups.with_columns(
            pl.lit(None, pl.List(pl.String)).alias("player"),
            pl.lit(None, pl.List(pl.String)).alias("banker"),
            *(pl.lit(None, pl.Int8).alias(c) for c in ("player_total", "banker_total")),
            pl.lit(None, pl.Boolean).alias("natural"),
        )
        shoes = self.shoes.with_columns(pl.lit(None, pl.Int32).alias("cards_seen"))
        headers = tuple(
            replace(h, burn_card=b) for h, b in zip(self.headers, shoes["burn_card"].to_list(), strict=True)
        )
        return replace(
            self, kind="road", layout="road", cards=None, coups=coups, dealt=None, shoes=shoes, headers=headers
        )

    def with_bets(self, bets: pl.DataFrame, strict: bool = False) -> Records:
        """These records with a table of bets (``shoe, coup, who, bet, amount``) attached and checked.

        A bad bet (an unknown bet, an amount that is not positive, a coup not in the record) is a
        located problem of its row: that bet is left out (its row goes to the report's ``rejected``),
        and its shoe keeps its other bets.
        """
        table = bets if "line" in bets.columns else bets.with_row_index("line", offset=1)
        table = table.with_columns(pl.col("line").cast(pl.Int64), pl.col("shoe").cast(pl.String))
        checker = Checker(self.source)
        known = [b.name for b in standard_bets(self.header.rules)]
        good = check_bets(table, self.coups.with_columns(pl.col("shoe").cast(pl.String)), known, checker)
        if strict and checker.problems:
            raise RecordError(first_problem(checker.problems))
        kept = good.select(
            "shoe",
            pl.col("coup").cast(pl.String).str.strip_chars().cast(pl.Int64),
            "who",
            "bet",
            pl.col("amount").cast(pl.String).str.strip_chars().cast(pl.Float64),
        )
        out = replace(self, bets=_cast_shoe(kept, self.shoes["shoe"].dtype))
        rejected = checker.rejected_frame()
        report = self.report
        return replace(
            out,
            report=ValidationReport(
                report.problems + tuple(checker.problems),
                pl.concat([report.rejected, rejected], how="diagonal_relaxed") if rejected.height else report.rejected,
                report.n_shoes,
                report.n_valid,
                report.unlisted + tuple(checker.unlisted.items()),
                report.unlisted_shoes,
            ),
        )


def _exposed_burn(records: Records) -> pl.Expr:
    """The exposed burn card: the first burn card of each shoe whose burn card was turned up."""
    turned_up = records.shoes.filter(pl.col("burn_card").is_not_null())["shoe"]
    is_burn = pl.col("role") == "burn"
    return is_burn & (is_burn.cum_sum().over("shoe") == 1) & pl.col("shoe").is_in(turned_up.to_list())


def _select_dealt(dealt: DealtShoes, rows: Sequence[int] | np.ndarray) -> DealtShoes:
    rows_arr = np.asarray(rows, dtype=np.int64)
    new_index = np.full(len(dealt.burned), -1, dtype=np.int64)
    new_index[rows_arr] = np.arange(len(rows_arr))
    keep = new_index[dealt.shoe] >= 0
    order = np.lexsort((dealt.coup[keep], new_index[dealt.shoe[keep]]))
    pick = np.flatnonzero(keep)[order]
    return DealtShoes(
        shoe=new_index[dealt.shoe[pick]],
        coup=dealt.coup[pick],
        start=dealt.start[pick],
        cards=dealt.cards[pick],
        seen=dealt.seen[pick],
        left=dealt.left[pick],
        unseen_count=dealt.unseen_count[pick],
        unseen=dealt.unseen[pick],
        burn_card=dealt.burn_card[rows_arr],
        burned=dealt.burned[rows_arr],
        burned_ranks=dealt.burned_ranks[rows_arr],
    )


def _cast_shoe(frame: pl.DataFrame, dtype: pl.DataType) -> pl.DataFrame:
    return frame.with_columns(pl.col("shoe").cast(dtype))
