"""Dealing (``toolkit.dealing.dealer``) against an independent per-card loop dealer, the exact engine and itself.

* The numba dealer and ``tests/loop_dealer.py`` (one Python step per card, the
  tableau written out from the rulebook) deal the same shuffled shoes into the
  same coups, for every burn procedure, cut card, last-hand rule and a fixed
  number of coups.
* Targeted cases: each burn procedure, the cut card coming out as the first
  card of a coup or during one, the bookkeeping of seen, left and unseen cards.
* The coup frame survives a Parquet round trip; the same seed gives the same
  shoes in one process, in two worker processes and on a Dask cluster.
* Simulated frequencies agree with the exact engine: each coup's event
  probability is computed exactly from the unseen composition before it.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from loop_dealer import VALUES, banker_draws, deal_shoe, player_draws
from polars.testing import assert_frame_equal
from threadpoolctl import threadpool_limits

from toolkit.bets.paytable import PayTable
from toolkit.bets.pricing import expected_values
from toolkit.coup.cards import RANKS
from toolkit.coup.outcome import outcome_frame
from toolkit.dealing.dealer import MAX_DECKS, Dealing, deal, deal_block, shuffled_shoes

CONFIGS = [
    Dealing(),
    Dealing(burn_ace=11),
    Dealing(burn="fixed", burn_cards=7),
    Dealing(burn="none"),
    Dealing(cut_card=16, last_hand="finish"),
    Dealing(cut_card=0),
    Dealing(cut_card=120),
    Dealing(last_hand="seven_cards"),
    Dealing(coups=30),
    Dealing(decks=1, cut_card=14),
    Dealing(decks=1, cut_card=45),  # the cut card can come out during the burn
    Dealing(decks=6, burn_ace=11, last_hand="finish"),
    Dealing(last_hand="two_more_if_first"),
    Dealing(cut_card=16, last_hand="two_more_if_first"),
    Dealing(decks=1, cut_card=45, last_hand="two_more_if_first"),  # the cut card out during the burn
]


def loop_deal(shoes: np.ndarray, d: Dealing) -> list:
    return [
        deal_shoe(row.tolist(), d.decks, d.burn, d.burn_ace, d.burn_cards, d.cut_card, d.last_hand, d.coups)
        for row in shoes
    ]


def shoe_with_first(card: int, decks: int = 8, seed: int = 0) -> np.ndarray:
    """A shuffled shoe whose first card is ``card`` (rank index)."""
    shoe = shuffled_shoes(1, decks, seed)[0]
    i = int(np.flatnonzero(shoe == card)[0])
    shoe[[0, i]] = shoe[[i, 0]]
    return shoe[None, :]


@pytest.mark.parametrize(
    "dealing", CONFIGS, ids=lambda d: f"{d.decks}d-{d.burn}{d.burn_ace}-{d.cut_card}-{d.last_hand}-{d.coups}"
)
def test_numba_dealer_matches_the_per_card_loop(dealing: Dealing) -> None:
    shoes = shuffled_shoes(60, dealing.decks, np.random.default_rng(dealing.cut_card * 7 + dealing.decks))
    dealt = deal_block(shoes, dealing)
    expected = loop_deal(shoes, dealing)
    rows = [(s, c) for s, shoe in enumerate(expected) for c in shoe.coups]
    assert len(dealt) == len(rows)
    for i, (s, c) in enumerate(rows):
        assert dealt.shoe[i] == s
        assert dealt.coup[i] == c.coup
        assert dealt.start[i] == c.start
        player = [int(x) for x in dealt.cards[i, 0:3] if x >= 0]
        banker = [int(x) for x in dealt.cards[i, 3:6] if x >= 0]
        assert (player, banker) == (c.player, c.banker), f"shoe {s} coup {c.coup}"
        assert (dealt.seen[i], dealt.left[i], dealt.unseen_count[i]) == (c.seen, c.left, c.unseen_count)
        assert dealt.unseen[i].tolist() == c.unseen
    for s, shoe in enumerate(expected):
        assert dealt.burn_card[s] == shoe.burn_card
        assert dealt.burned[s] == len(shoe.burned)
        assert dealt.burned_ranks[s].tolist() == np.bincount(shoe.burned, minlength=13).tolist()


def test_every_coup_obeys_the_tableau() -> None:
    dealt = deal(300, seed=21, progress=False)
    values = np.array(VALUES)
    for row in dealt.cards:
        p = [values[c] for c in row[0:3] if c >= 0]
        b = [values[c] for c in row[3:6] if c >= 0]
        pt, bt = sum(p[:2]) % 10, sum(b[:2]) % 10
        if pt >= 8 or bt >= 8:
            assert len(p) == len(b) == 2
            continue
        assert (len(p) == 3) == player_draws(pt)
        assert (len(b) == 3) == banker_draws(bt, p[2] if len(p) == 3 else None)


@pytest.mark.parametrize(
    ("card", "burn_ace", "burned"),
    [("K", 1, 10), ("T", 1, 10), ("A", 1, 1), ("A", 11, 11), ("7", 1, 7), ("2", 11, 2)],
)
def test_standard_burn(card: str, burn_ace: int, burned: int) -> None:
    shoe = shoe_with_first(RANKS.index(card))
    dealt = deal_block(shoe, Dealing(burn_ace=burn_ace))
    assert dealt.burn_card[0] == RANKS.index(card)
    assert dealt.burned[0] == burned
    assert dealt.start[0] == 1 + burned
    assert (dealt.seen[0], dealt.left[0], dealt.unseen_count[0]) == (1, 416 - 1 - burned, 416 - 1)
    expected_unseen = np.full(13, 32)
    expected_unseen[RANKS.index(card)] -= 1  # the exposed card is seen, the burned ones are not
    assert dealt.unseen[0].tolist() == expected_unseen.tolist()
    assert dealt.burned_ranks[0].tolist() == np.bincount(shoe[0, 1 : 1 + burned], minlength=13).tolist()
    frame = dealt.frame()
    assert frame["burn_card"][0] == card
    assert frame["burned"][0] == burned


def test_fixed_and_no_burn() -> None:
    shoe = shuffled_shoes(1, 8, 3)
    fixed = deal_block(shoe, Dealing(burn="fixed", burn_cards=5))
    assert (fixed.burn_card[0], fixed.burned[0], fixed.start[0], fixed.seen[0]) == (-1, 5, 5, 0)
    assert fixed.unseen_count[0] == 416
    assert fixed.left[0] == 411
    none = deal_block(shoe, Dealing(burn="none"))
    assert (none.burn_card[0], none.burned[0], none.start[0], none.seen[0], none.unseen_count[0]) == (-1, 0, 0, 0, 416)
    assert none.frame()["burn_card"][0] is None


def _last_coups(dealt):
    return np.flatnonzero(np.r_[dealt.shoe[1:] != dealt.shoe[:-1], True])


def test_cut_card_one_more_and_first_card_of_a_coup() -> None:
    d = Dealing(cut_card=14)
    shoes = shuffled_shoes(400, 8, 99)
    dealt = deal_block(shoes, d)
    cut_pos = 416 - 14
    first_card_cases = mid_coup_cases = 0
    for end in _last_coups(dealt):
        last_start = dealt.start[end]
        if last_start == cut_pos:  # the cut card came out as the first card of the last coup
            first_card_cases += 1
            assert dealt.start[end - 1] < cut_pos
        else:  # it came out during the coup before the last one, which is played as "one more"
            mid_coup_cases += 1
            previous_start = dealt.start[end - 1]
            assert previous_start < cut_pos < last_start
    # about one coup boundary in five falls on the cut card, so both cases occur in 400 shoes
    assert first_card_cases > 20
    assert mid_coup_cases > 200


def test_jacobson_two_more_if_first() -> None:
    """Jacobson: "If the cut-card is the first card dealt in a round, then two additional rounds are dealt"."""
    shoes = shuffled_shoes(400, 8, 99)
    jacobson = deal_block(shoes, Dealing(last_hand="two_more_if_first"))
    wizard = deal_block(shoes, Dealing())
    cut_pos = 416 - 14
    first_card_cases = 0
    for end, wizard_end in zip(_last_coups(jacobson), _last_coups(wizard), strict=True):
        # the cut card came out in the coup before the last (as its first card or during it)
        previous = jacobson.start[end - 1]
        previous_cards = int((jacobson.cards[end - 1] >= 0).sum())
        assert previous <= cut_pos < previous + previous_cards
        if previous == cut_pos:  # two rounds after the cut card: the one it opened and one more
            first_card_cases += 1
            assert jacobson.coup[end] == wizard.coup[wizard_end] + 1  # the Wizard of Odds rule stops a coup earlier
        else:
            assert jacobson.coup[end] == wizard.coup[wizard_end]
    assert first_card_cases > 20  # about one coup boundary in five falls on the cut card


def test_cut_card_finish_and_seven_cards_and_fixed_coups() -> None:
    shoes = shuffled_shoes(200, 8, 5)
    finish = deal_block(shoes, Dealing(cut_card=16, last_hand="finish"))
    cut_pos = 416 - 16
    for end in _last_coups(finish):
        assert finish.start[end] <= cut_pos
        assert finish.start[end] + (finish.cards[end] >= 0).sum() > cut_pos  # the cut card came out in it
    seven = deal_block(shoes, Dealing(last_hand="seven_cards"))
    for end in _last_coups(seven):
        assert seven.left[end] >= 7
        assert seven.left[end] - (seven.cards[end] >= 0).sum() < 7
    fixed = deal_block(shoes, Dealing(coups=40))
    assert np.all(np.bincount(fixed.shoe) == 40)


def test_seen_left_unseen_bookkeeping() -> None:
    shoes = shuffled_shoes(50, 8, 8)
    dealt = deal_block(shoes, Dealing())
    assert np.all(dealt.seen + dealt.unseen_count == 416)
    assert np.all(dealt.left == 416 - dealt.start)
    assert np.all(dealt.unseen.sum(axis=1) == dealt.unseen_count)
    assert np.all(dealt.unseen_count - dealt.left == dealt.burned[dealt.shoe])
    remaining = dealt.remaining()
    for i in range(0, len(dealt), 37):
        physical = np.bincount(shoes[dealt.shoe[i], dealt.start[i] :], minlength=13)
        assert remaining[i].tolist() == physical.tolist()
    frame = dealt.frame()
    assert (frame["cards_seen"] + frame["cards_unseen"] == 416).all()
    # cards seen before a coup = seen before the previous one + the cards of the previous one
    same_shoe = dealt.shoe[1:] == dealt.shoe[:-1]
    dealt_cards = (dealt.cards >= 0).sum(axis=1)
    assert np.all((dealt.seen[1:] - dealt.seen[:-1])[same_shoe] == dealt_cards[:-1][same_shoe])


def test_coup_frame_parquet_round_trip(tmp_path) -> None:
    frame = deal(20, seed=2, progress=False).frame(compositions=True)
    path = tmp_path / "coups.parquet"
    frame.write_parquet(path)
    back = pl.read_parquet(path)
    assert_frame_equal(back, frame)
    assert back.schema == frame.schema


def test_same_seed_same_shoes_with_workers() -> None:
    one = deal(50, seed=17, workers=1, block_size=20, progress=False)
    two = deal(50, seed=17, workers=2, block_size=20, progress=False)
    for name in ("shoe", "coup", "start", "cards", "unseen", "burn_card", "burned_ranks"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    other = deal(50, seed=18, workers=1, block_size=20, progress=False)
    assert not np.array_equal(one.cards[:100], other.cards[:100])


def test_every_seed_form_is_accepted() -> None:
    by_int = deal(6, seed=9, block_size=4, progress=False)
    by_sequence = deal(6, seed=np.random.SeedSequence(9), block_size=4, progress=False)
    assert np.array_equal(by_int.cards, by_sequence.cards)
    by_generator = deal(6, seed=np.random.default_rng(9), block_size=4, progress=False)
    again = deal(6, seed=np.random.default_rng(9), block_size=4, progress=False)
    assert np.array_equal(by_generator.cards, again.cards)
    # shuffled_shoes: an int seeds a fresh Generator, a Generator's stream continues
    gen = np.random.default_rng(4)
    first, second = shuffled_shoes(2, 1, seed=gen), shuffled_shoes(2, 1, seed=gen)
    assert np.array_equal(first, shuffled_shoes(2, 1, seed=4))
    assert not np.array_equal(first, second)
    with pytest.raises(TypeError, match="seed must be"):
        shuffled_shoes(1, 1, seed=2.5)


def _indicator(name: str, expr: pl.Expr) -> PayTable:
    """A 'bet' paying 1 when the event happens and 0 otherwise: its EV is the event's probability."""
    return PayTable.from_expr(name, pl.when(expr).then(1).otherwise(0))


