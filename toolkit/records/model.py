"""Recorded shoes: the file formats, reading them into checked records, and writing them back.

Three *layouts* of a shoe record, each in any of three *containers* (CSV,
JSON lines, Parquet; the container is told by the file's first bytes when
reading and by its suffix when writing: ``.csv``, ``.jsonl``/``.ndjson``,
``.parquet``/``.pq``).  The layout is told by the columns:

``cards`` (card level, long form): ``shoe, position, card[, role][, coup]``
    One row per card in dealing order.  ``card`` is a rank ``A, 2-9, T, J, Q, K``
    (any case, ``10`` for ``T``), optionally followed by a suit letter
    (``Qh``, ``10s``).  ``position`` counts the *recorded* cards of the shoe from
    1 (or 0); a gap or a repeat is a problem.  ``role`` is ``burn``, ``player``,
    ``banker`` or ``undealt``; without roles the coups are rebuilt from the card
    order by the tableau and the header's burn rule (see ``hidden_burn``).
    ``coup`` (optional) numbers the coups from 1; when given it is checked.
``coups`` (card level, per coup): ``shoe, coup, player, banker[, winner][, bets]``
    ``player`` and ``banker`` are the hands' cards in order (a JSON list, or a
    string of cards separated by spaces, commas, ``;`` or ``|``); ``winner``
    (``B/P/T`` or ``banker/player/tie``), when given, must agree with the cards.
``road`` (outcome only, the bead road): ``shoe, road``
    One string per shoe: a winner letter ``B``, ``P`` or ``T`` per coup, each
    optionally followed by pair marks ``p`` (Player pair) and ``b`` (Banker
    pair), lower case; spaces are ignored: ``"BPpTBbp P"``.

Bets (the game-protection view) ride on the per-coup layout: a ``bets`` column
holding, per coup, a list of ``{"who", "bet", "amount"}`` (in CSV:
``"seat1:banker:25;seat3:tie:5"``); or a separate table ``shoe, coup, who,
bet, amount`` given as ``bets=`` to :func:`read_records`.

The shoe header
---------------
The number of decks and the house rules, as ``key=value`` pairs (defaults in
brackets): ``decks`` [8], ``burn`` [standard | fixed | none], ``burn_ace`` [1],
``burn_cards`` [0, for a fixed burn], ``cut_card`` [14, cards from the end],
``last_hand`` [one_more | finish | seven_cards], ``commission`` [0.05],
``tie_pays`` [8], ``hidden_burn`` [auto | listed | omitted] and ``burn_card``
(the exposed burn card, for the per-coup and road layouts).  With a standard
burn the first card is turned up (it is *seen*) and as many cards as its value
(ten and faces 10, ace ``burn_ace``) are burned face down.  ``hidden_burn``
says whether a record without roles lists those face-down cards: ``omitted``
(an observer's record: the exposed card, then the coups), ``listed`` (a
dealer's or shuffler's log), ``auto`` (listed when the shoe lists all its
``52 * decks`` cards; then the cut card also says where the dealing stopped
and the cards after the last coup are *undealt*).

* CSV: comment lines at the top, ``# decks=8 burn=standard cut_card=14``;
  a line ``# shoe=17 decks=6`` sets keys for one shoe.  Comment lines with
  words that are not ``key=value`` are free text.
* JSON lines: a line ``{"meta": {"decks": 8, ...}}``; ``{"meta": {"shoe": 17, ...}}``
  for one shoe.
* Parquet: the file's key-value metadata ``baccarat`` holds
  ``{"header": {...}, "shoes": {"17": {...}}}``.

Reading never raises for bad data: every problem is located in a
:class:`~toolkit.records.validation.ValidationReport` (``records.report``) and the shoes
it touches are set aside; ``strict=True`` raises
:class:`~toolkit.records.validation.RecordError` at the first problem instead.

>>> recs = simulate_records(2, seed=5)
>>> recs.kind, recs.n_shoes, recs.report.ok
('cards', 2, True)
>>> recs.coups.columns[:5]
['shoe', 'coup', 'player', 'banker', 'player_total']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl

from toolkit._check import one_of
from toolkit._coup import HiddenBurn
from toolkit.records._io import Raw, UnreadableError, canonical_columns, read_container, write_container
from toolkit.bets import standard_bets
from toolkit.cards import RANKS
from toolkit.dealing import Dealing, DealtShoes
from toolkit.parallel import block_plan
from toolkit.rules import Rules, as_fraction
from toolkit.records.validation import (
    Checker,
    RecordError,
    ValidationReport,
    canonical_card,
    check_bets,
    first_problem,
)

__all__ = [
    "LAYOUTS",
    "Records",
    "ShoeHeader",
    "read_bets",
    "read_records",
    "records_from_dealt",
    "records_from_frame",
    "records_from_orders",
    "simulate_records",
    "write_records",
]

#: Record layouts and the columns that identify them.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "cards": ("shoe", "position", "card"),
    "coups": ("shoe", "coup", "player", "banker"),
    "road": ("shoe", "road"),
}
_WINNER_LETTER = {"banker": "B", "player": "P", "tie": "T"}


# ------------------------------------------------------------------ header
@dataclass(frozen=True)
class ShoeHeader:
    """The number of decks and the house rules a shoe was dealt under (see the module notes)."""

    decks: int = 8
    burn: str = "standard"
    burn_ace: int = 1
    burn_cards: int = 0
    cut_card: int = 14
    last_hand: str = "one_more"
    commission: Fraction = Fraction(1, 20)
    tie_pays: Fraction = Fraction(8)
    hidden_burn: str = "auto"
    burn_card: str | None = None

    def __post_init__(self) -> None:
        self.dealing()  # Dealing validates decks, burn, burn_ace, burn_cards, cut_card, last_hand
        rules = Rules(decks=self.decks, commission=self.commission, tie_pays=self.tie_pays)
        object.__setattr__(self, "commission", rules.commission)
        object.__setattr__(self, "tie_pays", rules.tie_pays)
        one_of(self.hidden_burn, HiddenBurn, "hidden_burn")
        if self.burn_card is not None:
            object.__setattr__(self, "burn_card", canonical_card(self.burn_card))

    def dealing(self) -> Dealing:
        """The dealing procedure of this header."""
        return Dealing(
            decks=self.decks,
            burn=self.burn,
            burn_ace=self.burn_ace,
            burn_cards=self.burn_cards,
            cut_card=self.cut_card,
            last_hand=self.last_hand,
        )

    def rules(self) -> Rules:
        """The house rules of this header (decks, commission, tie payout)."""
        return Rules(decks=self.decks, commission=self.commission, tie_pays=self.tie_pays)

    @classmethod
    def from_dealing(cls, dealing: Dealing, rules: Rules | None = None) -> ShoeHeader:
        """The header of shoes dealt by ``dealing`` under ``rules``."""
        rules = rules or Rules(decks=dealing.decks)
        return cls(
            decks=dealing.decks,
            burn=dealing.burn,
            burn_ace=dealing.burn_ace,
            burn_cards=dealing.burn_cards,
            cut_card=dealing.cut_card,
            last_hand=dealing.last_hand,
            commission=rules.commission,
            tie_pays=rules.tie_pays,
        )

    def updated(self, values: Mapping[str, object]) -> ShoeHeader:
        """A copy with ``key=value`` settings (strings or numbers) applied.

        >>> ShoeHeader().updated({"decks": "6", "commission": "0.04"}).decks
        6
        """
        known = {f.name: f for f in fields(self)}
        changes: dict[str, object] = {}
        for key, value in values.items():
            if key not in known:
                raise ValueError(f"unknown header key {key!r}; known keys: {', '.join(known)}")
            if key in ("decks", "burn_ace", "burn_cards", "cut_card"):
                try:
                    changes[key] = int(str(value))
                except ValueError:
                    raise ValueError(f"header key {key} must be an integer, got {value!r}") from None
            elif key in ("commission", "tie_pays"):
                changes[key] = as_fraction(value if not isinstance(value, float) else repr(value))
            elif key == "burn_card":
                changes[key] = None if value in (None, "") else str(value)
            else:
                changes[key] = str(value)
        return replace(self, **changes)

    def as_dict(self, base: ShoeHeader | None = None) -> dict[str, object]:
        """``{key: value}`` as written in files; with ``base``, only the keys that differ from it."""
        out: dict[str, object] = {}
        for key, value in asdict(self).items():
            if base is not None and getattr(base, key) == value:
                continue
            if value is None:
                continue
            out[key] = _number_text(value) if isinstance(value, Fraction) else value
        return out

    def text(self, base: ShoeHeader | None = None) -> str:
        """The header as ``key=value`` words, e.g. for a CSV comment line.

        >>> ShoeHeader(decks=6).text(ShoeHeader())
        'decks=6'
        """
        return " ".join(f"{k}={v}" for k, v in self.as_dict(base).items())


def _number_text(x: Fraction) -> str:
    """``0.05`` for 1/20, ``8`` for 8, ``1/3`` when no short decimal is exact."""
    if x.denominator == 1:
        return str(x.numerator)
    text = repr(float(x))
    return text if Fraction(text) == x else f"{x.numerator}/{x.denominator}"


# ------------------------------------------------------------------ records
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
        ``"cards"`` (card level: long form or per coup) or ``"road"`` (outcomes only).
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
        Card level only: the coups as :class:`~toolkit.dealing.DealtShoes` arrays,
        shoe ``i`` being row ``i`` of ``shoes``: unseen composition before every
        coup, burn, cards.  Face-down burned cards a record does not list are
        counted (their number follows from the burn rule) but their ranks are
        unknown, so ``dealt.burned_ranks`` is zero for them.
    report
        What reading found (:class:`~toolkit.records.validation.ValidationReport`).
    source
        Where the record came from.
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

    @property
    def n_shoes(self) -> int:
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
        headers = tuple(replace(h, hidden_burn="omitted") for h in self.headers)
        return replace(
            self, cards=cards, dealt=dealt, headers=headers, header=replace(self.header, hidden_burn="omitted")
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

        Shoes with a bad bet are set aside like any invalid shoe.
        """
        table = bets if "line" in bets.columns else bets.with_row_index("line", offset=1)
        table = table.with_columns(pl.col("line").cast(pl.Int64), pl.col("shoe").cast(pl.String))
        checker = Checker(self.source)
        known = [b.name for b in standard_bets(self.header.rules())]
        check_bets(table, self.coups.with_columns(pl.col("shoe").cast(pl.String)), known, checker)
        if strict and checker.problems:
            raise RecordError(first_problem(checker.problems))
        bad = checker.bad_shoes
        table = table.filter(~pl.col("shoe").is_in(list(bad))).select(
            "shoe",
            pl.col("coup").cast(pl.String).str.strip_chars().cast(pl.Int64),
            "who",
            "bet",
            pl.col("amount").cast(pl.String).str.strip_chars().cast(pl.Float64),
        )
        out = replace(self, bets=_cast_shoe(table, self.shoes["shoe"].dtype))
        rejected = self.report.rejected
        if bad:
            out = out.select([s for s in out.shoe_ids if str(s) not in bad])
            # the rows of the shoes set aside, as loaded (no file lines: they may come from another file)
            rows = self.cards if self.cards is not None else self.coups.select("shoe", "coup", "winner")
            dropped = rows.filter(pl.col("shoe").cast(pl.String).is_in(list(bad))).with_columns(
                pl.lit(self.source).alias("file"),
                pl.lit(None, pl.Int64).alias("line"),
                pl.all().exclude("line").cast(pl.String),
            )
            rejected = pl.concat([rejected, dropped], how="diagonal_relaxed")
        report = self.report
        return replace(
            out,
            report=ValidationReport(
                report.problems + tuple(checker.problems), rejected, report.n_shoes, report.n_valid - len(bad)
            ),
        )


