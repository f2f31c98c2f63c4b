"""Loading shoe records: parsing the rows of each layout, checking them and rebuilding the coups.

Private to :mod:`toolkit.records.read`: :func:`load` takes the rows a container reader
returned (:mod:`toolkit.records._io`) and gives :class:`toolkit.records.model.Records`
holding the valid shoes and the report of every problem (:mod:`toolkit.records.validation`).
The coups of card-level shoes are rebuilt (:mod:`toolkit.records._rebuild`) under the
tableau of the file's header: every shoe's header is the file's with the shoe's own keys
applied, and the header text has no tableau key, so all the shoes of a file share it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import polars as pl

from toolkit.bets.paytable import standard_bets
from toolkit.coup.cards import VALUE_TO_RANK, ZERO_RANKS
from toolkit.coup.options import Burn, HiddenBurn, LastHand, code
from toolkit.dealing.dealer import DealtShoes, concat
from toolkit.records._bets import check_bets
from toolkit.records._cards import check_cards
from toolkit.records._diagnose import coup_outcomes, tableau_problems
from toolkit.records._raw import BET_FIELDS, Raw, UnreadableError
from toolkit.records._rebuild import ROLE_CODE, ROLES, Rebuilt, rebuild, slot_roles
from toolkit.records._road import road_coups
from toolkit.records._sections import HeaderArg, caller_header, line_problems
from toolkit.records._shoes import Shoes, shoe_index, shoe_table
from toolkit.records._spelling import spelling_of
from toolkit.records.header import ShoeHeader
from toolkit.records.model import LAYOUTS, Records, _cast_shoe, _empty_bets, _select_dealt
from toolkit.records.validation import (
    Checker,
    Problem,
    RecordError,
    ValidationReport,
    as_int,
    check_sequence,
    check_winners,
    first_problem,
    kernel_message,
    parse_cards,
)

__all__ = ["HeaderArg", "caller_header", "fatal", "load"]


def _in_order(frame: pl.DataFrame, column: str) -> pl.DataFrame:
    """Rows sorted by shoe (``_s``, file order), then ``column``; rows already in that order are left as they are."""
    keys = frame.select("_s", pl.col(column).fill_null(-1))
    s, c = keys["_s"].to_numpy(), keys[column].to_numpy()
    if np.all((s[1:] > s[:-1]) | ((s[1:] == s[:-1]) & (c[1:] >= c[:-1]))):
        return frame
    return frame.sort(["_s", column], maintain_order=True, nulls_last=False)


def _codes(header: ShoeHeader) -> dict[str, int]:
    """The options of one header as the kernel reads them (:func:`toolkit.coup.options.code`)."""
    d = header.dealing
    return {
        "decks": d.decks,
        "burn_mode": code(Burn(d.burn)),
        "burn_ace": d.burn_ace,
        "burn_fixed": d.burn_cards,
        "hidden": code(HiddenBurn(header.hidden_burn)),
        "cut_card": d.cut_card,
        "last_mode": code(LastHand(d.last_hand)),
    }


def _params(shoes: Shoes) -> dict[str, np.ndarray]:
    """The per-shoe parameters of :func:`~toolkit.records._rebuild.rebuild` (the kernel codes of the options).

    Shoes share header objects (most share the file's), so each distinct one is read once.
    """
    if shoes.shared is not None:  # one header for every shoe
        return {k: np.full(len(shoes), v, np.int64) for k, v in _codes(shoes.shared).items()}
    distinct: dict[int, int] = {}
    table: list[dict[str, int]] = []
    which = np.empty(len(shoes.headers), np.int64)
    for i, h in enumerate(shoes.headers):
        k = distinct.get(id(h))
        if k is None:
            k = distinct[id(h)] = len(table)
            table.append(_codes(h))
        which[i] = k
    keys = table[0] if table else _codes(ShoeHeader())
    return {key: np.array([row[key] for row in table], np.int64)[which] for key in keys}


def _long_form_rows(frame: pl.DataFrame, checker: Checker, spelling: str) -> tuple[pl.DataFrame, bool, bool]:
    """Parse the rows of the long form, in dealing order; roles and coups when the record has them."""
    has_roles = "role" in frame.columns
    has_coups = "coup" in frame.columns
    frame = as_int(frame, "position", checker)
    if has_coups:
        frame = as_int(frame, "coup", checker, allow_missing=True)  # burned and undealt cards have none
    frame = parse_cards(frame.with_columns(pl.col("card").cast(pl.String)), spelling)
    if has_roles:
        frame = frame.with_columns(pl.col("role").cast(pl.String).str.strip_chars().str.to_lowercase())
        wrong = frame.filter(pl.col("role").is_null() | ~pl.col("role").is_in(list(ROLES)))
        checker.add_rows(
            wrong.with_columns(pl.col("role").fill_null("").alias("_role")),
            "bad_value",
            "unknown role '{_role}': expected burn, player, banker or undealt",
        )
    frame = _in_order(frame, "position")
    check_sequence(frame, "position", checker)
    return frame, has_roles, has_coups


def _coup_rows(frame: pl.DataFrame, shoes: Shoes, checker: Checker, spelling: str) -> pl.DataFrame:
    """Per-coup rows to card rows in dealing order (P1 B1 P2 B2 P3 B3, after the exposed burn card if known)."""

    def as_list(column: str) -> pl.Expr:
        cards = pl.col(column).list.eval(pl.element().str.strip_chars())
        return cards.list.eval(pl.element().filter(pl.element() != "")).fill_null([])

    frame = frame.with_columns(as_list("player"), as_list("banker"))
    last = (pl.col("shoe") != pl.col("shoe").shift(-1)).fill_null(True)  # rows in order: a shoe's last coup
    for side in ("player", "banker"):
        n = pl.col(side).list.len()
        sized = frame.with_columns(n.alias("_n"))
        checker.add_rows(
            sized.filter((n < 2) & last),
            "truncated",
            f"the record ends in the middle of a coup: {side.capitalize()}'s hand holds {{_n}} card(s); "
            "every hand gets two",
            "coup",
        )
        checker.add_rows(
            sized.filter(((n < 2) & ~last) | (n > 3)),
            "bad_hand",
            f"{side.capitalize()}'s hand holds {{_n}} card(s); a hand holds two or three",
            "coup",
        )
    parts = []
    for side, slots in (("player", (1, 3, 5)), ("banker", (2, 4, 6))):
        part = (
            frame.select("shoe", "_s", "coup", "line", pl.col(side).alias("card"))
            .with_columns(pl.int_ranges(0, pl.col("card").list.len()).alias("_i"))
            .explode(["card", "_i"])
            .filter(pl.col("card").is_not_null())
        )
        parts.append(
            part.with_columns(
                pl.col("_i").replace_strict([0, 1, 2], list(slots), default=9, return_dtype=pl.Int64).alias("_slot"),
                pl.lit(side).alias("role"),
            ).drop("_i")
        )
    burns = _burn_rows(frame, shoes)
    if burns is not None:
        parts.append(burns)
    cards = pl.concat(parts, how="diagonal_relaxed").sort(["_s", "coup", "_slot"])
    shoe_of = cards["_s"].to_numpy()
    # positions count the cards of each shoe from 1 (a window over many small shoes is slow in polars)
    position = np.arange(len(shoe_of), dtype=np.int64) - np.searchsorted(shoe_of, shoe_of) + 1
    cards = parse_cards(cards.drop("_slot"), spelling)
    return cards.with_columns(pl.Series("position", position, dtype=pl.Int64))


def _burn_rows(frame: pl.DataFrame, shoes: Shoes) -> pl.DataFrame | None:
    """The exposed burn card of each shoe whose header names one, a card row at the shoe's first line; or ``None``.

    ``frame`` (the per-coup rows, each shoe's together) has rows of every shoe.
    """
    if shoes.shared is not None:
        named = [(i, shoes.shared.burn_card) for i in range(len(shoes))] if shoes.shared.burn_card else []
    else:
        named = [(i, h.burn_card) for i, h in enumerate(shoes.headers) if h.burn_card]
    if not named:
        return None
    which = np.array([i for i, _ in named], np.int64)
    s = frame["_s"].to_numpy()
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    first_line = np.zeros(shoes.total, np.int64)
    first_line[s[starts]] = np.minimum.reduceat(frame["line"].to_numpy(), starts)
    return pl.DataFrame(
        {
            "shoe": shoes.ids.gather(which),
            "_s": shoes.at[which],
            "card": pl.Series([c for _, c in named], dtype=pl.String),
            "line": first_line[shoes.at[which]],
            "coup": pl.Series(np.zeros(len(which), np.int64)),
            "_slot": pl.Series(np.zeros(len(which), np.int64)),
            "role": pl.Series(["burn"] * len(which), dtype=pl.String),
        }
    )


def _rebuild_rows(
    rows: pl.DataFrame, shoes: Shoes, file_header: ShoeHeader, has_roles: bool, has_coups: bool, checker: Checker
) -> tuple[Rebuilt, pl.DataFrame]:
    """Run the rebuilding kernel on the card rows of ``shoes`` (sorted by shoe, ``_s``, then dealing order).

    The shoes are dealt under the tableau of the file's header, which every
    shoe's header shares.  Returns the kernel's result and the rows with the
    rebuilt ``role`` and ``coup``.
    """
    tableau = file_header.rules.tableau
    distinct = [shoes.shared] if shoes.shared is not None else list({id(h): h for h in shoes.headers}.values())
    if any(h.rules.tableau != tableau for h in distinct):
        raise ValueError("the shoes of one record share the tableau of its header")
    counts = np.bincount(rows["_s"].to_numpy(), minlength=shoes.total)[shoes.at]  # a shoe may have no rows
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    ranks = rows["rank"].to_numpy()
    roles = rows["role"].replace_strict(ROLE_CODE, return_dtype=pl.Int8).to_numpy() if has_roles else None
    coup_ids = rows["coup"].fill_null(-1).to_numpy() if has_coups else None
    result = rebuild(ranks, offsets, _params(shoes), tableau, roles, coup_ids)
    if not result.good.all():
        names = rows["canon"].to_list()
        lines = rows["line"].to_list()
        written_roles = rows["role"].to_list() if has_roles else [None] * len(names)
        ids = coup_ids.tolist() if coup_ids is not None else None
        for s in np.flatnonzero(~result.good):
            a, b = int(offsets[s]), int(offsets[s + 1])
            h = shoes.headers[int(s)]
            code, message = kernel_message(
                int(result.err_code[s]),
                names[a:b],
                ranks[a:b].tolist(),
                written_roles[a:b],
                ids[a:b] if ids is not None else None,
                int(result.err_start[s] - a),
                int(result.err_index[s] - a),
                h.dealing.burn,
                h.dealing.burn_ace,
                h.dealing.burn_cards,
            )
            checker.add(lines[result.err_index[s]], shoes.ids[int(s)], int(result.err_coup[s]) or None, code, message)
    rebuilt = rows.with_columns(
        slot_roles(result.card_slot),
        pl.Series("coup", result.card_coup, dtype=pl.Int64),
    ).with_columns(pl.when(pl.col("coup") > 0).then(pl.col("coup")).alias("coup"))
    return result, rebuilt


def _coups_frame(names: pl.Series, result: Rebuilt, shoe_ids: pl.Series, values: bool) -> pl.DataFrame:
    """Per-coup frame of the rebuilt shoes: hands (card texts from ``names``, the kernel's rows) and outcomes.

    A record of values tells no pairs: they are null.
    """
    dealt = result.dealt
    first = result.coup_first
    has_p3, has_b3 = dealt.cards[:, 2] >= 0, dealt.cards[:, 5] >= 0

    def hand(offsets: tuple[object, ...], present: np.ndarray) -> pl.Series:
        import pyarrow as pa  # only where records are read: the studies import this module and never need it

        index = np.stack([first + o for o in offsets], axis=1)
        keep = np.stack([np.ones_like(present), np.ones_like(present), present], axis=1)
        values = names.gather(index[keep]).to_arrow()
        bounds = np.concatenate([[0], np.cumsum(keep.sum(axis=1))]).astype(np.int32)
        return pl.Series(pa.ListArray.from_arrays(pa.array(bounds), values))

    pt, bt = dealt.totals()
    two = ~has_p3 & ~has_b3
    no_pair = pl.Series([None] * len(dealt), dtype=pl.Boolean)
    return pl.DataFrame(
        {
            "shoe": shoe_ids.gather(dealt.shoe),
            "coup": dealt.coup,
            "player": hand((0, 2, 4), has_p3),
            "banker": hand((1, 3, 4 + has_p3), has_b3),
            "player_total": pt.astype(np.int8),
            "banker_total": bt.astype(np.int8),
            "winner": np.where(pt > bt, "player", np.where(bt > pt, "banker", "tie")),
            "player_pair": pl.Series(dealt.cards[:, 0] == dealt.cards[:, 1]) if not values else no_pair,
            "banker_pair": pl.Series(dealt.cards[:, 3] == dealt.cards[:, 4]) if not values else no_pair,
            "natural": two & ((pt >= 8) | (bt >= 8)),
        }
    )


def _per_coup_rows(
    frame: pl.DataFrame, shoes: Shoes, decks: np.ndarray, file_header: ShoeHeader, checker: Checker, spelling: str
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The rows of a per-coup record checked coup by coup: the rows in order, their cards, their bets.

    Every coup is checked against the tableau whatever else is wrong with its shoe, and so are the
    winners of the shoes set aside (the kernel sees only the others).
    """
    frame = _in_order(as_int(frame, "coup", checker), "coup")
    check_sequence(frame, "coup", checker)
    bets = _bets_column(frame)
    rows = _coup_rows(frame, shoes, checker, spelling)
    check_cards(rows, decks, checker, coup="coup", spelling=spelling)
    tableau_problems(rows, file_header.rules.tableau, checker)
    aside = checker.bad_shoes
    if "winner" in frame.columns and aside.len():
        mine = pl.col("shoe").is_in(aside.implode())
        check_winners(
            frame.filter(mine).select("shoe", "coup", "line", "winner"), coup_outcomes(rows.filter(mine)), checker
        )
    return frame, rows, bets


def _bets_column(frame: pl.DataFrame) -> pl.DataFrame:
    """The ``bets`` column of a per-coup record as a table ``shoe, coup, who, bet, amount, line`` (text)."""
    if "bets" not in frame.columns:
        schema = dict.fromkeys(("shoe", "coup", "who", "bet", "amount"), pl.String)
        return pl.DataFrame(schema={**schema, "line": pl.Int64})
    long = frame.select("shoe", "coup", "line", "bets").explode("bets").filter(pl.col("bets").is_not_null())
    return long.select(
        "shoe",
        pl.col("coup").cast(pl.String),
        *(pl.col("bets").struct.field(k) for k in BET_FIELDS),
        "line",
    )


def load(
    raw: Raw, source: str, header: HeaderArg, strict: bool, read_as: str = "", spelling: str | None = None
) -> Records:
    """Check the rows of a record (any layout) and load its valid shoes (see :mod:`toolkit.records.read`).

    ``read_as`` says how a foreign layout was recognised; the card spelling is added to it.
    ``spelling`` (``ranks``, ``values``, ``numbers``) overrides the one told by the cards.
    """
    told = spelling
    header = caller_header(header)
    base = header if isinstance(header, ShoeHeader) else ShoeHeader()
    over = header if isinstance(header, Mapping) else None
    try:
        file_header = base.updated(raw.meta) if raw.meta else base
        if over:
            file_header = file_header.updated(over)
    except (ValueError, TypeError) as err:
        return fatal(source, UnreadableError("bad_header", f"shoe header: {err}", raw.meta_lines.get(None)), strict)
    frame = raw.frame.rename({c: c.strip().lower() for c in raw.frame.columns if c != "line"})
    layout = next((name for name, cols in LAYOUTS.items() if all(c in frame.columns for c in cols)), None)
    if layout is None:
        return fatal(source, _unrecognised(frame), strict)
    checker = Checker(source)
    data_columns = [c for c in frame.columns if c != "line"]
    frame = _without(frame, pl.all_horizontal(pl.col(c).is_null() for c in data_columns))  # blank lines
    frame = frame.with_columns(pl.col("shoe").cast(pl.String).str.strip_chars())
    no_id = pl.col("shoe").is_null() | (pl.col("shoe") == "")
    checker.add_rows(frame.filter(no_id), "bad_value", "missing shoe id")
    frame = _without(frame, no_id)
    raw_rows = frame
    ids, index = shoe_index(frame["shoe"])
    if ids.is_empty():
        return fatal(source, UnreadableError("empty_file", "the file holds no rows with a shoe id"), strict)
    frame = frame.with_columns(index)
    line_problems(raw, frame, checker)
    shoes = shoe_table(raw, frame, ids, base, over, file_header, checker)
    cards = dealt = None
    bets = pl.DataFrame()
    spelling = told or "ranks"
    if layout == "road":
        coups = road_coups(frame, shoes.by_id(), checker)
    else:
        spelling = told or _spelling(frame, layout)
        decks = shoes.decks()  # by ``_s``, the index of a row's shoe among them all
        parts = [
            _load_part(part, layout, mine, decks, file_header, checker, spelling) for part, mine in _parts(frame, shoes)
        ]
        cards = pl.concat([p[0] for p in parts], how="vertical_relaxed")
        coups = pl.concat([p[1] for p in parts], how="vertical_relaxed")
        bets = pl.concat([p[3] for p in parts], how="diagonal_relaxed")
        dealt = _joined([p[2] for p in parts])
    if strict and checker.problems:
        raise RecordError(first_problem(checker.problems))
    kind = "road" if layout == "road" else "values" if spelling == "values" else "cards"
    records = _assemble(kind, layout, file_header, shoes, raw_rows, cards, coups, dealt, bets, checker)
    said = [s for s in (read_as, _SPELLING_SAID.get(spelling, "")) if s]
    if said and not raw.meta and not over:  # a foreign file without a header: say what its shoes were taken to be
        said.append(f"no header, so the default rules assumed ({file_header.text()}; --header sets them)")
    return replace(records, read_as="; ".join(said))


#: The most rows of a record checked and rebuilt at a time: the shoes are loaded a part at a time, each part's
#: working set (its card rows, the kernel's arrays, its coups) released before the next, so that the memory of
#: a read grows with the file by little more than its rows as read and the shoes kept.
PART_ROWS = 50_000


def _parts(frame: pl.DataFrame, shoes: Shoes) -> Iterator[tuple[pl.DataFrame, Shoes]]:
    """``frame`` (rows with ``_s``) cut into parts of whole shoes of about :data:`PART_ROWS` rows, in shoe order.

    Each part comes with its shoes (a span of ``shoes``).  A shoe of more rows is a part alone.
    """
    s = frame["_s"].to_numpy()
    if np.any(s[1:] < s[:-1]):  # a shoe's rows apart in the file: each shoe's rows together, in file order
        frame = frame.sort("_s", maintain_order=True)
        s = frame["_s"].to_numpy()
    n = len(s)
    cuts = np.unique(np.r_[0, np.searchsorted(s, s[np.arange(PART_ROWS, n, PART_ROWS)]), n])
    for a, b in itertools.pairwise(cuts.tolist()):
        yield frame.slice(a, b - a), shoes.span(int(s[a]), int(s[b - 1]) + 1)


def _load_part(
    frame: pl.DataFrame,
    layout: str,
    shoes: Shoes,
    decks: np.ndarray,
    file_header: ShoeHeader,
    checker: Checker,
    spelling: str,
) -> tuple[pl.DataFrame, pl.DataFrame, DealtShoes, pl.DataFrame]:
    """Check and rebuild the card rows ``frame`` of ``shoes``: the cards, coups, dealing and bets of the good ones.

    ``decks`` is the number of decks of every shoe of the record (by ``_s``).
    """
    bets = pl.DataFrame()
    if layout == "cards":
        rows, has_roles, has_coups = _long_form_rows(frame, checker, spelling)
        check_cards(rows, decks, checker, spelling=spelling)
    else:
        frame, rows, bets = _per_coup_rows(frame, shoes, decks, file_header, checker, spelling)
        has_roles = has_coups = True
    kernel = shoes.take(~shoes.marked(checker.bad_shoes))
    if len(kernel) < len(shoes):
        rows = rows.filter(kernel.rows_of(rows))
    result, rows = _rebuild_rows(rows, kernel, file_header, has_roles, has_coups, checker)
    dealt = result.dealt
    if spelling == "values":
        _zeros_unseen(dealt)
    rebuilt = kernel.take(result.good)
    cards = rows if len(rebuilt) == len(kernel) else rows.filter(rebuilt.rows_of(rows))
    cards = cards.select("shoe", "position", pl.col("canon").alias("card"), "role", "coup")
    coups = _coups_frame(rows["canon"], result, rebuilt.ids, spelling == "values")
    if layout == "coups":
        bets = _check_told_outcomes(frame, bets, coups, rebuilt, file_header, checker)
    late = rebuilt.marked(checker.bad_shoes)
    if late.any():  # set aside after the rebuild (winners, bets): only the good shoes are kept
        dealt = _select_dealt(dealt, np.flatnonzero(~late))
        kept = rebuilt.take(~late).ids.implode()
        cards = cards.filter(pl.col("shoe").is_in(kept))
        coups = coups.filter(pl.col("shoe").is_in(kept))
        if bets.height:
            bets = bets.filter(pl.col("shoe").is_in(kept))
    return cards, coups, dealt, bets


def _joined(parts: list[DealtShoes]) -> DealtShoes:
    """The dealing of the parts (each numbering its own shoes from 0) as one, the shoes numbered in order."""
    offsets = np.cumsum([0] + [len(p.burned) for p in parts])
    return concat([replace(p, shoe=p.shoe + k) for p, k in zip(parts, offsets[:-1].tolist(), strict=True)])


def _unrecognised(frame: pl.DataFrame) -> UnreadableError:
    """The error for a file whose columns match no layout, naming the columns it has."""
    found = ", ".join(c for c in frame.columns if c != "line")
    return UnreadableError(
        "missing_column",
        f"unrecognised columns ({found}): expected shoe, position, card[, role] (cards); "
        "shoe, coup, player, banker (per coup); or shoe, road (bead road)",
        1,
    )


def _check_told_outcomes(
    frame: pl.DataFrame,
    bets: pl.DataFrame,
    coups: pl.DataFrame,
    rebuilt: Shoes,
    file_header: ShoeHeader,
    checker: Checker,
) -> pl.DataFrame:
    """Check a per-coup file's own winners and bets against the coups rebuilt from its cards; the good bets."""
    if "winner" in frame.columns:
        dealt_rows = frame if len(rebuilt) == rebuilt.total else frame.filter(rebuilt.rows_of(frame))
        check_winners(dealt_rows.select("shoe", "coup", "line", "winner"), coups, checker)
    if bets.height:
        known = [b.name for b in standard_bets(file_header.rules)]
        return check_bets(bets, coups.filter(~pl.col("shoe").is_in(checker.bad_shoes.implode())), known, checker)
    return bets


_SPELLING_SAID = {"values": "cards as values 0-9 (0: a ten or a face)", "numbers": "cards as rank numbers 1-13"}


def _spelling(frame: pl.DataFrame, layout: str) -> str:
    """How the file spells its cards (:func:`toolkit.records._spelling.spelling_of` of its distinct card texts)."""
    if layout == "cards":
        texts = frame["card"].cast(pl.String).drop_nulls().unique()
    else:
        texts = pl.concat([frame["player"].explode(), frame["banker"].explode()]).drop_nulls().unique()
    return spelling_of(texts.str.strip_chars().unique().to_list())


def _zeros_unseen(dealt: DealtShoes) -> None:
    """In a record of values every ten and face stands as the rank T: its unseen count is that of value 0.

    The kernel counted them down from four decks' worth of T, so J, Q and K still hold
    their full count: the unseen cards of value 0 are the four ranks' sum, all held by T.
    """
    zero, others = VALUE_TO_RANK[0], [r for r in ZERO_RANKS if r != VALUE_TO_RANK[0]]
    dealt.unseen[:, zero] = dealt.unseen[:, list(ZERO_RANKS)].sum(axis=1)
    dealt.unseen[:, others] = 0


def _int_ids(ids: pl.Series) -> bool:
    return ids.len() > 0 and bool(ids.str.contains(r"^(-?[1-9]\d{0,16}|0)$").all())


_COUPS_SCHEMA: dict[Any, Any] = {
    "shoe": pl.String,
    "coup": pl.Int32,
    "player": pl.List(pl.String),
    "banker": pl.List(pl.String),
    "player_total": pl.Int8,
    "banker_total": pl.Int8,
    "winner": pl.String,
    "player_pair": pl.Boolean,
    "banker_pair": pl.Boolean,
    "natural": pl.Boolean,
}
_SHOES_SCHEMA: dict[str, Any] = {"shoe": pl.String, "coups": pl.Int32, "cards_seen": pl.Int32, "burn_card": pl.String}


def _assemble(
    kind: str,
    layout: str,
    file_header: ShoeHeader,
    shoes: Shoes,
    raw_rows: pl.DataFrame,
    cards: pl.DataFrame | None,
    coups: pl.DataFrame,
    dealt: DealtShoes | None,
    bets: pl.DataFrame,
    checker: Checker,
) -> Records:
    """The records of the shoes that were not set aside, and the report."""
    dtype: pl.DataType = pl.Int64() if _int_ids(shoes.ids) else pl.String()
    aside = checker.bad_shoes
    good = shoes.take(~shoes.marked(aside))
    # every frame here holds shoes of the record only: those not set aside are the good ones
    keep = pl.lit(True) if len(good) == len(shoes) else ~pl.col("shoe").is_in(aside.implode())
    coups = coups.select(list(_COUPS_SCHEMA)).cast(_COUPS_SCHEMA).filter(keep)
    if cards is not None:
        cards = cards.filter(keep)
    table = _empty_bets()
    if bets.height:
        table = bets.filter(keep).select(
            "shoe", pl.col("coup").cast(pl.Int64), "who", "bet", pl.col("amount").str.strip_chars().cast(pl.Float64)
        )
    n_coups: Any
    seen: Any
    if dealt is not None:
        assert cards is not None  # card-level records carry both
        n_coups = np.bincount(dealt.shoe, minlength=len(good))
        seen = np.zeros(len(good), np.int64)
        if len(dealt):
            ends = np.flatnonzero(np.r_[dealt.shoe[1:] != dealt.shoe[:-1], True])
            seen[dealt.shoe[ends]] = dealt.seen[ends] + (dealt.cards[ends] >= 0).sum(axis=1)
        burn: Any = _burn_cards(cards, good.ids, dealt.burn_card)
    else:
        counts = coups.group_by("shoe", maintain_order=True).len()
        per = dict(zip(counts["shoe"].to_list(), counts["len"].to_list(), strict=True))
        n_coups = [per.get(s, 0) for s in good.ids.to_list()]
        seen = [None] * len(good)
        burn = [h.burn_card for h in good.headers]
    table_of_shoes = pl.DataFrame(
        {"shoe": good.ids, "coups": n_coups, "cards_seen": seen, "burn_card": burn}, schema=_SHOES_SCHEMA
    )
    rejected = raw_rows.clear() if len(good) == len(shoes) else raw_rows if not len(good) else raw_rows.filter(~keep)
    rejected = rejected.with_columns(pl.lit(checker.source).alias("file"))
    rejected = rejected.select("file", "line", *[c for c in rejected.columns if c not in ("file", "line")])
    if checker.left_out:
        rejected = pl.concat([rejected, checker.rejected_frame()], how="diagonal_relaxed")
    problems = tuple(sorted(checker.problems, key=lambda p: (not p.fatal, p.line if p.line is not None else 0)))
    return Records(
        kind=kind,
        layout=layout,
        header=file_header,
        headers=tuple(good.headers),
        shoes=_cast_shoe(table_of_shoes, dtype),
        cards=_cast_shoe(cards, dtype) if cards is not None else None,
        coups=_cast_shoe(coups, dtype),
        bets=_cast_shoe(table, dtype),
        dealt=dealt,
        report=ValidationReport(
            problems, rejected, len(shoes), len(good), tuple(checker.unlisted.items()), checker.unlisted_shoes
        ),
        source=checker.source,
    )


def _without(frame: pl.DataFrame, drop: pl.Expr) -> pl.DataFrame:
    """``frame`` without the rows where ``drop`` holds: the frame itself (no copy) where it holds on none."""
    mask = frame.select(drop.alias("_drop")).to_series()
    return frame.filter(~mask) if mask.len() and mask.any() else frame


def _burn_cards(cards: pl.DataFrame, ids: pl.Series, burn_card: np.ndarray) -> pl.Series:
    """The exposed burn card of each shoe ``ids`` (null where ``burn_card``, the kernel's, is -1).

    ``cards`` are the shoes' rebuilt rows in dealing order: an exposed burn card is its shoe's first row.
    """
    up = burn_card >= 0
    if not up.any():
        return pl.Series([None] * ids.len(), dtype=pl.String)
    first = cards.filter((pl.col("shoe") != pl.col("shoe").shift(1)).fill_null(True))
    if first.height != ids.len():  # a shoe without cards: by id
        burns = cards.filter(pl.col("role") == "burn").group_by("shoe").agg(pl.col("card").first())
        named = dict(zip(burns["shoe"].to_list(), burns["card"].to_list(), strict=True))
        named_up = [named.get(s) if u else None for s, u in zip(ids.to_list(), up.tolist(), strict=True)]
        return pl.Series(named_up, dtype=pl.String)
    return first.select(pl.when(pl.lit(pl.Series(up))).then(pl.col("card")).alias("burn_card"))["burn_card"]


def fatal(source: str, err: UnreadableError, strict: bool) -> Records:
    """The empty records of a file that cannot be read, with its one fatal problem (raised when ``strict``)."""
    problem = Problem(source, err.line, None, None, err.code, err.message, fatal=True)
    if strict:
        raise RecordError(problem)
    return Records(
        kind="cards",
        layout="cards",
        header=ShoeHeader(),
        headers=(),
        shoes=pl.DataFrame(schema=_SHOES_SCHEMA),
        cards=None,
        coups=pl.DataFrame(schema=_COUPS_SCHEMA),
        report=ValidationReport((problem,)),
        source=source,
    )
