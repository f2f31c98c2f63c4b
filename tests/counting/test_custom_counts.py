"""Counts of one's own: tags from text, count systems from TOML files, and the share of hands a count bets."""

from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.counting import (
    CountSystem,
    count_strategy,
    custom_count,
    get_count_system,
    parse_tags,
    read_count_system,
    run_strategies,
)
from toolkit.dealing.dealer import Dealing

DRAGON_BY_VALUE = "0,0,0,0,-1,-1,-1,-1,2,2"
DRAGON_BY_RANK = "0,0,0,-1,-1,-1,-1,2,2,0,0,0,0"


def test_tags_by_value_and_by_rank_name_the_same_count() -> None:
    by_value = custom_count(DRAGON_BY_VALUE, bet="dragon7", threshold=4)
    by_rank = custom_count(DRAGON_BY_RANK, bet="dragon7", threshold=4)
    assert by_value == by_rank
    assert by_value.tags == get_count_system("dragon7").tags


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,2,3", "needs 10 integers by value"),
        ("", "got 0"),
        ("0,0,0,0,0,0,0,0,0,0,0", "got 11"),
        ("0,0,0,0,0,0,0,0,0,x", "tag 10 is not an integer: 'x'"),
        ("0,0,0,0,0,0,0,0,0,1.5", "tag 10 is not an integer: '1.5'"),
    ],
)
def test_bad_tags_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(ValueError, match="--tags") as err:
        parse_tags(text)
    assert message in str(err.value)


def test_a_count_file_gives_the_system_it_describes(tmp_path) -> None:
    path = tmp_path / "my_dragon.toml"
    path.write_text(
        'tags = [0, 0, 0, 0, -1, -1, -1, -1, 2, 2]\nbet = "dragon7"\nthreshold = 4\nrounding = "floor"\n'
        'count_burn_card = false\nsource = "a test"\n'
    )
    system = read_count_system(path)
    assert system == CountSystem(
        "my_dragon",
        get_count_system("dragon7").tags,
        bet="dragon7",
        threshold=4,
        rounding="floor",
        count_burn_card=False,
        source="a test",
    )


def test_a_count_file_with_a_table_of_tags(tmp_path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('name = "nines"\n[tags]\n"9" = 2\nT = -1\n')
    assert read_count_system(path).tags == (0, 0, 0, 0, 0, 0, 0, 0, 2, -1, 0, 0, 0)


@pytest.mark.parametrize(
    ("body", "located"),
    [
        ("tags = [1, 2]\n", "key 'tags' = [1, 2]"),
        ('tags = [0,0,0,0,0,0,0,0,0,"x"]\n', "key 'tags': every tag must be an integer, got 'x'"),
        ("tags = [0,0,0,0,0,0,0,0,0,0]\ndivisor = 'sideways'\n", "key 'divisor' = 'sideways'"),
        ("tags = [0,0,0,0,0,0,0,0,0,0]\nthreshold = 'high'\n", "key 'threshold' must be int or float, got 'high'"),
        ("tags = [0,0,0,0,0,0,0,0,0,0]\nbet = 'roulette'\n", "key 'bet' = 'roulette'"),
        ("tags = [0,0,0,0,0,0,0,0,0,0]\ncolour = 'red'\n", "unknown key 'colour'"),
        ("bet = 'tie'\n", "key 'tags' is missing"),
        ("tags = [0,0,0,0,0,0,0,0,0,0\n", "not valid TOML"),
    ],
)
def test_count_file_errors_name_the_file_the_key_and_the_value(tmp_path, body: str, located: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(ValueError, match=r"bad\.toml: ") as err:
        read_count_system(path)
    assert str(err.value).startswith(f"{path}: ")
    assert located in str(err.value)


def test_bet_frequency_is_the_share_of_hands_bet_with_an_interval_around_it() -> None:
    (res,) = run_strategies([count_strategy("dragon7", 2)], 120, Dealing(), seed=11, workers=1, progress=False)
    freq = res.bet_frequency
    assert freq.value == pytest.approx(res.totals.bets.sum() / res.totals.hands.sum())
    assert 0 < freq.low < freq.value < freq.high < 1
    # the interval is the delta-method one of the bets-per-shoe ratio: about 1.96 standard errors each side
    assert freq.high - freq.value == pytest.approx(1.96 * freq.se, rel=1e-3)
    assert math.isfinite(freq.se)
    assert freq.se > 0
    assert np.isclose(freq.value * res.hands_per_shoe.value, res.bets_per_shoe.value)
