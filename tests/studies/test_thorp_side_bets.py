"""Side bets in the Thorp study: any catalogue or file bet, priced before every coup as the counting harness prices it.

The study's expectations are checked against the slow exact paths: the card-by-card oracle
(``tests/card_oracle.py``) on the deepest coups of shoes dealt to the end, and the exact integer path of
:func:`toolkit.bets.paytable.bet_stats` for a bet on suits (priced suit-blind: the shoes are dealt by rank).
"""

from __future__ import annotations

from fractions import Fraction

import card_oracle as oracle
import numpy as np
import pytest

from toolkit.bets.paytable import bet_stats, get_bet
from toolkit.counting.tallies import PreCoup
from toolkit.coup.cards import RANKS
from toolkit.dealing.dealer import Dealing, deal_block, shuffled_shoes
from toolkit.studies import ThorpStudy, run_study
from toolkit.studies.thorp.design import deal_to_end
from toolkit.studies.thorp.tally import block_spec, tally_block

SIDE_BETS = ("three_giving_eight", "tiger_pair", "perfect_pair")
#: One deck, no burn, dealt to the end: the last coups leave six to eleven cards, small enough for the oracle.
SMALL_SHOE = deal_to_end(Dealing(decks=1, burn="none"))


@pytest.fixture(scope="module")
def dealt_block():
    """A block of four one-deck shoes: the study's per-coup records and the same coups dealt again."""
    study = ThorpStudy(n_shoes=4, seed=21, dealing=SMALL_SHOE, bets=("banker", *SIDE_BETS), block_size=4)
    block = study.blocks()[0]
    output = tally_block(block, block_spec(study), records=True)
    dealt = deal_block(shuffled_shoes(block.n_shoes, SMALL_SHOE.decks, block.rng()), SMALL_SHOE, block.first_shoe)
    return study, output.records, dealt


def _rank_shoe(unseen: np.ndarray) -> dict[str, int]:
    """An oracle shoe holding the unseen ranks, every card a spade (the bets checked name no suit)."""
    return {f"{rank}s": int(n) for rank, n in zip(RANKS, unseen, strict=True) if n}


def test_side_bets_match_the_card_oracle_on_the_deepest_coups(dealt_block) -> None:
    _, records, dealt = dealt_block
    assert len(records) == len(dealt)
    deepest = np.argsort(dealt.unseen.sum(axis=1), kind="stable")[:3]
    assert dealt.unseen[deepest].sum(axis=1).max() <= 11
    payouts = {"three_giving_eight": oracle.three_giving_eight, "tiger_pair": oracle.tiger_pair}
    for i in deepest.tolist():
        shoe = _rank_shoe(dealt.unseen[i])
        for name, payout in payouts.items():
            exact = oracle.expected_value(payout, shoe)
            assert records[f"ev_{name}"][i] == pytest.approx(float(exact), abs=1e-12), (name, i)


def test_a_bet_on_suits_is_priced_suit_blind_from_the_decks_dealt(dealt_block) -> None:
    """Perfect Pairs in shoes dealt by rank: every suit of a rank weighs the same, from the dealing's decks."""
    _, records, dealt = dealt_block
    bet = get_bet("perfect_pair")
    for i in (0, len(dealt) // 2, len(dealt) - 1):
        exact = bet_stats(bet, tuple(int(x) for x in dealt.unseen[i]), decks=SMALL_SHOE.decks).exact_expected_value
        assert isinstance(exact, Fraction)
        assert records["ev_perfect_pair"][i] == pytest.approx(float(exact), abs=1e-12), i


def test_the_study_prices_every_bet_as_the_counting_harness_does(dealt_block) -> None:
    """One dispatcher: the study's expectations are the harness's, bit for bit, for every bet and coup."""
    _, records, dealt = dealt_block
    info = PreCoup.from_dealt(dealt)
    for name in ("banker", *SIDE_BETS):
        assert np.array_equal(records[f"ev_{name}"].to_numpy(), info.expected_values(get_bet(name))), name


def test_a_study_of_side_bets_reports_them_beside_the_panel(dealt_block) -> None:
    study, _, _ = dealt_block
    result = run_study(study, progress=False)
    claims = result.claims()
    assert set(SIDE_BETS) <= set(claims["bet"].to_list())
    full = result.full_shoe_ev[list(study.bet_names).index("three_giving_eight")]
    assert full == pytest.approx(float(bet_stats("three_giving_eight", 1).exact_expected_value), abs=1e-12)
    assert (
        ThorpStudy(bets=("perfect_pair",)).fingerprint()["bets"]["perfect_pair"]
        != (ThorpStudy(bets=("perfect_pair_v2",)).fingerprint()["bets"]["perfect_pair_v2"])
    )


def test_a_side_bet_arriving_with_every_block_compiles_once() -> None:
    """Workers receive the bets anew with each block (pickled, without their tables): equal bets share one compile."""
    import pickle

    bet = get_bet("three_giving_eight")
    first, second = pickle.loads(pickle.dumps(bet)), pickle.loads(pickle.dumps(bet))
    table = first.compiled()
    assert len(pickle.dumps(first)) < 2_000  # the tables do not travel
    assert second.compiled() is table
