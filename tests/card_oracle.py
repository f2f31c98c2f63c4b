"""An independent, deliberately naive oracle for bets on suits, ranks and card positions.

It shares no code with the toolkit (it does not import ``toolkit``).  A coup
is dealt card by card from a shoe of 52 card types (``As, Ah, Ad, Ac, 2s, ...``),
every card drawn with probability ``count / remaining``, the tableau written
out again as if-statements; each leaf is a :class:`Deal`, the six positions'
cards (``None`` where no card is dealt).  :func:`expected_value` sums a bet's
payout (a plain Python function of a Deal) over all deals, in exact fractions.

Shoes must be small: the enumeration visits every ordered sequence of card
types (about ``types ** 6`` leaves).

>>> shoe = {"7s": 2, "7h": 1, "Ks": 3}
>>> float(sum(probabilities(shoe).values()))
1.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("s", "h", "d", "c")
CARDS = tuple(r + s for r in RANKS for s in SUITS)


def value(card: str) -> int:
    """Baccarat value: ace 1, pips at face value, ten and faces 0."""
    rank = card[0]
    if rank == "A":
        return 1
    if rank in "TJQK":
        return 0
    return int(rank)


class Deal(NamedTuple):
    """The cards of one coup by position (``None`` when the card is not dealt)."""

    player_1: str
    player_2: str
    player_3: str | None
    banker_1: str
    banker_2: str
    banker_3: str | None

    @property
    def player(self) -> list[str]:
        return [c for c in (self.player_1, self.player_2, self.player_3) if c is not None]

    @property
    def banker(self) -> list[str]:
        return [c for c in (self.banker_1, self.banker_2, self.banker_3) if c is not None]

    @property
    def player_total(self) -> int:
        return sum(value(c) for c in self.player) % 10

    @property
    def banker_total(self) -> int:
        return sum(value(c) for c in self.banker) % 10

    @property
    def winner(self) -> str:
        if self.player_total > self.banker_total:
            return "player"
        if self.banker_total > self.player_total:
            return "banker"
        return "tie"

    def natural(self, side: str) -> bool:
        first, second = (self.player_1, self.player_2) if side == "player" else (self.banker_1, self.banker_2)
        return (value(first) + value(second)) % 10 >= 8


def _player_draws(total: int) -> bool:
    return total <= 5


def _banker_draws(total: int, third: int | None) -> bool:
    if third is None:
        return total <= 5
    if total <= 2:
        return True
    if total == 3:
        return third != 8
    if total == 4:
        return 2 <= third <= 7
    if total == 5:
        return 4 <= third <= 7
    if total == 6:
        return third in (6, 7)
    return False


def probabilities(shoe: Mapping[str, int]) -> dict[Deal, Fraction]:
    """Exact probability of every deal from ``shoe`` (``{card: count}``, e.g. ``{"Qh": 2}``)."""
    counts = {c: n for c, n in shoe.items() if n > 0}
    if sum(counts.values()) < 6:
        raise ValueError("the oracle needs at least six cards")
    out: dict[Deal, Fraction] = {}

    def draw(p: Fraction):
        left = sum(counts.values())
        for card, n in list(counts.items()):
            if n:
                counts[card] -= 1
                yield card, p * Fraction(n, left)
                counts[card] += 1

    for p1, q1 in draw(Fraction(1)):
        for b1, q2 in draw(q1):
            for p2, q3 in draw(q2):
                for b2, q4 in draw(q3):
                    pt = (value(p1) + value(p2)) % 10
                    bt = (value(b1) + value(b2)) % 10
                    if pt >= 8 or bt >= 8:
                        key = Deal(p1, p2, None, b1, b2, None)
                        out[key] = out.get(key, Fraction(0)) + q4
                        continue
                    if _player_draws(pt):
                        for p3, q5 in draw(q4):
                            if _banker_draws(bt, value(p3)):
                                for b3, q6 in draw(q5):
                                    key = Deal(p1, p2, p3, b1, b2, b3)
                                    out[key] = out.get(key, Fraction(0)) + q6
                            else:
                                key = Deal(p1, p2, p3, b1, b2, None)
                                out[key] = out.get(key, Fraction(0)) + q5
                    elif _banker_draws(bt, None):
                        for b3, q5 in draw(q4):
                            key = Deal(p1, p2, None, b1, b2, b3)
                            out[key] = out.get(key, Fraction(0)) + q5
                    else:
                        key = Deal(p1, p2, None, b1, b2, None)
                        out[key] = out.get(key, Fraction(0)) + q4
    return out


def expected_value(payout: Callable[[Deal], object], shoe: Mapping[str, int]) -> Fraction:
    """Exact expected payout of a bet on ``shoe``."""
    return sum((Fraction(payout(d)) * p for d, p in _cached(tuple(sorted(shoe.items()))).items()), Fraction(0))


@lru_cache(maxsize=16)
def _cached(shoe: tuple[tuple[str, int], ...]) -> dict[Deal, Fraction]:
    return probabilities(dict(shoe))


# ---------------------------------------------------- the catalogue, written out again from the rule text
def suited_pair(a: str, b: str) -> bool:
    return a == b


def same_rank(a: str, b: str) -> bool:
    return a[0] == b[0]


def perfect_pair(d: Deal) -> int:
    """Either hand's first two cards are a suited pair: 25:1."""
    return 25 if suited_pair(d.player_1, d.player_2) or suited_pair(d.banker_1, d.banker_2) else -1