def _exposed_burn(records: Records) -> pl.Expr:
    """The exposed burn card: the first burn card of each shoe whose burn card was turned up."""
    turned_up = records.shoes.filter(pl.col("burn_card").is_not_null())["shoe"]
    is_burn = pl.col("role") == "burn"
    return is_burn & (is_burn.cum_sum().over("shoe") == 1) & pl.col("shoe").is_in(turned_up.to_list())


def _select_dealt(dealt: DealtShoes, rows: Sequence[int]) -> DealtShoes:
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


def records_from_frame(
    frame: pl.DataFrame,
    header: ShoeHeader | Mapping[str, object] | None = None,
    source: str = "<memory>",
    strict: bool = False,
) -> Records:
    """Check and load a record held in a polars frame (any layout; see the module notes).

    ``header`` gives the shoe header (a :class:`ShoeHeader`, or ``key=value``
    settings over the default); lines are the frame's row numbers from 1 unless
    it has a ``line`` column.
    """
    data = frame if "line" in frame.columns else frame.with_row_index("line", offset=1)
    data = canonical_columns(data.rename({c: c.strip().lower() for c in data.columns}))
    from toolkit.records._load import load

    return load(Raw(data.with_columns(pl.col("line").cast(pl.Int64))), source, header, strict)


def read_records(
    path: str | Path,
    header: ShoeHeader | Mapping[str, object] | None = None,
    strict: bool = False,
    bets: str | Path | pl.DataFrame | None = None,
) -> Records:
    """Read, check and load a shoe record file (CSV, JSON lines or Parquet; any layout).

    Parameters
    ----------
    path
        The file.  A file that cannot be opened raises :class:`OSError`; anything
        wrong *in* it is a :class:`~toolkit.records.validation.Problem`.
    header
        A :class:`ShoeHeader` the file's own header keys apply over, or a mapping
        of ``key=value`` settings applied over the file's.
    strict
        Raise :class:`~toolkit.records.validation.RecordError` at the first problem
        (in file order) instead of setting bad shoes aside.
    bets
        A table of bets (a file or a frame with ``shoe, coup, who, bet, amount``)
        to attach (see :meth:`Records.with_bets`).

    Returns
    -------
    Records
        The valid shoes, with ``.report`` listing every problem.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "shoes.csv"
    >>> _ = path.write_text("# decks=8 burn=none\\nshoe,position,card\\n1,1,K\\n1,2,9\\n1,3,Q\\n1,4,X\\n")
    >>> print(read_records(path).report.problems[0])  # doctest: +ELLIPSIS
    /...shoes.csv:6: shoe 1: unknown card code 'X': expected a rank A,2-9,T/10,J,Q,K, ...
    """
    from toolkit.records._load import fatal, load

    source = str(path)
    data = Path(path).read_bytes()
    try:
        raw = read_container(data)
    except UnreadableError as err:
        return fatal(source, err, strict)
    records = load(raw, source, header, strict)
    if bets is not None:
        records = records.with_bets(bets if isinstance(bets, pl.DataFrame) else read_bets(bets), strict=strict)
    return records


