"""A live shoe followed card by card: the numbers of one composition, a shoe to explore, and the table tracker.

* :mod:`~toolkit.live.panel`: :class:`Panel` (bets, count systems, house rules) and its :class:`Snapshot`;
* :mod:`~toolkit.live.shoe`: :class:`LiveShoe`, a composition changed card by card (the shoe explorer's model);
* :mod:`~toolkit.live.steps`: :class:`ShoeSteps`, a recorded or dealt shoe stepped coup by coup (the stepper's model);
* :mod:`~toolkit.live.tracker`: :class:`Tracker`, keys to cards to coups by the tableau (``baccarat track``).
* :mod:`~toolkit.live.keys`: a burst of input cut into keys, and the signals that stop a session;
* :mod:`~toolkit.live.autosave`: the session's file, checked at the start and saved after every coup.
"""

from toolkit.live.panel import Panel, Snapshot, resolve_bets, resolve_systems
from toolkit.live.shoe import Change, LiveShoe
from toolkit.live.steps import ShoeSteps, Step
from toolkit.live.tracker import Coup, Feedback, Tracker

__all__ = (
    "Change",
    "Coup",
    "Feedback",
    "LiveShoe",
    "Panel",
    "ShoeSteps",
    "Snapshot",
    "Step",
    "Tracker",
    "resolve_bets",
    "resolve_systems",
)
