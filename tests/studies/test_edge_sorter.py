"""The edge sorter at the table: dealt shoes replayed coup by coup with rulebook payouts; the fresh shoe's gain."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from reference_enumerator import Coup, standard_payouts

from toolkit import information_edge
from toolkit.dealing import Dealing, deal
from toolkit.studies import edge_sorter_shoes, edge_sorter_summary

VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)  # rank index -> value (A, 2..9, T, J, Q, K)
PAYS = standard_payouts()


def _replay(shoes: int, seed: int, dealing: Dealing) -> list[float]:
    """Each shoe's win, recomputed coup by coup from the dealt cards with the rulebook's payouts."""
    strategy = information_edge(dealing.decks, "6789", "1-4", exact=True)
    best = dict(strategy.patterns.select("pattern", "best_bet").rows())
    dealt = deal(shoes, dealing, seed=seed, workers=1, progress=False)
    wins = [0.0] * shoes
    for shoe, cards in zip(dealt.shoe - dealt.first_shoe, dealt.cards, strict=True):
        p = [VALUES[c] for c in cards[:3] if c >= 0]
        b = [VALUES[c] for c in cards[3:] if c >= 0]
        letter = lambda c: "H" if VALUES[c] in (6, 7, 8, 9) else "L"  # noqa: E731
        key = "".join(sorted(letter(c) for c in cards[:2])) + "/" + "".join(sorted(letter(c) for c in cards[3:5]))
        bet = best[key]
        if bet is not None:
            coup = Coup(sum(p) % 10, sum(b) % 10, len(p), len(b), cards[0] == cards[1], cards[3] == cards[4])
            wins[int(shoe)] += float(Fraction(PAYS[bet](coup)))
    return wins


def test_each_shoes_win_equals_a_coup_by_coup_replay() -> None:
    dealing = Dealing(decks=2, cut_card=14)
    table = edge_sorter_shoes(30, seed=5, dealing=dealing)
    assert table["win"].to_list() == pytest.approx(_replay(30, 5, dealing), abs=1e-9)


def test_win_per_coup_of_dealt_shoes_is_the_fresh_shoe_gain() -> None:
    """Within 4 standard errors (over 300 shoes; a false failure about once in 16,000 runs, normal approximation);
    any depletion bias of a fixed strategy under a cut card is far below that error."""
    table = edge_sorter_shoes(300, seed=2012)
    summary = edge_sorter_summary(table)
    gain = information_edge(8, "6789", "1-4").gain
    assert abs(summary["win_per_coup"] - gain) < 4 * summary["win_per_coup_se"]
    share = 1 - information_edge(8, "6789", "1-4").share_no_bet
    assert summary["share_coups_bet"] == pytest.approx(share, abs=0.02)  # 24,000 coups: SE about 0.003
    assert np.isfinite(summary["win_per_shoe_se"])


def test_positions_beyond_the_first_four_are_refused() -> None:
    with pytest.raises(ValueError, match="observes positions 1-4 only"):
        edge_sorter_shoes(2, positions="1-5", seed=1)
