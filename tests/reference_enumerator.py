"""An independent, deliberately naive oracle for one punto banco coup.

This module is the slow, obviously correct truth the exact engine
(:mod:`toolkit.exact.engine`, :mod:`toolkit.exact._tables`) is tested against.  It shares
no code with the toolkit: it does not import ``toolkit`` at all.  Ranks,
values, the drawing rules and the pay rules of the standard bets are written
out again here, straight from the rulebook text.

The coup is a tree of chance nodes, in the style of OpenSpiel: at each node the
next card is drawn from the cards left, and every possible card comes with its
probability ``count / remaining``.  The deal is

1. card 1 to Player, card 2 to Banker, card 3 to Player, card 4 to Banker,
   drawn *by rank* (A, 2..9, T, J, Q, K), so that a pair is a real pair of
   ranks (a ten and a king are not a pair);
2. then the tableau, as explicit if-statements (see :func:`player_draws` and
   :func:`banker_draws`); third cards are drawn *by value* (0..9), which is
   all the tableau and the totals look at (this keeps 8-deck shoes usable).

Leaves are :class:`Coup` records: final totals, cards per hand, and whether
each hand's first two cards are a pair.  :func:`coup_distribution` returns
their probabilities, as exact :class:`~fractions.Fraction` or as floats.

>>> six_tens = [0] * 9 + [6, 0, 0, 0]  # 0-0, both hands a pair; both draw a ten
>>> [(tuple(coup), p) for coup, p in coup_distribution(six_tens).items()]
[((0, 0, 3, 3, True, True), Fraction(1, 1))]
>>> expected_value(tie_pays(8), six_tens)
Fraction(8, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

#: The 13 ranks, in the order the counts are given.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def card_value(rank: str) -> int:
    """Baccarat value of a rank: ace 1, pips at face value, ten and faces 0."""
    if rank == "A":
        return 1
    if rank in ("T", "J", "Q", "K"):
        return 0
    return int(rank)


class Coup(NamedTuple):
    """One finished coup, as the bets see it."""

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_pair: bool
    banker_pair: bool


# ----------------------------------------------------------------- the tableau
def is_natural(two_card_total: int) -> bool:
    """A two-card total of 8 or 9 is a natural."""
    return two_card_total in (8, 9)


def player_draws(player_total: int) -> bool:
    """Player draws on 0-5 and stands on 6-7 (8-9 are naturals and never get here)."""
    if player_total in (0, 1, 2, 3, 4, 5):
        return True
    if player_total in (6, 7):
        return False
    raise AssertionError(f"Player never acts on a natural ({player_total})")


def banker_draws(banker_total: int, player_third_card: int | None) -> bool:
    """Banker's rule; ``player_third_card`` is the value of Player's third card, ``None`` if Player stood.

    * If Player stood, Banker draws on 0-5 and stands on 6-7.
    * Otherwise Banker draws on 0-2 always; on 3 unless Player's third card is
      an 8; on 4 if it is 2-7; on 5 if it is 4-7; on 6 if it is 6-7; stands on 7.
    """
    if player_third_card is None:
        return banker_total <= 5
    if banker_total in (0, 1, 2):
        return True
    if banker_total == 3:
        return player_third_card != 8
    if banker_total == 4:
        return player_third_card in (2, 3, 4, 5, 6, 7)
    if banker_total == 5:
        return player_third_card in (4, 5, 6, 7)
    if banker_total == 6:
        return player_third_card in (6, 7)
    if banker_total == 7:
        return False
    raise AssertionError(f"Banker never acts on a natural ({banker_total})")


# ---------------------------------------------------------------- chance nodes
def _rank_counts(shoe: object) -> tuple[int, ...]:
    """13 counts by rank from a sequence of 13 ints, a ``{rank: count}`` mapping, or anything with ``by_rank``."""
    if hasattr(shoe, "by_rank"):
        shoe = shoe.by_rank
    if isinstance(shoe, Mapping):
        shoe = [shoe.get(rank, 0) for rank in RANKS]
    counts = tuple(int(c) for c in shoe)
    if len(counts) != 13 or min(counts) < 0:
        raise ValueError(f"the oracle needs 13 non-negative counts by rank, got {counts!r}")
    if sum(counts) < 6:
        raise ValueError("the oracle needs at least six cards")
    return counts


def _chances(counts: list[int]) -> list[tuple[int, int]]:
    """A chance node: ``(symbol, count)`` for every symbol (rank or value) still in the shoe.

    The card drawn is symbol ``s`` with probability ``count / remaining`` (see
    :func:`coup_distribution` for why the denominators are applied at the end).
    """
    return [(s, c) for s, c in enumerate(counts) if c > 0]


def _third_cards(pt: int, bt: int, values: list[int]):
    """Finish a coup with no natural from two-card totals ``pt``, ``bt`` and the value counts left.

    Yields ``(player_total, banker_total, player_cards, banker_cards, weight)``,
    ``weight`` the product of the counts of the third cards drawn.
    """
    if player_draws(pt):
        for v5, n5 in _chances(values):  # card 5: Player's third card
            final_pt = (pt + v5) % 10
            if banker_draws(bt, v5):
                values[v5] -= 1
                for v6, n6 in _chances(values):  # card 6: Banker's third card
                    yield final_pt, (bt + v6) % 10, 3, 3, n5 * n6
                values[v5] += 1
            else:
                yield final_pt, bt, 3, 2, n5
    elif banker_draws(bt, None):
        for v5, n5 in _chances(values):  # card 5: Banker's third card (Player stood)
            yield pt, (bt + v5) % 10, 2, 3, n5
    else:
        yield pt, bt, 2, 2, 1


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def coup_distribution(shoe: object, exact: bool = True) -> dict[Coup, object]:
    """Probability of every possible :class:`Coup` from ``shoe`` (13 counts by rank).

    ``exact=True`` gives :class:`~fractions.Fraction` probabilities, ``False`` floats.
    Outcomes that cannot happen are absent.

    The chance node of the d-th card (d = 0, 1, ...) draws a symbol with
    probability ``count / (N - d)``; the denominator is the same on every path,
    so a path of k cards has probability ``(product of its counts) / (N)_k``
    with ``(N)_k = N (N - 1) ... (N - k + 1)``.  The enumeration therefore adds
    up the integer products per coup and number of cards, and divides once.
    """
    counts = _rank_counts(shoe)
    weights = _coup_weights(counts)
    n = sum(counts)
    out: dict[Coup, object] = {}
    for (coup, k), weight in weights.items():
        p = Fraction(weight, _falling(n, k)) if exact else weight / _falling(n, k)
        out[Coup(*coup)] = out.get(Coup(*coup), 0) + p
    return out


@lru_cache(maxsize=256)
def _coup_weights(start: tuple[int, ...]) -> dict[tuple, int]:
    """``{(coup fields, cards dealt): sum over card sequences of the product of their counts}``."""
    values_of = [card_value(rank) for rank in RANKS]
    counts = list(start)
    out: dict[tuple, int] = {}
    for p1, n1 in _chances(counts):  # card 1: Player
        counts[p1] -= 1
        for b1, n2 in _chances(counts):  # card 2: Banker
            counts[b1] -= 1
            for p2, n3 in _chances(counts):  # card 3: Player
                counts[p2] -= 1
                for b2, n4 in _chances(counts):  # card 4: Banker
                    counts[b2] -= 1
                    weight = n1 * n2 * n3 * n4
                    player_pair = p1 == p2  # same RANK
                    banker_pair = b1 == b2
                    pt = (values_of[p1] + values_of[p2]) % 10
                    bt = (values_of[b1] + values_of[b2]) % 10
                    if is_natural(pt) or is_natural(bt):
                        leaves = [(pt, bt, 2, 2, 1)]  # a natural: nobody draws
                    else:
                        values = [0] * 10
                        for rank, count in enumerate(counts):
                            values[values_of[rank]] += count
                        leaves = _third_cards(pt, bt, values)
                    for final_pt, final_bt, pc, bc, rest in leaves:
                        key = ((final_pt, final_bt, pc, bc, player_pair, banker_pair), pc + bc)
                        out[key] = out.get(key, 0) + weight * rest
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return out


def expected_value(payout: Callable[[Coup], object], shoe: object, exact: bool = True) -> object:
    """``sum P(coup) * payout(coup)`` over every coup; ``payout`` returns units won per unit staked (-1: lost)."""
    dist = coup_distribution(shoe, exact)
    total: object = Fraction(0) if exact else 0.0
    for coup, p in dist.items():
        pays = payout(coup)
        total += p * (Fraction(pays) if exact else float(pays))
    return total


def moments(payout: Callable[[Coup], object], shoe: object, exact: bool = True) -> tuple[object, object]:
    """``(expected value, variance)`` of a bet's result."""
    dist = coup_distribution(shoe, exact)
    conv = Fraction if exact else float
    mean = sum((p * conv(payout(c)) for c, p in dist.items()), conv(0))
    second = sum((p * conv(payout(c)) ** 2 for c, p in dist.items()), conv(0))
    return mean, second - mean * mean