EVENTS = {
    "banker wins": pl.col("winner") == "banker",
    "player wins": pl.col("winner") == "player",
    "tie": pl.col("winner") == "tie",
    "player natural": pl.col("player_natural"),
    "banker natural": pl.col("banker_natural"),
    "dragon 7": (pl.col("winner") == "banker") & (pl.col("banker_cards") == 3) & (pl.col("banker_total") == 7),
    "panda 8": (pl.col("winner") == "player") & (pl.col("player_cards") == 3) & (pl.col("player_total") == 8),
    "player pair": pl.col("player_pair"),
    "six cards": pl.col("cards_dealt") == 6,
}


def test_simulated_frequencies_agree_with_the_exact_engine() -> None:
    """Observed event counts against the sum of exact per-coup probabilities.

    Coups late in a shoe come from depleted shoes, so each coup's probability
    is computed exactly from the unseen composition before it (what the
    dealt cards are a random draw from, the face-down burns being unknown).
    ``observed - sum(p)`` is a sum of martingale differences with variance
    ``sum(p (1 - p))``: a z statistic.  Tolerance |z| < 4.5 per event: false
    failure rate about 6.8e-6 each, 6e-5 for the nine events together.
    """
    dealt = deal(2500, seed=2024, progress=False)
    classes = dealt.outcome_classes()
    frame = outcome_frame()
    bets = [_indicator(name, expr) for name, expr in EVENTS.items()]
    with threadpool_limits(1):  # one core: BLAS threads only fight over a shared machine
        p = expected_values(dealt.unseen, bets)
        full = expected_values(np.full((1, 13), 32), bets)[0]
    for j, (name, bet) in enumerate(zip(EVENTS, bets, strict=True)):
        hit = bet.payoff_array[classes]
        observed, expected = hit.sum(), p[:, j].sum()
        z = (observed - expected) / np.sqrt((p[:, j] * (1 - p[:, j])).sum())
        assert abs(z) < 4.5, f"{name}: observed {observed:.0f}, exact expectation {expected:.1f}, z = {z:.2f}"
        # the average over depleted shoes stays close to the full-shoe probability (a removal-effect-sized shift)
        assert abs(p[:, j].mean() - full[j]) < 0.02 * full[j] + 1e-3, name
    assert frame.height == 1600


