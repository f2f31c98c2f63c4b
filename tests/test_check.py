"""The shared argument checks (``toolkit._check``): what each accepts, what it returns, how it names the argument."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from toolkit._check import as_fraction, integer, non_negative_int, one_of, positive_int, probability


@pytest.mark.parametrize("value", [0, 3, -2, np.int64(5), np.uint8(7)])
def test_integer_accepts_python_and_numpy_integers(value) -> None:
    out = integer(value, "n")
    assert out == int(value)
    assert type(out) is int


@pytest.mark.parametrize("value", [True, np.bool_(False), 2.0, 2.5, "3", None, Fraction(3)])
def test_integer_refuses_anything_else_naming_the_argument(value) -> None:
    with pytest.raises(TypeError, match=r"^shoes must be an integer, got "):
        integer(value, "shoes")


def test_positive_and_non_negative_integers() -> None:
    assert positive_int(np.int32(1), "coups") == 1
    assert non_negative_int(0, "burn") == 0
    with pytest.raises(ValueError, match=r"^coups must be a positive integer, got 0$"):
        positive_int(0, "coups")
    with pytest.raises(ValueError, match=r"^burn must be a non-negative integer, got -1$"):
        non_negative_int(-1, "burn")
    with pytest.raises(TypeError, match="coups must be an integer"):
        positive_int(1.0, "coups")
    with pytest.raises(TypeError, match="burn must be an integer"):
        non_negative_int(False, "burn")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, Fraction(3)),
        (np.int64(-2), Fraction(-2)),
        (0.95, Fraction(19, 20)),
        (np.float64(0.5), Fraction(1, 2)),
        ("1/3", Fraction(1, 3)),
        (" 0.25 ", Fraction(1, 4)),
        (Fraction(2, 7), Fraction(2, 7)),
    ],
)
def test_as_fraction_is_exact(value, expected: Fraction) -> None:
    assert as_fraction(value) == expected


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (True, TypeError),
        (None, TypeError),
        ([1], TypeError),
        ("x", ValueError),
        ("1/0", ValueError),
        (np.inf, ValueError),
    ],
)
def test_as_fraction_refuses_what_is_not_a_finite_number(value, error: type) -> None:
    with pytest.raises(error):
        as_fraction(value)


def test_probability_is_an_exact_number_in_zero_one() -> None:
    assert probability("1/2", "p") == Fraction(1, 2)
    assert probability(0, "p") == 0
    assert probability(1.0, "p") == 1
    with pytest.raises(ValueError, match=r"^Player's draw: a probability must lie in \[0, 1\], got 1.5$"):
        probability(1.5, "Player's draw")
    with pytest.raises(ValueError, match=r"^p: 'half' is not a number$"):
        probability("half", "p")
    with pytest.raises(TypeError, match=r"^p: expected a number"):
        probability(None, "p")


def test_one_of_names_the_choices() -> None:
    assert one_of("floor", ("none", "floor"), "rounding") == "floor"
    with pytest.raises(ValueError, match=r"^rounding must be one of none, floor, got 'up'$"):
        one_of("up", ("none", "floor"), "rounding")
    with pytest.raises(ValueError, match="must be one of"):
        one_of(1, ("1", "2"), "choice")


def test_count_matrix_refuses_what_it_would_truncate():
    import numpy as np
    import pytest

    from toolkit._check import count_matrix

    assert count_matrix(np.array([[4, 2]], dtype=np.int16), "shoe counts").dtype == np.int64
    assert count_matrix(np.array([[4.0, 2.0]]), "shoe counts").tolist() == [[4, 2]]
    with pytest.raises(ValueError, match=r"whole numbers of cards, got 2\.5 at \[1, 0\]"):
        count_matrix(np.array([[4.0, 2.0], [2.5, 1.0]]), "shoe counts")
    with pytest.raises(ValueError, match="whole numbers of cards, got nan"):
        count_matrix(np.array([[np.nan]]), "shoe counts")
    with pytest.raises(ValueError, match=r"non-negative, got -3 at \[0, 1\]"):
        count_matrix(np.array([[4, -3]]), "shoe counts")
    with pytest.raises(ValueError, match="at most"):
        count_matrix(np.array([[2**63]], dtype=np.uint64), "shoe counts")
    with pytest.raises(TypeError, match="integer counts, got an array of <U1"):
        count_matrix(np.array([["a"]]), "shoe counts")
    with pytest.raises(TypeError, match="integer counts, got an array of bool"):
        count_matrix(np.array([[True]]), "shoe counts")
