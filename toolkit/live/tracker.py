"""Following a live shoe key by key: cards into coups by the tableau, undo, and the numbers before every coup.

:class:`Tracker` is the state machine behind ``baccarat track``, free of any
terminal so that it can be driven (and tested) by feeding it keys.  One key per
card (:data:`RANK_KEYS`: ``a``/``1`` ace, ``2``..``9``, ``t``/``0`` ten, ``j``,
``q``, ``k``); the tracker puts each card where the dealing rules put it:

* the burn (the shoe header's burn rule, :func:`toolkit.coup.step.burn_count`):
  under the standard burn the first card is the exposed burn card, then as many
  cards as its value are burned face down; type each of them when they are
  seen, or ``?`` once when they are not (a record lists them all or none);
* the coups: Player, Banker, Player, Banker, then the third cards that the
  tableau (the coup step, :func:`toolkit.coup.step.coup_layout`)
  calls for; a coup closes by itself when the tableau says it is over.

``u`` (or backspace) undoes the last accepted key (a refused key changed
nothing) and says what it undid and where the next card goes now.  Enter (or ``.``)
says "the dealer ended the coup": while the tableau still calls for a third
card that is a *tableau violation*, flagged at once and the coup stays open.
With ``confirm=True`` every coup must be closed by Enter, so a card dealt after
the tableau ended a coup is flagged too.  A key that means nothing, or a card
of a rank already used up, gets a message; nothing raises.

Money is in units staked, as everywhere in the toolkit: an expected value of
-0.0106 is -1.06 % of the bet.

Before every coup the tracker evaluates its :class:`~toolkit.live.panel.Panel`
on the unseen cards (what a counter knows: the exposed burn card and the coups
are seen, face-down burned cards not); :meth:`Tracker.frame` has the columns
of :func:`toolkit.records.replay_records`, and :meth:`Tracker.records` the session as
a card-level record that :func:`toolkit.records.write_records` saves and
``baccarat validate`` / ``baccarat replay`` read back.

>>> t = Tracker(ShoeHeader().updated(burn="none"), Panel.of(bets=["banker", "player"]))
>>> [t.press(k).kind for k in "9k4k"]  # Player 9 4 (a three), Banker K K (zero)
['card', 'card', 'card', 'card']
>>> t.press("7").text  # Player draws on 3: a seven; Banker draws on 0 whatever it is
'Player draws 7'
>>> fb = t.press("2"); fb.kind, fb.text
('coup', 'coup 1: Player 9 4 7 (0), Banker K K 2 (2): banker')
>>> t.press("u").text
'undid: Banker draws 2, closing coup 1 (coup 1 is open again); next: Banker'
>>> t.press("2").kind, t.press("z").kind
('coup', 'error')
>>> t.press("u").text
"the last key, 'z', changed nothing; undid: Banker draws 2, closing coup 1 (coup 1 is open again); next: Banker"
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import polars as pl

from toolkit.coup.cards import MIN_COUP_CARDS, RANK_VALUES, RANKS, Composition, hand_total
from toolkit.coup.options import Burn
from toolkit.coup.step import PLAYER_3, Tables, burn_count, hand_totals, next_slot
from toolkit.live.panel import Panel, Snapshot
from toolkit.records import Records, ShoeHeader, records_from_frame

__all__ = [
    "CHANGES",
    "END_KEYS",
    "QUIT_KEYS",
    "RANK_KEYS",
    "UNDO_KEYS",
    "UNSEEN_KEY",
    "Coup",
    "Feedback",
    "Tracker",
]

#: One key per card: the rank index it stands for.
RANK_KEYS: dict[str, int] = {
    **dict.fromkeys("aA1", 0),
    **{str(v): v - 1 for v in range(2, 10)},
    **dict.fromkeys("tT0", 9),
    **dict.fromkeys("jJ", 10),
    **dict.fromkeys("qQ", 11),
    **dict.fromkeys("kK", 12),
}
#: The face-down burned cards were not seen.
UNSEEN_KEY = "?"
#: Undo the last key.
UNDO_KEYS = ("u", "U", "\x7f", "\b", "undo")
#: The dealer ended the coup.
END_KEYS = ("\r", "\n", ".", "end")
#: Leave (the terminal program saves the session).
QUIT_KEYS = ("x", "X", "\x04", "\x03", "quit")
HELP_KEYS = ("h", "H")


Kind = Literal["card", "burn", "coup", "undo", "tableau", "error", "info", "quit"]
#: The kinds of feedback of a key that changed the state (the keys that undo takes back).
CHANGES = ("card", "burn", "coup")


@dataclass(frozen=True)
class Feedback:
    """What a key did: ``kind`` (``card``, ``burn``, ``coup``, ``undo``, ``tableau``, ``error``, ``info``,
    ``quit``) and a line of text; ``positive`` names the bets with the player's edge after a coup.

    Attributes
    ----------
    kind
        What the key did.
    text
        A line of text.
    positive
        Bets with the player's edge after a coup.
    """

    kind: Kind
    text: str
    positive: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the key was accepted (not an error, nor a card against the tableau)."""
        return self.kind not in ("tableau", "error")