def read_bets(path: str | Path) -> pl.DataFrame:
    """A table of bets, ``shoe, coup, who, bet, amount`` (CSV, JSON lines or Parquet), with its ``line`` numbers."""
    try:
        raw = read_container(Path(path).read_bytes())
    except UnreadableError as err:
        raise ValueError(f"{path}: {err.message}") from None
    frame = raw.frame.rename({c: c.strip().lower() for c in raw.frame.columns if c != "line"})
    missing = [c for c in ("shoe", "coup", "who", "bet", "amount") if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{path}: a bets table needs the columns shoe, coup, who, bet, amount; missing {', '.join(missing)}"
        )
    return frame.select(*(pl.col(c).cast(pl.String) for c in ("shoe", "coup", "who", "bet", "amount")), "line")


# ------------------------------------------------------------------ building from simulations
def records_from_orders(
    orders: np.ndarray,
    header: ShoeHeader = ShoeHeader(),
    suits: np.ndarray | None = None,
    first_shoe: int = 1,
) -> Records:
    """Card-level records of complete shoe orders (``(n, 52 * decks)`` rank indices), dealt by ``header``.

    ``suits`` (same shape, 0..3 = s, h, d, c) adds suit letters.  Every card is
    listed, so the cut card decides where the dealing stopped (as in
    :func:`toolkit.dealing.deal_block`); shoes are numbered from ``first_shoe``.
    """
    orders = np.asarray(orders)
    n, size = orders.shape
    if size != 52 * header.decks:
        raise ValueError(f"orders of {size} cards do not fill a {header.decks}-deck shoe ({52 * header.decks} cards)")
    names = np.array(RANKS, dtype=object)[orders.ravel()]
    if suits is not None:
        names = names + np.array(list("shdc"), dtype=object)[np.asarray(suits).ravel()]
    frame = pl.DataFrame(
        {
            "shoe": np.repeat(np.arange(first_shoe, first_shoe + n), size),
            "position": np.tile(np.arange(1, size + 1), n),
            "card": names.astype(str),
        }
    )
    return records_from_frame(frame, replace(header, hidden_burn="listed"), source="<simulated>")


