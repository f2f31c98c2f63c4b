"""A sized strategy's win rate computed, not simulated (:func:`toolkit.counting.computed.count_value`).

A count bet staked flat or by a ramp of units by count (a Kelly ramp by count included, :func:`kelly_ramp`), held
within table limits and rounded to chips (:class:`~toolkit.sizing.plays.LimitedPlay`), stakes a function of the
count alone: its expected win per shoe, per hand and per hour is computed from the count's exact law, with no
simulation noise.  So is back-counting (:class:`~toolkit.sizing.plays.BackCount`: sit before a coup if the count
is high enough, leave below an exit count) on the play's own count: the chain carries whether the counter is seated
(:class:`~toolkit.counting.computed.SeatRule`).  The risks (ruin, trip, goal) need the law of a whole shoe's
result and stay simulated or given by formula from dealt shoes (:mod:`toolkit.sizing.report`).

Refused, each with one line naming the alternative: Kelly stakes sized from the exact shoe before each coup
(:class:`~toolkit.sizing.plays.KellyPlay`: a function of the cards, not of the count), back-counting on another
system's count than the play's, counting errors (:class:`~toolkit.sizing.plays.MiscountedPlay`) and several plays at
once.

>>> from toolkit.counting import count_strategy
>>> from toolkit.dealing.dealer import Dealing
>>> value = computed_win(count_strategy("dragon7", ramp={2: 1, 4: 2}), Dealing(decks=1))
>>> value.staked_per_shoe > value.bets_per_shoe > 0
True
"""

from __future__ import annotations

import numpy as np

from toolkit.counting.computed import CountValue, SeatRule, count_value
from toolkit.counting.strategies import CountPlay, Ramp, Strategy
from toolkit.counting.systems import get_count_system
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.sizing.plays import BackCount, KellyPlay, LimitedPlay, MiscountedPlay

__all__ = ["WIN_RATE_NOTE", "computed_play", "computed_seat", "computed_win"]

#: What a computed report's figures rest on (its ``note``).
WIN_RATE_NOTE = (
    "win rate computed from the count's exact law (toolkit.count_value: expected units per shoe, per hand, per "
    "hour, bets and mean bet); SD, SCORE's and DI's SD, and the risks from the dealt shoes (simulated, or by "
    "formula from their results)"
)


def computed_play(strategy: Strategy) -> CountPlay:
    """The one count play a strategy makes, table limits and chips applied to its ramp's units.

    Parameters
    ----------
    strategy
        A strategy of one count play (flat or a ramp), possibly within table limits (:class:`LimitedPlay`), possibly
        back-counted (:class:`BackCount`, its seat: :func:`computed_seat`).

    Returns
    -------
    toolkit.counting.strategies.CountPlay
        The play whose ramp stakes what the strategy places at each count (while seated).

    Raises
    ------
    ValueError
        A strategy whose stakes are not a function of the count (one line naming the alternative).

    Examples
    --------
    >>> from toolkit.counting import count_strategy
    >>> from toolkit.sizing.plays import Limits
    >>> inner = count_strategy("dragon7", ramp={4: 1.5, 6: 30}).plays[0]
    >>> computed_play(Strategy("capped", (LimitedPlay(inner, Limits(table_max=25, chip=1)),))).ramp.steps
    ((4.0, 1.0), (6.0, 25.0))
    """
    if len(strategy.plays) != 1:
        raise ValueError(
            f"strategy {strategy.name!r} makes {len(strategy.plays)} plays; the computed win rate takes one count "
            "play: use method='simulated' (--method simulated)"
        )
    (play,) = strategy.plays
    limits = None
    seat = None
    while isinstance(play, (LimitedPlay, BackCount)):
        if isinstance(play, LimitedPlay):
            limits, play = play.limits, play.play
        else:
            seat, play = play, play.play
    if isinstance(play, KellyPlay):
        raise ValueError(
            f"strategy {strategy.name!r} sizes Kelly stakes from the exact shoe before each coup, not from the count: "
            "use kelly_by='count' (--kelly-by count) or method='simulated' (--method simulated)"
        )
    if isinstance(play, MiscountedPlay) or not isinstance(play, CountPlay):
        raise ValueError(
            f"strategy {strategy.name!r} plays {type(play).__name__}, not a count play: the computed win rate takes "
            "a count bet staked flat or by a ramp: use method='simulated' (--method simulated)"
        )
    watched = None if seat is None else get_count_system(seat.system)  # BackCount holds the system it resolved
    if watched is not None and watched != play.system:
        raise ValueError(
            f"strategy {strategy.name!r} back-counts by {watched.name!r} but bets by {play.system.name!r}: the "
            "computed chain carries one count: use method='simulated' (--method simulated)"
        )
    if limits is None:
        return play
    at = [a for a, _ in play.ramp.steps]
    units = limits.apply(np.array([u for _, u in play.ramp.steps]))
    return CountPlay(play.system, play.bet, Ramp(tuple(zip(at, units.tolist(), strict=True))), play.count)


def computed_seat(strategy: Strategy) -> SeatRule | None:
    """When a back-counting strategy is seated (``None``: at every coup); see :func:`computed_play`.

    Parameters
    ----------
    strategy
        A strategy of one play.

    Returns
    -------
    toolkit.counting.computed.SeatRule or None
        The rule of its :class:`BackCount`, or ``None`` without one.

    Examples
    --------
    >>> from toolkit.counting import count_strategy
    >>> inner = count_strategy("dragon7").plays[0]
    >>> computed_seat(Strategy("wong", (BackCount(inner, "dragon7", entry_coup=20, entry=1, exit=0),)))
    SeatRule(entry_coup=20, entry=1.0, exit=0.0, count='true')
    """
    play = strategy.plays[0] if len(strategy.plays) == 1 else None
    while isinstance(play, LimitedPlay):
        play = play.play
    if not isinstance(play, BackCount):
        return None
    return SeatRule(play.entry_coup, play.entry, play.exit, play.count)


def computed_win(strategy: Strategy, dealing: Dealing = Dealing(), rules: Rules | None = None) -> CountValue:
    """The expected win of a sized count strategy, computed (:func:`~toolkit.counting.computed.count_value`).

    Parameters
    ----------
    strategy
        A strategy of one count play (see :func:`computed_play`).
    dealing
        Decks, burn, cut card and last-hand rule.
    rules
        Payouts of the bet (default: the dealing's decks and tableau).

    Returns
    -------
    toolkit.counting.computed.CountValue
        Expected units per shoe and per hand, bets and units staked per shoe, by depth.

    Raises
    ------
    ValueError
        A strategy whose stakes are not a function of the count, a bet or dealing the computed method does not
        take, or a ramp never reached.
    """
    return count_value(computed_play(strategy), dealing, rules=rules, seat=computed_seat(strategy))
