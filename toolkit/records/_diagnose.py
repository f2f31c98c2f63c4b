"""Checking every coup of a per-coup record against the tableau, in every shoe, with the kind of each fault.

Private to :mod:`toolkit.records._load`.  The rebuilding kernel (:mod:`toolkit.records._rebuild`)
stops a shoe at its first bad card, and a shoe with another problem (a card too many) is set
aside before it runs; a record whose hands are written coup by coup can be checked coup by
coup instead, whatever else is wrong with its shoe.  :func:`tableau_problems` does that for
every coup at once: the same decisions as the kernel, in the same order (a card after a
natural, Player's third card, Banker's third card, a card left over), with the kernel's
messages (:func:`toolkit.records.validation.kernel_message`), and a *kind* that names the
fault for the summary (``"Banker stood on 5 after Player stood"``).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from toolkit.coup.cards import RANK_VALUES
from toolkit.coup.rules import Tableau
from toolkit.coup.step import BANKER_DRAWS, BOTH_DRAW, PLAYER_DRAWS, Tables, coup_layouts
from toolkit.records._rebuild import AFTER_NATURAL, EXTRA_B3, EXTRA_P3, MISSING_B3, MISSING_P3, TRUNCATED
from toolkit.records.validation import Checker, kernel_message

__all__ = ["coup_outcomes", "tableau_problems"]


def _hands(cards: pl.DataFrame) -> pl.DataFrame:
    """One row per coup with readable hands of two or three cards: ranks and names in dealing order.

    Each coup's rows are together: a coup is a run of rows of one shoe (``_s``) and one coup number.
    """
    coup = pl.col("coup")
    starts = ((pl.col("_s") != pl.col("_s").shift(1)) | coup.ne_missing(coup.shift(1))).fill_null(True)
    per_coup = (
        cards.with_columns(starts.cum_sum().alias("_run"))
        .group_by("_run", maintain_order=True)  # one integer key in runs: cheaper than grouping by shoe and coup
        .agg(
            pl.col("shoe").first(),
            coup.first(),
            pl.col("line").first(),
            pl.col("rank").filter(pl.col("role") == "player").alias("p"),
            pl.col("rank").filter(pl.col("role") == "banker").alias("b"),
            pl.col("canon").filter(pl.col("role") == "player").alias("pn"),
            pl.col("canon").filter(pl.col("role") == "banker").alias("bn"),
            pl.col("rank").is_null().any().alias("_unknown"),
        )
        .with_columns(pl.col("p").list.len().alias("np"), pl.col("b").list.len().alias("nb"))
    )
    last = (pl.col("shoe") != pl.col("shoe").shift(-1)).fill_null(True)  # coups in order: a shoe's last one
    sized = pl.col("np").is_between(2, 3) & pl.col("nb").is_between(2, 3) & ~pl.col("_unknown")
    return per_coup.with_columns(last.alias("last")).filter(sized & pl.col("coup").is_not_null())


def _decide(hands: pl.DataFrame, tableau: Tableau) -> dict[str, np.ndarray]:
    """The kernel's decisions for every coup: the problem code (0: none) and the card where it shows."""
    values = np.array(RANK_VALUES, np.int64)

    def card(side: str, k: int) -> np.ndarray:
        return values[hands[side].list.get(k, null_on_oob=True).fill_null(0).to_numpy()]

    n_p, n_b = hands["np"].to_numpy(), hands["nb"].to_numpy()
    layout, pt, bt = coup_layouts(
        card("p", 0), card("b", 0), card("p", 1), card("b", 1), card("p", 2), Tables.of(tableau)
    )
    natural = (pt >= 8) | (bt >= 8)
    p_draws = np.isin(layout, (PLAYER_DRAWS, BOTH_DRAW))
    third = np.where(p_draws & (n_p == 3), card("p", 2), -1)
    # Banker's draw is known when Player stood, or drew and his third card is there
    b_draws = np.isin(layout, (BANKER_DRAWS, BOTH_DRAW)) & ~(p_draws & (n_p == 2))
    code = np.zeros(len(hands), np.int64)
    index = np.full(len(hands), 4, np.int64)  # the card where it shows, within the coup (P1 B1 P2 B2 P3 B3)
    extra = n_p + n_b > 4
    code[natural & extra] = AFTER_NATURAL
    open_ = ~natural
    missing_p = open_ & p_draws & (n_p == 2)
    code[missing_p] = MISSING_P3
    index[missing_p] = 3
    took_p = p_draws & (n_p == 3)
    at = 4 + took_p  # the next card of the record: P3 when Player stood with three cards, else B3
    next_is_banker = np.where(~p_draws & (n_p == 3), False, n_b == 3)
    has_next = at < n_p + n_b
    missing_b = open_ & (code == 0) & b_draws & ~next_is_banker
    code[missing_b] = MISSING_B3
    index[missing_b] = at[missing_b] - 1
    took_b = b_draws & next_is_banker
    used = 4 + took_p + took_b
    left = open_ & (code == 0) & (used < n_p + n_b)
    extra_p = left & ~took_p & (n_p == 3)
    code[extra_p] = EXTRA_P3
    code[left & ~extra_p] = EXTRA_B3
    index[left] = used[left]
    truncated = hands["last"].to_numpy() & ((code == MISSING_P3) | (code == MISSING_B3)) & ~has_next
    code[truncated] = TRUNCATED
    return {"code": code, "index": index, "pt": pt, "bt": bt, "third": third}