# ------------------------------------------------- the standard bets, re-written
# Each function is a pay rule as published: units won per unit staked, -1 a loss, 0 a push.
def _winner(c: Coup) -> str:
    if c.player_total > c.banker_total:
        return "player"
    if c.banker_total > c.player_total:
        return "banker"
    return "tie"


def _natural(c: Coup, side: str) -> bool:
    cards, total = (c.player_cards, c.player_total) if side == "player" else (c.banker_cards, c.banker_total)
    return cards == 2 and total in (8, 9)


def banker_pays(commission: Fraction) -> Callable[[Coup], object]:
    """Banker: a win pays 1 less the commission, a tie pushes."""

    def pay(c: Coup) -> object:
        return {"banker": 1 - commission, "tie": 0, "player": -1}[_winner(c)]

    return pay


def player_bet(c: Coup) -> object:
    """Player: a win pays 1:1, a tie pushes."""
    return {"player": 1, "tie": 0, "banker": -1}[_winner(c)]


def tie_pays(odds: int) -> Callable[[Coup], object]:
    """Tie: pays ``odds``:1, anything else loses."""
    return lambda c: odds if _winner(c) == "tie" else -1


def super6(c: Coup) -> object:
    """Super 6 (no commission): a Banker win pays 1, but only 1/2 when Banker wins with 6; a tie pushes."""
    if _winner(c) == "tie":
        return 0
    if _winner(c) == "player":
        return -1
    return Fraction(1, 2) if c.banker_total == 6 else 1