def simulate_records(
    n_shoes: int,
    header: ShoeHeader = ShoeHeader(),
    seed: int | np.random.SeedSequence | None = None,
    suits: bool = False,
    block_size: int = 1000,
) -> Records:
    """Shuffle ``n_shoes`` shoes and record them card by card (complete orders, dealt by ``header``).

    Block ``i`` of ``block_size`` shoes draws from child ``i`` of
    ``SeedSequence(seed)`` (see :mod:`toolkit.parallel`).  With ``suits=True``
    each card also gets a suit, from the same stream, such that every rank of
    every deck holds each suit once.
    """
    parts = []
    for block in block_plan(n_shoes, block_size, seed):
        rng = block.rng()
        cards = np.tile(np.arange(52, dtype=np.int16), (block.n_shoes, header.decks))
        cards = rng.permuted(cards, axis=1)
        orders = (cards // 4).astype(np.int8)
        parts.append(records_from_orders(orders, header, cards % 4 if suits else None, 1 + block.first_shoe))
    if not parts:
        return records_from_orders(np.zeros((0, 52 * header.decks), np.int8), header)
    return _concat(parts)


def _concat(parts: list[Records]) -> Records:
    first = parts[0]
    if len(parts) == 1:
        return first
    offsets = np.cumsum([0] + [p.n_shoes for p in parts[:-1]])
    dealts = [p.dealt for p in parts]
    dealt = DealtShoes(
        shoe=np.concatenate([d.shoe + o for d, o in zip(dealts, offsets, strict=True)]),
        **{
            f: np.concatenate([getattr(d, f) for d in dealts])
            for f in (
                "coup",
                "start",
                "cards",
                "seen",
                "left",
                "unseen_count",
                "unseen",
                "burn_card",
                "burned",
                "burned_ranks",
            )
        },
    )
    return replace(
        first,
        headers=sum((p.headers for p in parts), ()),
        shoes=pl.concat([p.shoes for p in parts]),
        cards=pl.concat([p.cards for p in parts]),
        coups=pl.concat([p.coups for p in parts]),
        bets=pl.concat([p.bets for p in parts]),
        dealt=dealt,
        report=ValidationReport(n_shoes=sum(p.n_shoes for p in parts), n_valid=sum(p.n_shoes for p in parts)),
    )


def records_from_dealt(dealt: DealtShoes, header: ShoeHeader = ShoeHeader()) -> Records:
    """Card-level records of shoes dealt by :mod:`toolkit.dealing` (what a table log would hold).

    The face-down burned cards are listed in rank order (the dealt arrays keep
    their ranks, not their order); shoes are numbered ``dealt.shoe + 1``.
    """
    n_shoes = dealt.n_shoes
    burn_rows_shoe, burn_rows_card = [], []
    for s in range(n_shoes):
        if dealt.burn_card[s] >= 0:
            burn_rows_shoe.append(s)
            burn_rows_card.append(int(dealt.burn_card[s]))
        for r in range(13):
            burn_rows_shoe.extend([s] * int(dealt.burned_ranks[s, r]))
            burn_rows_card.extend([r] * int(dealt.burned_ranks[s, r]))
    order = (0, 3, 1, 4, 2, 5)
    flat = dealt.cards[:, order]
    shoe_of = np.repeat(dealt.shoe - dealt.first_shoe, 6)
    keep = flat.ravel() >= 0
    role = np.tile(np.array(["player", "banker"] * 3, dtype=object), len(dealt))[keep]
    cards = np.concatenate([np.array(burn_rows_card, dtype=np.int64), flat.ravel()[keep]])
    shoe = np.concatenate([np.array(burn_rows_shoe, dtype=np.int64), shoe_of[keep]])
    roles = np.concatenate([np.array(["burn"] * len(burn_rows_card), dtype=object), role])
    seq = np.argsort(shoe, kind="stable")
    frame = pl.DataFrame(
        {
            "shoe": shoe[seq] + 1,
            "card": np.array(RANKS, dtype=object)[cards[seq]].astype(str),
            "role": roles[seq].astype(str),
        }
    )
    frame = frame.with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("shoe").alias("position"))
    return records_from_frame(frame.select("shoe", "position", "card", "role"), header, source="<dealt>")