def _kind(code: int, pt: int, bt: int, third: int, p3: int | None) -> str:
    after = "after Player stood" if third < 0 else "after Player drew"
    if code == AFTER_NATURAL:
        return "a card dealt after a natural"
    if code == MISSING_P3:
        return f"Player stood on {pt}"
    if code == EXTRA_P3:
        return f"Player drew on {pt}"
    if code == MISSING_B3:
        return f"Banker stood on {bt} {after}" if p3 is None else f"Banker stood on {bt} {after} (Player drew on {pt})"
    if code == EXTRA_B3:
        return f"Banker drew on {bt} {after}"
    return "the record ends in the middle of a coup"


def tableau_problems(cards: pl.DataFrame, tableau: Tableau, checker: Checker) -> set[str]:
    """Every coup whose cards break the tableau, one problem a coup; returns the shoes with one.

    ``cards`` are the card rows of a per-coup record (``shoe, _s, coup, line, role, rank, canon``,
    each coup's rows together, in dealing order: P1 B1 P2 B2, then P3 and B3).
    """
    hands = _hands(cards)
    if hands.is_empty():
        return set()
    decided = _decide(hands, tableau)
    bad = np.flatnonzero(decided["code"])
    if not len(bad):
        return set()
    rows = hands[bad]
    shoes: set[str] = set()
    for j, row in zip(bad, rows.iter_rows(named=True), strict=True):
        p, b, pn, bn = row["p"], row["b"], row["pn"], row["bn"]
        ranks = [p[0], b[0], p[1], b[1], *p[2:], *b[2:]]
        names = [pn[0], bn[0], pn[1], bn[1], *pn[2:], *bn[2:]]
        roles = ["player", "banker", "player", "banker", *(["player"] * (len(p) - 2)), *(["banker"] * (len(b) - 2))]
        coups = [1] * len(ranks)
        if not row["last"]:  # the kernel sees the next coup's first card: the record's coup ends there
            ranks, names, roles, coups = [*ranks, 0], [*names, "?"], [*roles, "player"], [*coups, 2]
        code = int(decided["code"][j])
        index = int(decided["index"][j]) if code != TRUNCATED else len(p) + len(b) - 1
        problem_code, message = kernel_message(code, names, ranks, roles, coups, 0, index, "none", 1, 0)
        p3 = None if not (len(p) == 3 and decided["third"][j] < 0) else p[2]
        kind = _kind(code, int(decided["pt"][j]), int(decided["bt"][j]), int(decided["third"][j]), p3)
        checker.add(row["line"], row["shoe"], row["coup"], problem_code, message, kind=kind)
        shoes.add(str(row["shoe"]))
    return shoes


def coup_outcomes(cards: pl.DataFrame) -> pl.DataFrame:
    """``shoe, coup, player_total, banker_total, winner`` of every coup as its recorded cards give them."""
    values = pl.col("rank").replace_strict(list(range(13)), list(RANK_VALUES), default=None)
    totals = (
        cards.with_columns(values.alias("_v"))
        .group_by(["shoe", "coup"], maintain_order=True)
        .agg(
            (pl.col("_v").filter(pl.col("role") == "player").sum() % 10).cast(pl.Int8).alias("player_total"),
            (pl.col("_v").filter(pl.col("role") == "banker").sum() % 10).cast(pl.Int8).alias("banker_total"),
        )
    )
    pt, bt = pl.col("player_total"), pl.col("banker_total")
    winner = pl.when(pt > bt).then(pl.lit("player")).when(bt > pt).then(pl.lit("banker")).otherwise(pl.lit("tie"))
    return totals.with_columns(winner.alias("winner"))