@dataclass(frozen=True)
class Coup:
    """A finished coup: its number, the hands (rank indices in dealing order) and what was known before it.

    Attributes
    ----------
    number
        The coup's number.
    player, banker
        The hands, rank indices in dealing order.
    seen, left
        Cards seen and left before it.
    unseen
        The unseen cards before it.
    """

    number: int
    player: tuple[int, ...]
    banker: tuple[int, ...]
    seen: int
    left: int
    unseen: Composition

    @property
    def totals(self) -> tuple[int, int]:
        """Player's and Banker's final totals."""
        return hand_total(self.player), hand_total(self.banker)

    @property
    def winner(self) -> str:
        """``"banker"``, ``"player"`` or ``"tie"``."""
        p, b = self.totals
        return "player" if p > b else "banker" if b > p else "tie"

    def describe(self) -> str:
        """The coup in a line: its number, both hands and the winner."""
        p, b = self.totals
        hand = " ".join
        return (
            f"coup {self.number}: Player {hand(RANKS[c] for c in self.player)} ({p}), "
            f"Banker {hand(RANKS[c] for c in self.banker)} ({b}): {self.winner}"
        )


@dataclass
class _State:
    burn_up: int | None = None
    face_down: list[int] = field(default_factory=list)
    face_down_unseen: bool = False
    coups: list[Coup] = field(default_factory=list)
    current: list[int] = field(default_factory=list)
    complete: bool = False  # the current coup is over by the tableau (waiting for Enter, confirm mode)


