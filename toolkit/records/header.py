"""The shoe header: how the shoes of a record were dealt and the house rules they were played under.

A :class:`ShoeHeader` holds a :class:`~toolkit.dealing.dealer.Dealing` (decks, burn,
cut card, last-hand rule, tableau) and a :class:`~toolkit.coup.rules.Rules`
(commission, tie payout, tableau), plus two facts about the record itself:
whether it lists the cards burned face down (``hidden_burn``) and the exposed
burn card of a record that lists no cards (``burn_card``).

In files the header is written as ``key=value`` pairs (defaults in brackets):
``decks`` [8], ``burn`` [standard | fixed | none], ``burn_ace`` [1],
``burn_cards`` [0, for a fixed burn], ``cut_card`` [14, cards from the end],
``last_hand`` [one_more | finish | seven_cards | two_more_if_first], ``commission`` [0.05],
``tie_pays`` [8], ``hidden_burn`` [auto | listed | omitted] and ``burn_card``
(the exposed burn card, for the per-coup and road layouts).  With a standard
burn the first card is turned up (it is *seen*) and as many cards as its value
(ten and faces 10, ace ``burn_ace``) are burned face down.  ``hidden_burn``
says whether a record without roles lists those face-down cards: ``omitted``
(an observer's record: the exposed card, then the coups), ``listed`` (a
dealer's or shuffler's log), ``auto`` (listed when the shoe lists all its
``52 * decks`` cards; then the cut card also says where the dealing stopped
and the cards after the last coup are *undealt*).

The text holds no tableau: a record is rebuilt under the tableau of the header
it is read with (punto banco unless a :class:`ShoeHeader` with another tableau
is given to :func:`~toolkit.records.read.read_records`).

>>> header = ShoeHeader().updated({"decks": "6", "commission": "0.04"})
>>> header.dealing.decks, header.rules.commission
(6, Fraction(1, 25))
>>> header.text(ShoeHeader())
'decks=6 commission=0.04'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from toolkit._check import as_fraction, one_of
from toolkit._show import changed_fields
from toolkit.coup.options import HiddenBurn
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.records.validation import canonical_card

__all__ = ["HEADER_KEYS", "ShoeHeader"]

#: The keys of a header in files, in the order they are written.
HEADER_KEYS: tuple[str, ...] = (
    "decks",
    "burn",
    "burn_ace",
    "burn_cards",
    "cut_card",
    "last_hand",
    "commission",
    "tie_pays",
    "hidden_burn",
    "burn_card",
)
_DEALING_KEYS = ("decks", "burn", "burn_ace", "burn_cards", "cut_card", "last_hand")
_RULES_KEYS = ("decks", "commission", "tie_pays")
_INTEGER_KEYS = ("decks", "burn_ace", "burn_cards", "cut_card")


@dataclass(frozen=True)
class ShoeHeader:
    """How the shoes of a record were dealt, the house rules, and what the record lists (see the module notes).

    Attributes
    ----------
    dealing
        The dealing procedure (decks, burn, cut card, last-hand rule, tableau).
        A record's dealing runs to the cut card, so ``dealing.coups`` is ``None``.
    rules
        The house rules (commission, tie payout, tableau); its decks and tableau
        are the dealing's.
    hidden_burn
        Whether a record without roles lists the cards burned face down
        (:class:`~toolkit.coup.options.HiddenBurn`; a plain string is accepted).
    burn_card
        The exposed burn card, for a record that does not list it (per coup, road).
    """

    dealing: Dealing = field(default_factory=Dealing)
    rules: Rules = field(default_factory=Rules)
    hidden_burn: HiddenBurn = HiddenBurn.AUTO
    burn_card: str | None = None

    def __post_init__(self) -> None:
        if self.dealing.coups is not None:
            raise ValueError(
                f"a shoe header's dealing runs to the cut card: Dealing.coups must be None, got {self.dealing.coups!r}"
            )
        if self.rules.decks != self.dealing.decks:
            raise ValueError(
                f"the header's rules are for {self.rules.decks} deck(s) and its dealing for {self.dealing.decks}: "
                "they must agree"
            )
        if self.rules.tableau != self.dealing.tableau:
            raise ValueError(
                f"the header's rules use the tableau {self.rules.tableau.name!r} and its dealing "
                f"{self.dealing.tableau.name!r}: they must agree"
            )
        hidden = one_of(self.hidden_burn, (h.value for h in HiddenBurn), "hidden_burn")
        object.__setattr__(self, "hidden_burn", HiddenBurn(hidden))
        if self.burn_card is not None:
            object.__setattr__(self, "burn_card", canonical_card(self.burn_card))

    def __repr__(self) -> str:
        """Only the fields that differ from the defaults.

        >>> ShoeHeader(), ShoeHeader(burn_card="7h")
        (ShoeHeader(), ShoeHeader(burn_card='7h'))
        """
        return changed_fields(self)

    @classmethod
    def from_dealing(
        cls,
        dealing: Dealing,
        rules: Rules | None = None,
        hidden_burn: HiddenBurn | str = HiddenBurn.AUTO,
        burn_card: str | None = None,
    ) -> ShoeHeader:
        """The header of shoes dealt by ``dealing`` under ``rules``.

        Without ``rules``, the default house rules for the dealing's decks and
        tableau; a fixed number of coups (``dealing.coups``) is dropped, since a
        record's dealing runs to the cut card.
        """
        rules = rules or Rules(decks=dealing.decks, tableau=dealing.tableau)
        return cls(replace(dealing, coups=None), rules, HiddenBurn(hidden_burn), burn_card)

    def updated(self, values: Mapping[str, object] | None = None, /, **keys: object) -> ShoeHeader:
        """A copy with ``key=value`` settings (strings or numbers, as in files) applied.

        >>> ShoeHeader().updated({"decks": "6", "commission": "0.04"}).dealing.decks
        6
        >>> ShoeHeader().updated(burn="none", cut_card=20).text(ShoeHeader())
        'burn=none cut_card=20'
        """
        changes: dict[str, Any] = {}
        for key, value in {**(values or {}), **keys}.items():
            if key not in HEADER_KEYS:
                raise ValueError(f"unknown header key {key!r}; known keys: {', '.join(HEADER_KEYS)}")
            if key in _INTEGER_KEYS:
                try:
                    changes[key] = int(str(value))
                except ValueError:
                    raise ValueError(f"header key {key} must be an integer, got {value!r}") from None
            elif key in ("commission", "tie_pays"):
                changes[key] = as_fraction(value if not isinstance(value, float) else repr(value))
            elif key == "burn_card":
                changes[key] = None if value in (None, "") else str(value)
            else:
                changes[key] = str(value)
        if not changes:
            return self
        dealing = self.dealing
        if any(k in changes for k in _DEALING_KEYS):
            dealing = replace(dealing, **{k: v for k, v in changes.items() if k in _DEALING_KEYS})
        rules = self.rules
        if any(k in changes for k in _RULES_KEYS):
            rules = replace(rules, **{k: v for k, v in changes.items() if k in _RULES_KEYS})
        own = {k: v for k, v in changes.items() if k in ("hidden_burn", "burn_card")}
        return replace(self, dealing=dealing, rules=rules, **own)

    def settings(self) -> dict[str, object]:
        """Every header key with its value (``burn_card`` may be ``None``), in the order files write them."""
        d, r = self.dealing, self.rules
        return {
            "decks": d.decks,
            "burn": str(d.burn),
            "burn_ace": d.burn_ace,
            "burn_cards": d.burn_cards,
            "cut_card": d.cut_card,
            "last_hand": str(d.last_hand),
            "commission": r.commission,
            "tie_pays": r.tie_pays,
            "hidden_burn": str(self.hidden_burn),
            "burn_card": self.burn_card,
        }

    def as_dict(self, base: ShoeHeader | None = None) -> dict[str, object]:
        """``{key: value}`` as written in files; with ``base``, only the keys that differ from it."""
        theirs = base.settings() if base is not None else None
        out: dict[str, object] = {}
        for key, value in self.settings().items():
            if theirs is not None and theirs[key] == value:
                continue
            if value is None:
                continue
            out[key] = _number_text(value) if isinstance(value, Fraction) else value
        return out

    def text(self, base: ShoeHeader | None = None) -> str:
        """The header as ``key=value`` words, e.g. for a CSV comment line.

        >>> ShoeHeader().updated(decks=6).text(ShoeHeader())
        'decks=6'
        """
        return " ".join(f"{k}={v}" for k, v in self.as_dict(base).items())


def _number_text(x: Fraction) -> str:
    """``0.05`` for 1/20, ``8`` for 8, ``1/3`` when no short decimal is exact."""
    if x.denominator == 1:
        return str(x.numerator)
    text = repr(float(x))
    return text if Fraction(text) == x else f"{x.numerator}/{x.denominator}"
