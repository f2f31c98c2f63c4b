"""A bet's conditions: the allow-listed grammar, the type checks, and a grammar fuzzer against polars' SQL.

Conditions come from strangers' bet files, so nothing in one may read a file or reach a table
function: every forbidden node is refused before anything is built, with its column.  Valid
conditions are checked against an independent reader, polars' own SQL engine, on a frame of
random coup rows: the two must agree row for row (nulls included).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.bets.conditions import MAX_CONDITION_CHARS, ConditionError, condition
from toolkit.bets.fields import FIELDS, POSITIONS
from toolkit.bets.paytable import bet_from_file
from toolkit.coup.cards import RANKS

SECRET = "s3cr3t-line-never-shown"

#: Conditions a hostile bet file may hold: each must be one located line, never a polars traceback.
REFUSED = [
    ("banker_total IN (SELECT x FROM read_csv('{path}'))", "column 17: a subquery"),
    ("banker_total = (SELECT column_1 FROM read_csv('{path}'))", "column 16: a subquery"),
    ("banker_total IN (SELECT * FROM read_parquet('{path}'))", "subquery"),
    ("EXISTS (SELECT 1 FROM read_ipc('{path}'))", "not allowed"),
    ("(SELECT 1) = 1", "column 1: a subquery"),
    ("read_json('{path}') = 1", "column 1: a function call"),
    ("CAST(winner AS INT) = 1", "a cast"),
    ("player_total::int = 1", "a cast"),
    ("abs(player_total) = 1", "a function call"),
    ("winner > 3", "'>' does not apply to one of 'player', 'banker', 'tie'"),
    ("winner + 1 = 2", "'\\+' needs a number"),
    ("banker_total", "must be true or false, this is a number"),
    ("1 = 1", "compares two constants"),
    ("TRUE", "names no coup field"),
    ("player_total = 3; DROP TABLE x", "one expression"),
    ("winner = 'Banker'", "'Banker' is not one of"),
    ("player_1_rank = 'Z'", "'Z' is not a rank"),
    ("player_1_rank > 'T'", "does not apply to a rank"),
    ("player_1_suit = player_1_rank", "cannot compare"),
    ("player_natural = 1", "cannot compare true or false with 1"),
    ("player_total = NULL", "IS NULL"),
    ("player_total IN (1, 'a')", "column 21: 'a' in IN"),
    ("player_total IN (banker_total)", "literals only"),
    ("player_total = 1e400", "out of range"),
    ("player_totl = 3", "did you mean player_total"),
    ("t.player_total = 3", "not a coup field"),
    ("player_total = = 3", "column 16: cannot parse"),
    ("player_total IS 3", "IS takes NULL"),
    ("banker_total = 6 OR 'a'", "OR needs true or false"),
    ("(" * 70 + "natural" + ")" * 70, "more than 64 deep"),
    ("NOT " * 900 + "natural", "deep"),
    ("natural OR " * 1000 + "natural", "characters"),
]


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "secret.csv"
    path.write_text(f"{SECRET}\n1\n")
    return path


@pytest.fixture
def no_polars_io(monkeypatch):
    """Any attempt to reach polars' SQL engine or readers while a condition is read fails the test."""

    def forbidden(*_a, **_k):
        raise AssertionError("a condition reached polars' SQL engine or a reader")

    for name in ("sql_expr", "sql", "SQLContext", "read_csv", "scan_csv", "read_parquet", "read_ipc", "read_json"):
        monkeypatch.setattr(pl, name, forbidden)


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_a_refused_condition_is_one_located_line(text, message, secret_file, no_polars_io) -> None:
    text = text.format(path=secret_file)
    with pytest.raises(ConditionError, match=message) as err:
        condition(text)
    assert "\n" not in str(err.value)
    assert SECRET not in str(err.value)


@pytest.mark.parametrize(("text", "message"), REFUSED[:8])
def test_a_bet_file_with_a_file_reading_condition_is_refused(tmp_path, secret_file, text, message) -> None:
    bet = tmp_path / "b.toml"
    when = text.format(path=secret_file).replace('"', '\\"')
    bet.write_text(f'name = "x"\n[[pays]]\nwhen = "{when}"\npays = 2\n')
    with pytest.raises(ValueError, match=f"{bet}: pays, row 1, condition .*{message}") as err:
        bet_from_file(str(bet))
    assert SECRET not in str(err.value)