def perfect_pair_v2(d: Deal) -> int:
    """One hand a suited pair 25:1, both 250:1."""
    n = suited_pair(d.player_1, d.player_2) + suited_pair(d.banker_1, d.banker_2)
    return {0: -1, 1: 25, 2: 250}[n]


def tiger_pair(d: Deal) -> int:
    """One hand a pair 4:1; both pairs of different ranks 20:1; both of the same rank 100:1."""
    pp, bp = same_rank(d.player_1, d.player_2), same_rank(d.banker_1, d.banker_2)
    if pp and bp:
        return 100 if same_rank(d.player_1, d.banker_1) else 20
    return 4 if pp or bp else -1


def three_giving_eight(d: Deal) -> int:
    """Banker's two-card total is 3 and Player's third card is an 8: 200:1."""
    bt2 = (value(d.banker_1) + value(d.banker_2)) % 10
    return 200 if bt2 == 3 and d.player_3 is not None and value(d.player_3) == 8 else -1


def tiger(d: Deal) -> int:
    """Banker wins with 6: 12:1 with two cards, 20:1 with three."""
    if d.winner == "banker" and d.banker_total == 6:
        return 12 if d.banker_3 is None else 20
    return -1


def nine_over_seven(d: Deal) -> int:
    """A natural 9 beats a two-card 7 (either side): 50:1."""
    for me, other in (("player", "banker"), ("banker", "player")):
        mine = d.player_total if me == "player" else d.banker_total
        theirs = d.player_total if other == "player" else d.banker_total
        third = d.player_3 if other == "player" else d.banker_3
        if d.natural(me) and mine == 9 and theirs == 7 and third is None and not d.natural(other):
            return 50
    return -1


def red_first_card(d: Deal) -> int:
    """A positional bet on a suit: Player's first card a heart or a diamond, 1:1."""
    return 1 if d.player_1[1] in "hd" else -1


def banker_third_ace(d: Deal) -> int:
    """A positional bet on a rank: Banker's third card is an ace, 10:1."""
    return 10 if d.banker_3 is not None and d.banker_3[0] == "A" else -1


def _banker_six(d: Deal) -> bool:
    return d.winner == "banker" and d.banker_total == 6


def big_tiger(d: Deal) -> int:
    """Banker wins with a three-card 6: 50:1."""
    return 50 if _banker_six(d) and d.banker_3 is not None else -1


def small_tiger(d: Deal) -> int:
    """Banker wins with a two-card 6: 22:1."""
    return 22 if _banker_six(d) and d.banker_3 is None else -1


def tiger_tie(d: Deal) -> int:
    """A tie at 6: 45:1."""
    return 45 if d.winner == "tie" and d.player_total == 6 else -1


def lucky6(d: Deal) -> int:
    """Banker wins with 6: 12:1 with two cards, 23:1 with three."""
    if _banker_six(d):
        return 12 if d.banker_3 is None else 23
    return -1


def eighty_eight(d: Deal) -> int:
    """Both final totals are 8 or 9: 20:1."""
    return 20 if d.player_total >= 8 and d.banker_total >= 8 else -1


def bad_beat(d: Deal) -> int:
    """A natural 9 beats a natural 8 (either side): 50:1."""
    naturals = d.natural("player") and d.natural("banker")
    return 50 if naturals and {d.player_total, d.banker_total} == {8, 9} else -1


def cards_dealt(n: int, pays: object) -> Callable[[Deal], object]:
    """n cards dealt in all pays ``pays``."""
    return lambda d: pays if len(d.player) + len(d.banker) == n else -1


def super_tie(d: Deal) -> int:
    """A tie with three cards each and a total of 6 to 9: 100:1 when all six cards share a colour, else 25:1;
    any other tie 7:1."""
    if d.winner != "tie":
        return -1
    cards = d.player + d.banker
    if len(cards) == 6 and d.player_total >= 6:
        colours = {c[1] in "hd" for c in cards}
        return 100 if len(colours) == 1 else 25
    return 7


ORACLE_BETS: dict[str, Callable[[Deal], object]] = {
    "big_tiger": big_tiger,
    "small_tiger": small_tiger,
    "tiger_tie": tiger_tie,
    "lucky6": lucky6,
    "eighty_eight": eighty_eight,
    "bad_beat": bad_beat,
    "four_cards": cards_dealt(4, Fraction(3, 2)),
    "five_cards": cards_dealt(5, 2),
    "six_cards": cards_dealt(6, 2),
    "perfect_pair": perfect_pair,
    "perfect_pair_v2": perfect_pair_v2,
    "tiger_pair": tiger_pair,
    "three_giving_eight": three_giving_eight,
    "tiger": tiger,
    "nine_over_seven": nine_over_seven,
    "super_tie": super_tie,
}