# ------------------------------------------------------------------ writing
def _road_strings(coups: pl.DataFrame) -> pl.DataFrame:
    token = (
        pl.col("winner").replace_strict(_WINNER_LETTER, return_dtype=pl.String)
        + pl.when(pl.col("player_pair")).then(pl.lit("p")).otherwise(pl.lit(""))
        + pl.when(pl.col("banker_pair")).then(pl.lit("b")).otherwise(pl.lit(""))
    )
    return coups.group_by("shoe", maintain_order=True).agg(token.str.join("").alias("road"))


def layout_frame(records: Records, layout: str | None = None, roles: bool = True) -> pl.DataFrame:
    """The frame a file of ``layout`` holds for these records (``records.layout`` by default)."""
    layout = layout or records.layout
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    if layout == "road":
        return _road_strings(records.coups)
    if records.cards is None:
        raise ValueError(f"an outcome-only record (bead road) cannot be written as {layout!r}: it holds no cards")
    if layout == "cards":
        cols = ["shoe", "position", "card", "role"] if roles else ["shoe", "position", "card"]
        return records.cards.select(cols)
    frame = records.coups.select(
        "shoe", "coup", "player", "banker", pl.col("winner").replace_strict(_WINNER_LETTER, return_dtype=pl.String)
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
    described in the module notes; a record read back from the file equals the
    one written (same frames, same headers).  The per-coup layout cannot hold
    face-down burned or undealt cards, and the bead road holds only outcomes.
    """
    layout = layout or records.layout
    frame = layout_frame(records, layout, roles)
    return write_container(
        frame, Path(path), format, replace(records.header, burn_card=None).as_dict(), _shoe_meta(records, layout)
    )
