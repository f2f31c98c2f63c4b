"""A catalogue of real side bets, as pay tables over the coup fields.

Each entry is the rule a casino prints, written as rows of conditions
(:func:`toolkit.bets.files.pay_table`): the first row that holds pays, else the
bet loses.  Bets that look only at the outcome classes (totals, winner, cards
per hand, rank pairs) are priced by the fast engine; the others (suits, which
card is the third card, ranks across hands) by :mod:`toolkit.bets.coup_bets`.
The published figures found for them, with their sources, are in
``data/reference/side_bets.csv`` and in ``baccarat reproduce``.

>>> [name for name, *_ in CATALOGUE][:3]
['perfect_pair', 'perfect_pair_v2', 'tiger_pair']
"""

from __future__ import annotations

from functools import cache

from toolkit.bets.files import BetSpec, pay_table

__all__ = ["CATALOGUE", "catalogue_names", "catalogue_spec"]

_BANKER_SIX = "winner = 'banker' AND banker_total = 6"
_SIX_CARD_TIE = "cards_dealt = 6 AND winner = 'tie' AND player_total >= 6"
_SAME_COLOUR = " AND ".join(
    f"{a}_colour = {b}_colour"
    for a, b in (
        ("player_1", "player_2"),
        ("player_2", "player_3"),
        ("player_3", "banker_1"),
        ("banker_1", "banker_2"),
        ("banker_2", "banker_3"),
    )
)
_NINE_OVER = (
    "(player_natural AND player_total = 9 AND banker_cards = 2 AND NOT banker_natural AND banker_total = {t})"
    " OR (banker_natural AND banker_total = 9 AND player_cards = 2 AND NOT player_natural AND player_total = {t})"
)

#: ``(name, rows, description)``; every bet loses when no row holds.
CATALOGUE: tuple[tuple[str, tuple[tuple[str, object], ...], str], ...] = (
    (
        "perfect_pair",
        (("player_suited_pair OR banker_suited_pair", 25),),
        "either hand's first two cards a suited pair (same rank and suit): 25:1",
    ),
    (
        "perfect_pair_v2",
        (("player_suited_pair AND banker_suited_pair", 250), ("player_suited_pair OR banker_suited_pair", 25)),
        "one hand a suited pair 25:1, both hands 250:1",
    ),
    (
        "tiger_pair",
        (
            ("player_pair AND banker_pair AND player_1_rank = banker_1_rank", 100),
            ("player_pair AND banker_pair", 20),
            ("player_pair OR banker_pair", 4),
        ),
        "one hand a pair 4:1; both hands pairs of different ranks 20:1, of the same rank 100:1",
    ),
    (
        "tiger",
        ((f"{_BANKER_SIX} AND banker_cards = 2", 12), (f"{_BANKER_SIX} AND banker_cards = 3", 20)),
        "Banker wins with 6: 12:1 with two cards, 20:1 with three",
    ),
    ("big_tiger", ((f"{_BANKER_SIX} AND banker_cards = 3", 50),), "Banker wins with a three-card 6: 50:1"),
    ("small_tiger", ((f"{_BANKER_SIX} AND banker_cards = 2", 22),), "Banker wins with a two-card 6: 22:1"),
    ("tiger_tie", (("winner = 'tie' AND player_total = 6", 45),), "a tie at 6: 45:1"),
    (
        "lucky6",
        ((f"{_BANKER_SIX} AND banker_cards = 2", 12), (f"{_BANKER_SIX} AND banker_cards = 3", 23)),
        "Banker wins with 6: 12:1 with two cards, 23:1 with three",
    ),
    (
        "three_giving_eight",
        (("banker_two_card_total = 3 AND player_3_value = 8", 200),),
        "Banker's two-card total is 3 and Player's third card an 8: 200:1",
    ),
    ("eighty_eight", (("player_total >= 8 AND banker_total >= 8", 20),), "both final totals 8 or 9: 20:1"),
    ("nine_over_seven", ((_NINE_OVER.format(t=7), 50),), "a natural 9 beats a two-card 7 (either side): 50:1"),
    (
        "bad_beat",
        (
            (
                "(player_natural AND player_total = 9 AND banker_natural AND banker_total = 8)"
                " OR (banker_natural AND banker_total = 9 AND player_natural AND player_total = 8)",
                50,
            ),
        ),
        "a natural 9 beats a natural 8 (either side): 50:1",
    ),
    (
        "super_tie",
        ((f"{_SIX_CARD_TIE} AND {_SAME_COLOUR}", 100), (_SIX_CARD_TIE, 25), ("winner = 'tie'", 7)),
        "a six-card tie of 6 to 9, all cards one colour 100:1, mixed 25:1; any other tie 7:1",
    ),
    ("four_cards", (("cards_dealt = 4", "3/2"),), "four cards dealt: 3:2"),
    ("five_cards", (("cards_dealt = 5", 2),), "five cards dealt: 2:1"),
    ("six_cards", (("cards_dealt = 6", 2),), "six cards dealt: 2:1"),
)


def catalogue_names() -> tuple[str, ...]:
    """The names of the catalogue's bets.

    Returns
    -------
    tuple of str
    """
    return tuple(name for name, *_ in CATALOGUE)


@cache
def catalogue_spec(name: str) -> BetSpec:
    """The catalogue bet ``name`` as a :class:`~toolkit.bets.files.BetSpec`; the error lists the names."""
    for bet, rows, description in CATALOGUE:
        if bet == name:
            return BetSpec(bet, pay_table(list(rows), -1, bet), description, rows, -1)
    raise ValueError(f"unknown catalogue bet {name!r}; the catalogue holds {', '.join(catalogue_names())}")
