"""Rules files (``toolkit.coup.rules_file``) against tableaux written in Python, and every bad file refused in one line.

Each shipped file in ``data/rules`` is read and compared with a :class:`Tableau` built here
cell by cell from the rule as words (a function of Banker's total and Player's third card),
then the exact distribution of the 1,600 outcome classes under each, on a one-deck and an
eight-deck shoe, exactly (fractions).  Baccarat Gold's rule, as written here: "Banker never
draws on 6 or 7 after Player draws and draws on 4-5 only against a Player third card of 3-7".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from toolkit.coup.rules import PLAYER_STOOD, PUNTO_BANCO, Tableau
from toolkit.coup.rules_file import MAX_RULES_FILE_BYTES, read_rules_file, rules_file_text
from toolkit.exact.engine import class_probabilities

RULES = Path(__file__).resolve().parents[1] / "data" / "rules"


def punto_banco(total: int, third: int | None) -> bool:
    """The printed punto banco tableau, as words."""
    if third is None:
        return total <= 5
    return (
        total <= 2
        or (total == 3 and third != 8)
        or (total == 4 and 2 <= third <= 7)
        or (total == 5 and 4 <= third <= 7)
        or (total == 6 and third in (6, 7))
    )


def gold(total: int, third: int | None) -> bool:
    """Baccarat Gold: after Player draws, never on 6 or 7; on 4 and 5 only against a 3..7; else punto banco."""
    if third is not None and total in (4, 5):
        return 3 <= third <= 7
    if third is not None and total in (6, 7):
        return False
    return punto_banco(total, third)


def three_v_eight(total: int, third: int | None) -> bool:
    """A house variant: Banker also draws on 3 against an 8."""
    return (total == 3 and third == 8) or punto_banco(total, third)


def tableau_of(rule: Callable[[int, int | None], bool], name: str) -> Tableau:
    banker = tuple((*tuple(rule(t, c) for c in range(10)), rule(t, None)) for t in range(10))
    return Tableau(player=tuple(t <= 5 for t in range(10)), banker=banker, name=name)


VARIANTS = [
    ("punto_banco.toml", punto_banco, "punto banco", 0.05, 8),
    ("baccarat_gold.toml", gold, "baccarat gold", None, None),
    ("banker_draws_3_v_8.toml", three_v_eight, "banker draws on 3 against an 8", 0.04, 9),
]


@pytest.mark.parametrize(("file", "rule", "name", "commission", "tie_pays"), VARIANTS)
def test_shipped_rules_files_are_their_tableaux_over_every_outcome_class(
    file: str, rule: Callable, name: str, commission: float | None, tie_pays: int | None
) -> None:
    read = read_rules_file(RULES / file)
    expected = tableau_of(rule, name)
    assert read.name == name
    assert read.tableau == expected
    assert (read.commission, read.tie_pays) == (
        None if commission is None else pytest.approx(commission),
        tie_pays,
    )
    for shoe in (1, 8):
        assert class_probabilities(shoe, read.tableau, exact=True) == class_probabilities(shoe, expected, exact=True)


def test_a_variant_changes_the_game_and_the_file_round_trips(tmp_path: Path) -> None:
    gold_tableau = read_rules_file(RULES / "baccarat_gold.toml").tableau
    assert class_probabilities(1, gold_tableau, exact=True) != class_probabilities(1, PUNTO_BANCO, exact=True)
    # an EZ-like table: the punto banco tableau without commission
    path = tmp_path / "ez.toml"
    path.write_text(rules_file_text(Tableau(name="ez like"), commission=0))
    ez = read_rules_file(path)
    assert ez.tableau == Tableau(name="ez like")
    assert ez.rules(decks=6).commission == 0
    assert ez.rules(decks=6).decks == 6
    assert ez.rules(tie_pays=9).tie_pays == 9  # not set by the file: the option's value
    # every single cell written and read back
    for total in range(8):
        for third in [*range(10), None]:
            flipped = PUNTO_BANCO.with_banker(total, third, not PUNTO_BANCO.banker_draws(total, third), name="x")
            path.write_text(rules_file_text(flipped))
            assert read_rules_file(path).tableau == flipped


GOOD = rules_file_text(read_rules_file(RULES / "baccarat_gold.toml").tableau)


def _edit(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


BAD = [
    (_edit('"4" = [3, 4, 5, 6, 7, "stood"]\n', ""), r"'banker_draws_on\.4' is missing; give every total"),
    (_edit('"8" = []', '"8" = [1]'), r"line 13: 'banker_draws_on\.8': Banker draws on 8, a natural"),
    (_edit("[0, 1, 2, 3, 4, 5]", "[0, 1, 2, 3, 4, 5, 9]"), r"line 2: 'player_draws_on': Player draws on 9, a natural"),
    (_edit('"3" = [', '"3" = [10, '), r"line 8: 'banker_draws_on\.3': a Player third-card value is an integer 0\.\.9"),
    (_edit('"3" = [', '"3" = ["stand", '), r"'banker_draws_on\.3': a Player third-card value .* got 'stand'"),
    (_edit('"3" = [', '"3" = [true, '), r"'banker_draws_on\.3': a Player third-card value .* got True"),
    (_edit('"3" = [', '"3" = [0, '), r"'banker_draws_on\.3': 0 is listed twice"),
    (_edit('"3" = [', '"10" = []\n"3" = ['), r"line 8: 'banker_draws_on' key '10' is not a total"),
    (_edit("[0, 1, 2, 3, 4, 5]", "[0, 1, 2, 3, 4, 5.5]"), r"'player_draws_on': a two-card total is an integer"),
    (_edit("[0, 1, 2, 3, 4, 5]", '"0-5"'), r"'player_draws_on': expected a list"),
    (GOOD.replace('name = "baccarat gold"\n', ""), r"'name' is missing"),
    (GOOD.replace('name = "baccarat gold"', 'name = ""'), r"line 1: 'name' must be a non-empty string"),
    (GOOD.replace('name = "baccarat gold"', 'name = "gold"\ncommision = 0.05'), r"line 2: unknown key 'commision'"),
    (GOOD.replace('name = "baccarat gold"', 'name = "gold"\ncommission = 1.5'), r"line 2: 'commission' must be in"),
    (GOOD.replace('name = "baccarat gold"', 'name = "gold"\ncommission = "5%"'), r"'commission': expected a number"),
    (GOOD.replace('name = "baccarat gold"', 'name = "gold"\ntie_pays = -8'), r"line 2: 'tie_pays': must be positive"),
    (GOOD.split("[banker")[0] + "banker_draws_on = 3\n", r"line 4: 'banker_draws_on' must be a table"),
    (GOOD.replace("= [0, 1, 2, 3, 4, 5]", "= [0, 1, 2, "), r"not valid TOML: .*at line 4"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_each_bad_rules_file_is_refused_in_one_located_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as err:
        read_rules_file(path)
    assert str(err.value).startswith(f"{path}")
    assert "\n" not in str(err.value)


def test_what_is_not_a_small_text_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_RULES_FILE_BYTES + 1))
    with pytest.raises(ValueError, match="a rules file holds at most 64 KiB"):
        read_rules_file(big)
    with pytest.raises(ValueError, match="a rules file must be a regular file; this is a folder"):
        read_rules_file(tmp_path)
    with pytest.raises(ValueError, match="cannot read the rules file"):
        read_rules_file(tmp_path / "missing.toml")
    latin = tmp_path / "latin.toml"
    latin.write_bytes(GOOD.replace("baccarat gold", "or\xe9").encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8 text"):
        read_rules_file(latin)


def test_stood_column_is_the_tableau_column() -> None:
    assert PLAYER_STOOD == 10
    assert tableau_of(punto_banco, "punto banco") == PUNTO_BANCO
