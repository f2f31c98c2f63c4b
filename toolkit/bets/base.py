"""The one kind of bet the user sees: :class:`Bet`, whatever it was written from.

A bet is a name, a description and a payout for every coup.  However it was defined (in
Python from a function of the outcome, a polars expression or pay-table rows of SQL conditions;
in a TOML bet file; by a name of the panel or the catalogue), it is a :class:`Bet`, and its
evaluator was chosen when it was built (:attr:`Bet.evaluator`):

* ``"pay table"``: a payout for each of the 1,600 outcome classes
  (:class:`~toolkit.bets.paytable.PayTable`), priced by the batched exact engine;
* ``"value events"``, ``"prefix patterns"``, ``"label events"``: a payout over the coup fields
  (:class:`~toolkit.bets.coup_bets.CoupBet`: suits, ranks, third cards), priced by compiled tables.

The constructors on :class:`Bet` choose: a payout that names only outcome-class fields becomes
a pay table (the fast engine), anything else a coup bet.  :func:`toolkit.expected_values` prices
either kind, and every function that takes a bet takes either.

>>> import polars as pl
>>> from toolkit.bets import Bet
>>> lucky6 = Bet.from_expr("banker_six", pl.when((pl.col("winner") == "banker") & (pl.col("banker_total") == 6))
...     .then(12).otherwise(-1))
>>> suited = Bet.from_rows("suited", [("player_suited_pair", 25)])
>>> isinstance(lucky6, Bet), isinstance(suited, Bet), lucky6.evaluator, suited.evaluator
(True, True, 'pay table', 'prefix patterns')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

__all__ = ["Bet"]


class Bet(ABC):
    """A bet: a name, a description and a payout for every coup, with the evaluator chosen when it was built.

    The two kinds (:class:`~toolkit.bets.paytable.PayTable`, :class:`~toolkit.bets.coup_bets.CoupBet`)
    are both ``Bet``; build one with the constructors below, :func:`~toolkit.bets.paytable.get_bet` (a name),
    :func:`~toolkit.bets.paytable.make_bet` or :func:`~toolkit.bets.paytable.bet_from_file`.

    Attributes
    ----------
    name
        The bet's name.
    description
        One line for tables.
    events
        The ``(condition, payout)`` rows the bet was written from, if any.
    """

    #: The builders the two kinds register when their modules load (``toolkit.bets`` loads both).
    _builders: ClassVar[dict[str, Callable[..., Bet]]] = {}

    name: str
    description: str
    events: tuple

    @property
    @abstractmethod
    def evaluator(self) -> str:
        """What prices the bet: ``"pay table"``, ``"value events"``, ``"prefix patterns"`` or ``"label events"``."""

    @classmethod
    def from_expr(cls, name: str, expr: Any, description: str = "") -> Bet:
        """From a polars expression over the coup fields (:data:`toolkit.bets.fields.FIELDS`)."""
        return Bet._builders["rows"](name, expr, -1, description)

    @classmethod
    def from_rows(
        cls, name: str, rows: Sequence[tuple[str, object]], otherwise: object = -1, description: str = ""
    ) -> Bet:
        """From pay-table rows ``[(sql_condition, pays), ...]`` (the first that holds pays, else ``otherwise``)."""
        return Bet._builders["rows"](name, rows, otherwise, description)

    @classmethod
    def from_function(cls, name: str, payout: Callable[..., object], description: str = "") -> Bet:
        """From ``payout(outcome) -> units``, called once per outcome class (a pay table)."""
        return Bet._builders["function"](name, payout, description)

    @classmethod
    def from_table(
        cls,
        name: str,
        rules: Sequence[tuple[Callable[..., bool], object]],
        otherwise: object = -1,
        description: str = "",
    ) -> Bet:
        """From ``[(condition(outcome), payout), ...]``; the first condition that holds pays, else ``otherwise``."""
        return Bet._builders["table"](name, rules, otherwise, description)

    @classmethod
    def from_file(cls, path: str) -> Bet:
        """From a TOML bet file (see :mod:`toolkit.bets.files`); errors name the file and the row."""
        return Bet._builders["file"](path)

    @classmethod
    def named(cls, name: str, rules: Any = None) -> Bet:
        """The bet of the panel or the side-bet catalogue called ``name`` (:func:`~toolkit.bets.paytable.get_bet`)."""
        return Bet._builders["name"](name, rules)