def ez_banker(c: Coup) -> object:
    """EZ Baccarat Banker (no commission): a Banker win with a three-card 7 pushes; a tie pushes."""
    if _winner(c) == "tie":
        return 0
    if _winner(c) == "player":
        return -1
    return 0 if (c.banker_cards == 3 and c.banker_total == 7) else 1


def dragon7(c: Coup) -> object:
    """Dragon 7: Banker wins with a three-card total of 7, pays 40:1."""
    return 40 if _winner(c) == "banker" and c.banker_cards == 3 and c.banker_total == 7 else -1


def panda8(c: Coup) -> object:
    """Panda 8: Player wins with a three-card total of 8, pays 25:1."""
    return 25 if _winner(c) == "player" and c.player_cards == 3 and c.player_total == 8 else -1


def player_pair(c: Coup) -> object:
    """Player Pair: Player's first two cards are the same rank, 11:1."""
    return 11 if c.player_pair else -1


def banker_pair(c: Coup) -> object:
    """Banker Pair: Banker's first two cards are the same rank, 11:1."""
    return 11 if c.banker_pair else -1


def either_pair(c: Coup) -> object:
    """Either Pair: either hand's first two cards are a pair, 5:1."""
    return 5 if (c.player_pair or c.banker_pair) else -1


def natural_bet(total: int) -> Callable[[Coup], object]:
    """Thorp and Walden's natural bets: Banker's first two cards total ``total`` (8 or 9), 9:1."""
    return lambda c: 9 if (c.banker_cards == 2 and c.banker_total == total) else -1


def dragon_bonus(side: str) -> Callable[[Coup], object]:
    """Dragon Bonus on ``side``: a non-natural win by 9/8/7/6/5/4 pays 30/10/6/4/2/1 (by 3 or less loses);
    a natural win pays 1; a tie of two naturals pushes; anything else loses."""
    by_margin = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}

    def pay(c: Coup) -> object:
        if _winner(c) == "tie":
            return 0 if (_natural(c, "player") and _natural(c, "banker")) else -1
        if _winner(c) != side:
            return -1
        if _natural(c, side):
            return 1
        return by_margin.get(abs(c.player_total - c.banker_total), -1)

    return pay


def big(c: Coup) -> object:
    """Big: five or six cards dealt, pays 0.54:1."""
    return Fraction(54, 100) if c.player_cards + c.banker_cards >= 5 else -1


def small(c: Coup) -> object:
    """Small: four cards dealt, pays 1.5:1."""
    return Fraction(3, 2) if c.player_cards + c.banker_cards == 4 else -1


def standard_payouts(commission: Fraction = Fraction(1, 20), tie_odds: int = 8) -> dict[str, Callable[[Coup], object]]:
    """The standard panel by name, in the toolkit's order (names only are shared with the toolkit)."""
    return {
        "banker": banker_pays(commission),
        "player": player_bet,
        "tie": tie_pays(tie_odds),
        "tie_9to1": tie_pays(9),
        "super6_banker": super6,
        "ez_banker": ez_banker,
        "dragon7": dragon7,
        "panda8": panda8,
        "player_pair": player_pair,
        "banker_pair": banker_pair,
        "either_pair": either_pair,
        "natural8": natural_bet(8),
        "natural9": natural_bet(9),
        "dragon_bonus_player": dragon_bonus("player"),
        "dragon_bonus_banker": dragon_bonus("banker"),
        "big": big,
        "small": small,
    }


#: Bets whose payout looks at the pair flags.
PAIR_BETS = ("player_pair", "banker_pair", "either_pair")


def as_mapping(dist: Mapping[Coup, object]) -> dict[tuple, object]:
    """The distribution keyed by plain tuples (handy for comparisons)."""
    return {tuple(c): p for c, p in dist.items()}


def rank_counts(shoe: object) -> tuple[int, ...]:
    """Public form of the oracle's input normalisation (13 counts by rank)."""
    return _rank_counts(shoe)


def full_shoe(decks: int) -> tuple[int, ...]:
    """13 counts by rank of ``decks`` fresh decks."""
    return (4 * decks,) * 13


__all__: Sequence[str] = (
    "PAIR_BETS",
    "RANKS",
    "Coup",
    "as_mapping",
    "banker_draws",
    "card_value",
    "coup_distribution",
    "expected_value",
    "full_shoe",
    "moments",
    "player_draws",
    "rank_counts",
    "standard_payouts",
)