def test_unseen_counts_do_not_wrap_at_8192_decks():
    from toolkit.dealing.dealer import Dealing, deal

    for decks in (8191, 8192, MAX_DECKS):
        dealt = deal(1, Dealing(decks=decks, coups=3), seed=1, progress=False)
        assert dealt.unseen.min() >= 0
        assert dealt.unseen.max() <= 4 * decks
        assert (dealt.unseen.sum(axis=1) == dealt.unseen_count).all()
        frame = dealt.frame(compositions=True)
        assert frame["unseen_A"].min() >= 0
        assert frame["unseen_A"].dtype == (pl.Int16 if decks < 8192 else pl.Int32)


def test_more_decks_than_the_limit_are_refused():
    from toolkit.dealing.dealer import Dealing

    with pytest.raises(ValueError, match="at most 10,000"):
        Dealing(decks=MAX_DECKS + 1)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: deal(2, "8 decks"), TypeError, "dealing must be a Dealing, got str '8 decks'"),
        (lambda: deal(2.5), TypeError, "number of shoes must be an integer, got 2.5"),
        (lambda: deal(2, seed=True), TypeError, "seed must be an integer"),
        (lambda: Dealing(cut_card=14.5), TypeError, r"Dealing.cut_card must be an integer, got 14\.5"),
        (lambda: Dealing(coups=2.5), TypeError, r"Dealing.coups must be an integer, got 2\.5"),
        (lambda: Dealing(burn="x"), ValueError, "Dealing.burn must be one of"),
    ],
)
def test_bad_python_calls_to_deal_name_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
