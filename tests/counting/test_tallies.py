"""Running and true counts over dealt shoes (``toolkit.counting.tallies``), against a card-by-card count.

Running counts are checked against a card-by-card count kept by the
independent loop dealer (``tests/loop_dealer.py``), on the same shuffled shoes;
the vectorised formula ``IRC + tags . (full - unseen)`` must agree at every coup.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from loop_dealer import deal_shoe

from toolkit.counting import CountSystem, PreCoup, count_arrays, counts, get_count_system, with_counts
from toolkit.coup.cards import RANKS
from toolkit.dealing.dealer import Dealing, deal, deal_block, shuffled_shoes


def loop_running_counts(shoes: np.ndarray, dealing: Dealing, system: CountSystem) -> list[int]:
    """Running count before every coup, card by card, from the loop dealer's record of cards seen."""
    tags = system.tags
    out = []
    for row in shoes:
        shoe = deal_shoe(row.tolist(), dealing.decks, dealing.burn, dealing.burn_ace, dealing.burn_cards)
        for coup in shoe.coups:
            rc = system.initial_count
            # cards seen before the coup: the exposed burn card, then every card of the earlier coups
            if shoe.burn_card >= 0 and system.count_burn_card:
                rc += tags[shoe.burn_card]
            for earlier in shoe.coups[: coup.coup - 1]:
                for card in earlier.player + earlier.banker:
                    rc += tags[card]
            out.append(rc)
    return out


@pytest.mark.parametrize("name", ["dragon7", "panda8", "how_dragon7"])
@pytest.mark.parametrize("count_burn", [True, False])
def test_running_count_matches_a_card_by_card_count(name: str, count_burn: bool) -> None:
    system = get_count_system(name).with_(count_burn_card=count_burn)
    dealing = Dealing()
    shoes = shuffled_shoes(8, 8, 31)
    dealt = deal_block(shoes, dealing)
    rc, _ = counts(system, dealt)
    assert rc.tolist() == loop_running_counts(shoes, dealing, system)


@pytest.mark.parametrize("divisor", ["decks_left", "unseen"])
@pytest.mark.parametrize("per", ["deck", "half_deck"])
@pytest.mark.parametrize("rounding", ["none", "floor", "truncate", "nearest"])
def test_true_count_conventions(divisor: str, per: str, rounding: str) -> None:
    system = get_count_system("panda8").with_(divisor=divisor, per=per, rounding=rounding)
    dealt = deal(5, seed=6, progress=False)
    rc, tc = counts(system, dealt)
    cards = dealt.left if divisor == "decks_left" else dealt.unseen_count
    raw = rc / (cards / (52 if per == "deck" else 26))
    expected = {
        "none": raw,
        "floor": np.floor(raw),
        "truncate": np.trunc(raw),
        "nearest": np.sign(raw) * np.floor(np.abs(raw) + 0.5),
    }[rounding]
    assert np.allclose(tc, expected)
    assert np.any(raw < 0)
    assert np.any(raw > 0)


def test_rounding_of_halves_and_negatives() -> None:
    unseen = np.array([[32] * 13] * 3)
    unseen[0, 7] -= 1  # one 8 seen: RC +2 (dragon7); 415 cards
    unseen[1, 3] -= 3  # three 4s: RC -3
    unseen[2, 3] -= 1  # one 4: RC -1
    base = get_count_system("dragon7").with_(count_burn_card=False)
    left = np.array([104, 104, 104])  # two decks left: TC = RC / 2
    tcs = {
        r: count_arrays(base.with_(rounding=r), unseen, 8, left=left)[1].tolist()
        for r in ("none", "floor", "truncate", "nearest")
    }
    assert tcs["none"] == [1.0, -1.5, -0.5]
    assert tcs["floor"] == [1.0, -2.0, -1.0]
    assert tcs["truncate"] == [1.0, -1.0, 0.0]  # -0.0 compares equal
    assert tcs["nearest"] == [1.0, -2.0, -1.0]  # halves away from zero


