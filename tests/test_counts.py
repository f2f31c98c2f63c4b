"""Count systems (``toolkit.counting.systems``): the published library, running and true counts, EOR counts, quality.

Running counts are checked against a card-by-card count kept by the
independent loop dealer (``tests/loop_dealer.py``), on the same shuffled shoes;
the vectorised formula ``IRC + tags . (full - unseen)`` must agree at every coup.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from loop_dealer import deal_shoe

from toolkit.cards import RANKS
from toolkit.counting.systems import (
    CountSystem,
    betting_correlation,
    count_arrays,
    count_quality,
    count_systems,
    counts,
    eor_count,
    get_count_system,
    with_counts,
)
from toolkit.dealing import Dealing, deal, deal_block, shuffled_shoes
from toolkit.reference import load_reference

A_TO_T = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")

#: Tags as published, A, 2, ..., 9, T (see data/reference/count_systems.csv and the sources there).
PUBLISHED_TAGS = {
    "dragon7": (0, 0, 0, -1, -1, -1, -1, 2, 2, 0),  # Jacobson, "Co-card counting the Dragon and Panda side bets"
    "panda8": (1, 1, -2, -2, -2, -1, -1, -2, 4, 1),  # same post, count credited to Wizard of Odds
    "thorp_natural9": (1, 1, 1, 1, 1, 1, 1, 1, -12, 1),  # Jacobson, "Card counting the Natural 9 and Natural 8"
    "ten_count": (0, 1, 1, 1, 1, 1, 1, 1, 1, -2),  # Jacobson, "Baccarat Tie bet flimflam"
    "how_dragon7": (1, 0, 0, -1, -1, -1, -1, 2, 2, 0),  # S. How, "Unbalanced Dragon 7 Count" (2012)
}
REFERENCE_NAMES = {
    "dragon7": "dragon7_jacobson",
    "panda8": "panda8_wizard",
    "thorp_natural9": "thorp_natural9",
    "ten_count": "ten_count_jstat",
    "how_dragon7": "dragon7_how_unbalanced",
}


@pytest.mark.parametrize("name", list(PUBLISHED_TAGS))
def test_library_systems_carry_the_published_tags(name: str) -> None:
    system = get_count_system(name)
    assert (*tuple(system.tags[:9]), system.tags[9]) == PUBLISHED_TAGS[name]
    assert system.tags[9:] == (PUBLISHED_TAGS[name][9],) * 4
    assert system.source
    row = load_reference("count_systems").filter(pl.col("system") == REFERENCE_NAMES[name]).row(0, named=True)
    assert tuple(int(row[f"tag_{r}"]) for r in A_TO_T) == PUBLISHED_TAGS[name]
    assert system.balanced == row["balanced"]
    assert system.initial_count == int(row["initial_running_count"])
    assert system.bet == row["bet"]


def test_library_conventions() -> None:
    d7 = get_count_system("dragon7")
    assert (d7.divisor, d7.per, d7.rounding, d7.count_burn_card, d7.trigger, d7.threshold) == (
        "decks_left",
        "deck",
        "none",
        True,
        "true",
        4.0,
    )
    how = get_count_system("how_dragon7")
    assert not how.balanced
    assert how.full_shoe_total(8) == 32  # so the initial -32 ends a fully counted shoe at 0
    assert (how.trigger, how.threshold, how.count_burn_card) == ("running", 0.0, True)
    assert get_count_system("panda8").threshold == 11.0
    assert get_count_system("thorp_natural9").threshold is None
    assert get_count_system("ten_count").threshold is None
    assert [s.name for s in count_systems()] == list(PUBLISHED_TAGS)


def test_unknown_system_lists_the_names() -> None:
    with pytest.raises(ValueError, match="known systems: dragon7, panda8, thorp_natural9, ten_count, how_dragon7"):
        get_count_system("hilo")
    with pytest.raises(TypeError):
        get_count_system(7)  # type: ignore[arg-type]


def test_tags_by_rank_by_value_and_mapping_agree() -> None:
    by_rank = CountSystem("a", (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0))
    by_value = CountSystem("b", (0, 0, 0, 0, -1, -1, -1, -1, 2, 2))  # value 0 first, as Composition.by_value
    mapping = CountSystem("c", {"4": -1, "5": -1, "6": -1, "7": -1, "8": 2, "9": 2})
    by_value_map = CountSystem("d", {4: -1, 5: -1, 6: -1, 7: -1, 8: 2, 9: 2})
    assert by_rank.tags == by_value.tags == mapping.tags == by_value_map.tags == get_count_system("dragon7").tags


@pytest.mark.parametrize(
    ("changes", "error", "match"),
    [
        ({"tags": (1, 2, 3)}, ValueError, "13 tags by rank"),
        ({"tags": (1.5,) * 13}, TypeError, "tag 1 must be an integer"),
        ({"name": "not an identifier"}, ValueError, "identifier"),
        ({"divisor": "decks"}, ValueError, "divisor must be one of decks_left, unseen"),
        ({"per": "quarter"}, ValueError, "per must be one of"),
        ({"rounding": "up"}, ValueError, "rounding must be one of"),
        ({"trigger": "both"}, ValueError, "trigger must be one of"),
        ({"bet": "roulette"}, ValueError, "unknown bet 'roulette'"),
        ({"threshold": float("nan")}, ValueError, "finite"),
        ({"threshold": "4"}, TypeError, "threshold must be a number"),
        ({"initial_count": 1.5}, TypeError, "initial_count"),
        ({"count_burn_card": "yes"}, TypeError, "count_burn_card"),
    ],
)
def test_count_system_validation_names_the_rule(changes: dict, error: type, match: str) -> None:
    fields = {"name": "mine", "tags": (0,) * 13, **changes}
    with pytest.raises(error, match=match):
        CountSystem(**fields)


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


def test_eor_count_at_two_levels_is_jacobsons_dragon7_count() -> None:
    # Jacobson's Dragon 7 tags are the Dragon 7 effects of removal scaled to +-2 and rounded
    derived = eor_count("dragon7", levels=2, threshold=4)
    assert derived.tags == get_count_system("dragon7").tags
    assert derived.bet == "dragon7"
    assert derived.threshold == 4.0
    finer = eor_count("dragon7", levels=6)
    assert max(abs(t) for t in finer.tags) == 6
    assert betting_correlation(finer, "dragon7") > betting_correlation("dragon7", "dragon7")
    with pytest.raises(ValueError, match="levels"):
        eor_count("dragon7", levels=0)


def test_betting_correlation_is_the_card_weighted_pearson_correlation() -> None:
    from toolkit.bets import get_bet
    from toolkit.eor import effect_of_removal

    table = effect_of_removal(8, bets=[get_bet("panda8")], by="rank")
    w, e = table["count"].to_numpy().astype(float), table["eor"].to_numpy()
    t = np.array(get_count_system("panda8").tags, dtype=float)
    tm, em = (w * t).sum() / w.sum(), (w * e).sum() / w.sum()
    by_definition = (w * (t - tm) * (e - em)).sum() / np.sqrt((w * (t - tm) ** 2).sum() * (w * (e - em) ** 2).sum())
    assert betting_correlation("panda8", "panda8") == pytest.approx(by_definition, abs=1e-12)
    assert betting_correlation("panda8", "panda8") > 0.99
    assert betting_correlation("dragon7", "dragon7") > 0.95
    assert betting_correlation("thorp_natural9", "natural9") > 0.99
    # the JSTAT ten count points the wrong way for the Tie (Jacobson: it does not beat the game)
    assert betting_correlation("ten_count", "tie") < 0
    # EOR by itself: correlation 1
    assert betting_correlation(eor_count("banker", levels=1000), "banker") == pytest.approx(1.0, abs=1e-5)


def test_count_quality_reports_r2_by_depth() -> None:
    dealt = deal(150, seed=3, progress=False)
    quality = count_quality(dealt, ["dragon7", "how_dragon7", "ten_count"])
    assert set(quality.columns) >= {"system", "bet", "count", "depth", "coups", "r2", "slope", "intercept"}
    overall = {r["system"]: r for r in quality.filter(pl.col("depth") == "all").iter_rows(named=True)}
    assert overall["dragon7"]["coups"] == len(dealt)
    assert overall["dragon7"]["slope"] > 0  # a higher true count means a better Dragon 7
    assert overall["how_dragon7"]["count"] == "running"
    assert overall["dragon7"]["r2"] > 0.6  # a linear count explains most of the exact edge (about 0.8)
    assert overall["ten_count"]["r2"] < 0.5
    assert overall["ten_count"]["slope"] < 0  # the Tie gets worse as the ten count rises
    assert quality["r2"].is_between(0, 1).all()
    by_depth = quality.filter((pl.col("system") == "dragon7") & (pl.col("depth") != "all"))
    assert by_depth["coups"].sum() == len(dealt)


def test_ten_count_never_makes_the_tie_favourable_on_average() -> None:
    """Jacobson, "Baccarat Tie bet flimflam": the ten count does not beat the Tie.

    Over every coup of 300 shoes, the exact Tie EV averaged within each band of
    ten-count true count stays negative (the Tie's edge is 14.4 %; the bands
    move it by at most a few points), at both ends of the count.
    """
    from toolkit.bets import get_bet
    from toolkit.engine import expected_values

    dealt = deal(300, seed=8, progress=False)
    _, tc = counts("ten_count", dealt)
    ev = expected_values(dealt.unseen, [get_bet("tie")])[:, 0]
    for lo, hi in ((-np.inf, -10), (-10, -2), (-2, 2), (2, 10), (10, np.inf)):
        band = (tc >= lo) & (tc < hi)
        assert band.sum() > 100
        assert ev[band].mean() < -0.05