class Tracker:
    """The key-by-key state of a live shoe (see the module notes).

    Parameters
    ----------
    header
        How the shoe is dealt (decks, burn rule, tableau) and the house rules.
    panel
        The bets and count systems to show; default the standard panel under the header's rules.
    confirm
        Every coup is closed by Enter (so an extra third card is flagged).
    shoe
        The shoe's id in the saved record.
    """

    def __init__(
        self, header: ShoeHeader = ShoeHeader(), panel: Panel | None = None, confirm: bool = False, shoe: int = 1
    ) -> None:
        self.header = header
        self.panel = panel or Panel.of(rules=header.rules)
        if self.panel.decks != header.dealing.decks:
            raise ValueError(
                f"the panel counts from {self.panel.decks} deck(s) and the shoe holds {header.dealing.decks}"
            )
        self.confirm = confirm
        self.shoe = shoe
        self.keys: list[str] = []
        self._did: list[str] = []  # what each accepted key did, in words (what undo says it undid)
        self._doing = ""  # what the key being applied does, set by _apply when it accepts the key
        self._refused: str | None = None  # the last key, when it changed nothing (refused, or nothing to do)
        tableau = header.dealing.tableau
        self._tables = Tables.of(tableau)
        self._state = _State()
        self._cache: dict[tuple, Snapshot] = {}

    # ------------------------------------------------------------------ reading
    @property
    def decks(self) -> int:
        """Decks of the full shoe."""
        return self.header.dealing.decks

    @property
    def coups(self) -> tuple[Coup, ...]:
        """The coups finished so far, in order."""
        return tuple(self._state.coups)

    @property
    def current(self) -> tuple[int, ...]:
        """The cards of the coup being dealt, in dealing order."""
        return tuple(self._state.current)

    def _face_down_count(self) -> int:
        d = self.header.dealing
        if d.burn == Burn.STANDARD:
            s = self._state
            return 0 if s.burn_up is None else int(burn_count(s.burn_up, d.burn_ace))
        return d.burn_cards if d.burn == Burn.FIXED else 0

    @property
    def phase(self) -> str:
        """``"burn"`` (the exposed burn card is due), ``"face_down"`` (face-down burned cards) or ``"deal"``."""
        s = self._state
        if self.header.dealing.burn == Burn.STANDARD and s.burn_up is None:
            return "burn"
        if not s.face_down_unseen and len(s.face_down) < self._face_down_count():
            return "face_down"
        return "deal"

    def _dealt(self) -> list[int]:
        s = self._state
        return [c for coup in s.coups for c in (*coup.player, *coup.banker)] + s.current

    def unseen(self) -> Composition:
        """The unseen cards now (the current coup's cards count as seen; face-down burned cards do not).

        As in :func:`toolkit.records.replay_records`: the exposed burn card and the coups
        are seen, the cards burned face down are unseen even when typed (typed,
        they go into the record as a dealer's log lists them).
        """
        s = self._state
        counts = [4 * self.decks] * 13
        for r in ([] if s.burn_up is None else [s.burn_up]) + self._dealt():
            counts[r] -= 1
        return Composition(tuple(counts))

    def _typed(self, rank: int) -> int:
        s = self._state
        return [s.burn_up, *s.face_down, *self._dealt()].count(rank)

    def left(self) -> int:
        """Cards physically left in the shoe now."""
        s = self._state
        face_down = len(s.face_down) if self.phase == "face_down" else self._face_down_count()
        return 52 * self.decks - (s.burn_up is not None) - face_down - len(self._dealt())

    def snapshot(self) -> Snapshot:
        """The numbers before the next coup: the unseen cards without the coup being dealt."""
        s = self._state
        counts = list(self.unseen().by_rank)
        for r in s.current:
            counts[r] += 1
        comp = Composition(tuple(counts))
        left = self.left() + len(s.current)
        burn = self._state.burn_up
        key = (comp.by_rank, burn, left)
        if key not in self._cache:
            self._cache[key] = self.panel.evaluate(comp, burn, left)
        return self._cache[key]

    def next_slot(self) -> str:
        """Where the next card goes: ``burn``, ``face-down burn``, ``Player``, ``Banker`` or ``Player or Enter``."""
        phase = self.phase
        if phase == "burn":
            return "exposed burn card"
        if phase == "face_down":
            return f"face-down burn card {len(self._state.face_down) + 1} of {self._face_down_count()} (or ?)"
        need = self._need()
        if need is None:
            return "Enter (the coup is over)" if self._state.complete else "Player"
        return need

    def _row(self) -> np.ndarray:
        """The current coup's cards by slot (-1 where none), each placed by the coup step."""
        row = np.full(6, -1, np.int8)
        values = [RANK_VALUES[rank] for rank in self._state.current]
        for n, rank in enumerate(self._state.current):
            row[next_slot(values[:n], self._tables)] = rank
        return row

    def _totals(self) -> tuple[int, int]:
        """The current coup's two-card totals (it has at least four cards)."""
        p1, b1, p2, b2 = (RANK_VALUES[rank] for rank in self._state.current[:4])
        player_total, banker_total = hand_totals(p1, b1, p2, b2)
        return int(player_total), int(banker_total)

    def _need(self) -> str | None:
        """Which hand the tableau gives the next card of the current coup (``None``: the coup is over / not begun)."""
        if not self._state.current or self._state.complete:
            return None
        slot = next_slot([RANK_VALUES[rank] for rank in self._state.current], self._tables)
        return None if slot < 0 else "Player" if slot <= PLAYER_3 else "Banker"

    def _why_over(self) -> str:
        cur = self._state.current
        row = self._row()
        pt, bt = self._totals()
        if pt >= 8 or bt >= 8:
            return f"a natural ({pt} against {bt}): nobody draws"
        if len(cur) == 6:
            return "both hands have their third card"
        if row[PLAYER_3] >= 0:
            return f"Banker stands on {bt} against Player's third card {RANKS[cur[4]]}"
        return f"Player stands on {pt} and Banker {'drew' if len(cur) == 5 else f'stands on {bt}'}"

    # ------------------------------------------------------------------ keys
    def press(self, key: str) -> Feedback:
        """Apply one key; never raises for a bad key (the :class:`Feedback` says what happened)."""
        if key in QUIT_KEYS:
            return Feedback("quit", "bye")
        if key in HELP_KEYS:
            return Feedback("info", HELP)
        if key in UNDO_KEYS:
            return self.undo()
        feedback = self._apply(key)
        if feedback.kind in CHANGES:
            self.keys.append(key)
            self._did.append(self._doing)
            self._refused = None
        else:
            self._refused = key
        return feedback

    def feed(self, keys: Iterable[str]) -> list[Feedback]:
        """Press many keys (a string is split into characters); returns every feedback."""
        return [self.press(k) for k in keys]

    def undo(self) -> Feedback:
        """Undo the last accepted key (the state is rebuilt from the keys before it).

        The text says what was undone and where the next card goes now; after a
        key that changed nothing (refused, or nothing to do) it says so too: the
        key undone is the last one that changed something.
        """
        refused, self._refused = self._refused, None
        if not self.keys:
            return Feedback("info", "nothing to undo")
        coups = len(self._state.coups)
        self.keys.pop()
        did = self._did.pop()
        keys, self.keys = self.keys, []
        self._state = _State()
        for k in keys:
            fb = self._apply(k)
            assert fb.kind in CHANGES, fb
            self.keys.append(k)
        reopened = f" (coup {coups} is open again)" if len(self._state.coups) < coups else ""
        text = f"undid: {did}{reopened}; next: {self.next_slot()}"
        if refused is not None:
            text = f"the last key, {_shown(refused)}, changed nothing; {text}"
        return Feedback("undo", text)

    def _apply(self, key: str) -> Feedback:
        s = self._state
        phase = self.phase
        if key == UNSEEN_KEY:
            if phase != "face_down":
                return Feedback("error", "? marks the face-down burned cards unseen; no face-down burn is due now")
            if s.face_down:
                return Feedback(
                    "error",
                    "a record lists the face-down burned cards all or none: type the rest, or undo the ones typed",
                )
            s.face_down_unseen = True
            self._doing = "the face-down burn marked unseen (?)"
            return Feedback("burn", f"{self._face_down_count()} face-down burned card(s) unseen")
        if key in END_KEYS:
            return self._end()
        if key not in RANK_KEYS:
            return Feedback(
                "error", f"unknown key {_shown(key)}: cards are a 2-9 t j q k (or 1 and 0), u undoes, Enter ends a coup"
            )
        rank = RANK_KEYS[key]
        if self._typed(rank) >= 4 * self.decks:
            return Feedback("error", f"no {RANKS[rank]} is left: all {4 * self.decks} are out (undo a mistake?)")
        if self.left() == 0:
            return Feedback("error", "the shoe is empty")
        if phase == "burn":
            s.burn_up = rank
            n = self._face_down_count()
            self._doing = f"exposed burn card {RANKS[rank]}"
            return Feedback("burn", f"burn card {RANKS[rank]}: {n} card(s) burned face down (type them, or ?)")
        if phase == "face_down":
            s.face_down.append(rank)
            self._doing = f"face-down burn card {len(s.face_down)}: {RANKS[rank]}"
            return Feedback("burn", f"face-down burn {len(s.face_down)}: {RANKS[rank]}")
        if s.complete:
            return Feedback(
                "tableau",
                f"tableau: {self._why_over()}; press Enter to close the coup, or u to undo the last card",
            )
        need = self._need()
        if not s.current and self.left() < MIN_COUP_CARDS:
            return Feedback("error", f"only {self.left()} card(s) left: no coup may start with fewer than six")
        who = need or "Player"
        s.current.append(rank)
        text = f"{who} {'draws' if len(s.current) > 4 else 'gets'} {RANKS[rank]}"
        self._doing = text
        if self._need() is None and len(s.current) >= 4:
            if self.confirm:
                s.complete = True
                return Feedback("card", text + "; the coup is over: Enter")
            self._doing = f"{text}, closing coup {len(s.coups) + 1}"
            return self._close()
        return Feedback("card", text)

    def _end(self) -> Feedback:
        s = self._state
        if self.phase != "deal":
            return Feedback("error", f"the {self.next_slot()} is due, not the end of a coup")
        if not s.current:
            return Feedback("info", "no coup in progress")
        need = self._need()
        if need is not None:
            cur = s.current
            if len(cur) < 4:
                return Feedback("tableau", f"tableau: a coup starts with four cards; {len(cur)} dealt")
            pt, bt = self._totals()
            total = pt if need == "Player" else bt
            return Feedback(
                "tableau", f"tableau: {need} must draw on {total}: a third card is missing (type it, or undo)"
            )
        self._doing = f"Enter, closing coup {len(s.coups) + 1}"
        return self._close()

    def _close(self) -> Feedback:
        s = self._state
        before = self.snapshot()
        cur = s.current
        row = self._row()
        player = tuple(int(r) for r in row[:3] if r >= 0)
        banker = tuple(int(r) for r in row[3:] if r >= 0)
        seen = (s.burn_up is not None) + sum(len(c.player) + len(c.banker) for c in s.coups)
        coup = Coup(len(s.coups) + 1, player, banker, seen, self.left() + len(cur), before.composition)
        s.coups.append(coup)
        s.current = []
        s.complete = False
        after = self.snapshot()
        text = coup.describe()
        if after.positive:
            shown = ", ".join(f"{b} {after.expected_value[b] or 0:+.5f}" for b in after.positive)
            text += f"  >>> EDGE (per unit staked): {shown}"
        return Feedback("coup", text, after.positive)

    # ------------------------------------------------------------------ output
    def frame(self) -> pl.DataFrame:
        """One row per finished coup, with the columns of :func:`toolkit.records.replay_records`."""
        burn = self._state.burn_up
        rows = []
        for c in self._state.coups:
            snap = self._cache.get((c.unseen.by_rank, burn, c.left)) or self.panel.evaluate(c.unseen, burn, c.left)
            p, b = c.totals
            row: dict[str, object] = {
                "shoe": self.shoe,
                "coup": c.number,
                "cards_seen": c.seen,
                "cards_left": c.left,
                "cards_unseen": c.unseen.total,
                **{f"unseen_{r}": n for r, n in zip(RANKS, c.unseen.by_rank, strict=True)},
            }
            for system in self.panel.systems:
                row[f"rc_{system.name}"] = snap.running[system.name]
                row[f"tc_{system.name}"] = snap.true[system.name]
            row.update({f"ev_{name}": v for name, v in snap.expected_value.items()})
            row.update(
                player_hand=[RANKS[x] for x in c.player],
                banker_hand=[RANKS[x] for x in c.banker],
                player_total=p,
                banker_total=b,
                winner=c.winner,
                player_pair=c.player[0] == c.player[1],
                banker_pair=c.banker[0] == c.banker[1],
                natural=len(c.player) == 2 and len(c.banker) == 2 and max(p, b) >= 8,
            )
            rows.append(row)
        return pl.DataFrame(rows, infer_schema_length=None)

    def cards_frame(self) -> pl.DataFrame:
        """The session as the long card-level layout: ``shoe, position, card, role`` (finished coups only)."""
        s = self._state
        cards: list[tuple[int, str]] = []
        if s.burn_up is not None:
            cards.append((s.burn_up, "burn"))
        if not s.face_down_unseen and len(s.face_down) == self._face_down_count():
            cards += [(r, "burn") for r in s.face_down]
        for c in s.coups:
            order = [c.player[0], c.banker[0], c.player[1], c.banker[1]]
            roles = ["player", "banker"] * 2
            if len(c.player) > 2:
                order.append(c.player[2])
                roles.append("player")
            if len(c.banker) > 2:
                order.append(c.banker[2])
                roles.append("banker")
            cards += [(r, role) for r, role in zip(order, roles, strict=True)]
        return pl.DataFrame(
            {
                "shoe": [self.shoe] * len(cards),
                "position": list(range(1, len(cards) + 1)),
                "card": [RANKS[r] for r, _ in cards],
                "role": [role for _, role in cards],
            },
            schema={"shoe": pl.Int64, "position": pl.Int64, "card": pl.String, "role": pl.String},
        )

    def records(self) -> Records:
        """The session as checked card-level :class:`~toolkit.records.Records` (finished coups only).

        A face-down burn that was not completed (some cards typed, the rest not)
        is left out; :class:`ValueError` when there is nothing to record yet.
        """
        cards = self.cards_frame()
        if cards.height == 0:
            raise ValueError("nothing to record yet: no card was typed")
        return records_from_frame(cards, self.header, source="<tracked>", strict=True)


def _shown(key: str) -> str:
    """A key as a message shows it: Enter, quoted when printable, else by its character codes."""
    if key in ("\r", "\n"):
        return "Enter"
    return repr(key) if key.isprintable() else f"code {', '.join(str(ord(c)) for c in key)}"


HELP = (
    "keys: a/1 2-9 t/0 j q k = a card (the tracker puts it where the tableau does); "
    "? = face-down burn unseen; u/backspace = undo; Enter/. = the dealer ended the coup; x/Ctrl-D = save and quit"
)