def test_counts_from_dealt_shoes_frames_and_plain_arrays_agree(tmp_path) -> None:
    dealt = deal(6, seed=12, progress=False)
    systems = ["dragon7", "panda8", get_count_system("thorp_natural9").with_(count_burn_card=False), "how_dragon7"]
    path = tmp_path / "coups.parquet"
    dealt.frame(compositions=True).write_parquet(path)
    frame = pl.read_parquet(path)
    for s in systems:
        rc, tc = counts(s, dealt)
        rc_f, tc_f = counts(s, frame)
        assert np.array_equal(rc, rc_f)
        assert np.allclose(tc, tc_f)
        # what a recorded-shoe reader passes: plain unseen arrays, the deck count, the burn card per coup
        burn = np.array([-1 if b is None else RANKS.index(b) for b in frame["burn_card"].to_list()])
        rc_a, tc_a = count_arrays(s, frame.select(f"unseen_{r}" for r in RANKS).to_numpy(), 8, burn, dealt.left)
        assert np.array_equal(rc, rc_a)
        assert np.allclose(tc, tc_a)
    columns = with_counts(frame, systems)
    assert [c for c in columns.columns if c.startswith(("rc_", "tc_"))] == [
        "rc_dragon7",
        "tc_dragon7",
        "rc_panda8",
        "tc_panda8",
        "rc_thorp_natural9",
        "tc_thorp_natural9",
        "rc_how_dragon7",
        "tc_how_dragon7",
    ]
    assert columns.height == frame.height
    from_dealt = with_counts(dealt, ["dragon7"])
    assert from_dealt["rc_dragon7"].to_list() == columns["rc_dragon7"].to_list()


def test_frame_without_compositions_is_refused() -> None:
    frame = deal(1, seed=1, progress=False).frame()
    with pytest.raises(ValueError, match="unseen_A"):
        counts("dragon7", frame)
    with pytest.raises(ValueError, match="decks="):
        counts("dragon7", deal(1, seed=1, progress=False).frame(compositions=True).drop("cards_seen"))
    with pytest.raises(ValueError, match=r"\(n, 13\)"):
        count_arrays("dragon7", np.zeros((3, 10)), 8)


def test_first_coup_counts_only_the_burn_card_and_how_starts_at_minus_32() -> None:
    dealt = deal(20, seed=9, progress=False)
    first = dealt.coup == 1
    burn = dealt.burn_card[dealt.shoe[first]]
    d7 = get_count_system("dragon7")
    rc, _ = counts(d7, dealt)
    assert rc[first].tolist() == [d7.tags[b] for b in burn]
    rc_no, _ = counts(d7.with_(count_burn_card=False), dealt)
    assert np.all(rc_no[first] == 0)
    how = get_count_system("how_dragon7")
    rc_how, _ = counts(how, dealt)
    assert rc_how[first].tolist() == [-32 + how.tags[b] for b in burn]


def test_pre_coup_state_of_dealt_shoes_and_of_their_frame_agree() -> None:
    dealt = deal(5, seed=13, progress=False)
    a = PreCoup.of(dealt)
    b = PreCoup.of(dealt.frame(compositions=True))
    # the frame numbers shoes from 1, the dealt arrays index them from 0
    assert np.array_equal(a.shoe + 1, b.shoe)
    for name in ("coup", "unseen", "left", "decks", "burn_card"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(PreCoup.of(dealt, decks=8).decks, a.decks)
    # a frame without cards_left or burn_card: the unseen cards, no exposed burn card
    bare = PreCoup.of(dealt.frame(compositions=True).drop("cards_left", "burn_card"))
    assert np.array_equal(bare.left, dealt.unseen.sum(axis=1))
    assert np.all(bare.burn_card == -1)
    with pytest.raises(TypeError, match="DealtShoes or a polars coup frame"):
        PreCoup.of(dealt.unseen)  # type: ignore[arg-type]