def test_the_limit_on_a_condition_is_stated() -> None:
    long = "natural OR " * (MAX_CONDITION_CHARS // 11 + 1) + "natural"
    with pytest.raises(ConditionError, match=f"more than {MAX_CONDITION_CHARS:,}"):
        condition(long)


# --------------------------------------------------------------- the grammar fuzzer
_NUMERIC = [f for f in FIELDS if f.endswith(("_value", "_cards")) or "total" in f or f == "margin"]
_NUMERIC += ["cards_dealt"]
_BOOL = ["player_natural", "banker_natural", "natural", "player_pair", "banker_pair", "player_suited_pair"]
_RANK = [f"{p}_rank" for p in POSITIONS]
_SUIT = [f"{p}_suit" for p in POSITIONS]


def _frame(n: int = 400, seed: int = 7) -> pl.DataFrame:
    """Random coup rows with the fields' dtypes; third cards null in about half the rows."""
    rng = np.random.default_rng(seed)
    third = {p: rng.random(n) < 0.5 for p in ("player_3", "banker_3")}
    cols: dict[str, pl.Series] = {}
    for f in _NUMERIC:
        s = pl.Series(f, rng.integers(0, 10, n))
        cols[f] = s.set(pl.Series(third[f[:8]]), None) if f[:8] in third else s
    for f in [*_BOOL, "banker_suited_pair"]:
        cols[f] = pl.Series(f, rng.random(n) < 0.3)
    for f, labels in [(f, RANKS) for f in _RANK] + [(f, ("s", "h", "d", "c")) for f in _SUIT]:
        s = pl.Series(f, rng.choice(labels, n)).cast(pl.Enum(list(labels)))
        cols[f] = s.set(pl.Series(third[f[:8]]), None) if f[:8] in third else s
    cols["winner"] = pl.Series("winner", rng.choice(["player", "banker", "tie"], n))
    return pl.DataFrame(list(cols.values()))


FRAME = _frame()

numbers = st.one_of(
    st.sampled_from(_NUMERIC),
    st.integers(-3, 12).map(str),
)
arith = st.one_of(
    numbers,
    st.tuples(st.sampled_from(_NUMERIC), st.sampled_from(["+", "-", "*", "%"]), st.integers(1, 9)).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"
    ),
)
atoms = st.one_of(
    st.tuples(st.sampled_from(_NUMERIC), st.sampled_from(["=", "<>", "<", "<=", ">", ">="]), arith).map(" ".join),
    st.sampled_from(_BOOL),
    st.sampled_from(["player", "banker", "tie"]).map(lambda w: f"winner = '{w}'"),
    st.tuples(st.sampled_from(_RANK), st.lists(st.sampled_from(RANKS), min_size=1, max_size=4)).map(
        lambda t: f"{t[0]} IN ({', '.join(repr(r) for r in t[1])})"
    ),
    st.tuples(st.sampled_from(_SUIT), st.sampled_from("shdc")).map(lambda t: f"{t[0]} <> '{t[1]}'"),
    st.tuples(st.sampled_from(_NUMERIC), st.integers(0, 5), st.integers(4, 9)).map(
        lambda t: f"{t[0]} BETWEEN {t[1]} AND {t[2]}"
    ),
    st.sampled_from([f"{p}_value" for p in POSITIONS]).map(lambda f: f"{f} IS NOT NULL"),
    st.sampled_from(["player_1_rank = banker_1_rank", "player_3_suit = banker_3_suit"]),
)
conditions = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["AND", "OR"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda c: f"NOT ({c})"),
    ),
    max_leaves=8,
)
FORBIDDEN = [
    "(SELECT 1)",
    "read_csv('x.csv')",
    "CAST(player_total AS INT)",
    "abs(player_total)",
    "player_total::int",
    "length(winner)",
    "(SELECT count(*) FROM read_parquet('y'))",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conditions)
def test_a_valid_condition_agrees_with_polars_sql_row_for_row(text: str) -> None:
    ours = FRAME.select(condition(text).alias("c"))["c"]
    theirs = FRAME.select(pl.sql_expr(text).alias("c"))["c"]  # the oracle: polars' own SQL reader
    assert ours.to_list() == theirs.to_list(), text


@settings(max_examples=150, deadline=None)
@given(conditions, st.sampled_from(FORBIDDEN), st.sampled_from(["=", "<>", ">"]), st.booleans())
def test_a_forbidden_node_anywhere_is_refused(text: str, bad: str, op: str, left: bool) -> None:
    spliced = f"({bad} {op} 1) AND {text}" if left else f"{text} OR ({bad} {op} 1)"
    with pytest.raises(ConditionError, match=r"column [0-9]+: .* not allowed"):
        condition(spliced)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_a_condition_or_one_line_of_refusal(text: str) -> None:
    message = ""
    try:
        condition(text)
    except ValueError as err:  # anything else (a polars or sqlglot error, a RecursionError) fails the test
        message = str(err)
    assert "\n" not in message


def test_long_chains_are_built_as_balanced_trees() -> None:
    # a chain of n terms nests about log2(n) deep, so building and evaluating it is linear in n (the earlier
    # compiler nested it n deep: 800/1,600/2,400 terms took 1.7/6.3/27 s)
    text = " OR ".join(f"player_total={i % 10}" for i in range(200))
    shown = str(condition(text))
    depth = worst = 0
    for ch in shown:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        worst = max(worst, depth)
    assert worst <= 3 * 10  # log2(200) < 8 levels, at most three brackets each
    assert FRAME.select(condition(text).alias("c"))["c"].to_list() == (FRAME["player_total"] >= 0).to_list()


def test_a_pay_table_in_python_is_capped_like_a_bet_file() -> None:
    from toolkit.bets.files import MAX_PAY_ROWS, pay_table

    rows = [(f"player_total = {i % 10}", 2) for i in range(MAX_PAY_ROWS + 1)]
    with pytest.raises(ValueError, match=f"at most {MAX_PAY_ROWS} rows"):
        pay_table(rows)
