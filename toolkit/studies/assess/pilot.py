"""How long an assessment will take, from a short timed pilot of every step (:func:`estimate_assessment`).

The pilot deals a few hundred shoes once and times, per shoe, what each step of
:func:`~toolkit.studies.assess.assess_bet` does with them: dealing and pricing
the bet before every coup (the search shoes), scoring one candidate count on
them (the search scores about :func:`expected_candidates` of them), playing the
fresh-shoe strategies (the count found, perfect play, its threshold sweep and
the published counts) and dealing the cut-card sweep at every position.  The
per-shoe costs are CPU seconds (so a busy machine does not inflate them),
scaled to the assessment's shoes and divided among the workers (blocks of
shoes are independent, so they share the work nearly evenly): the estimate is
for idle cores, and a machine shared with other work takes longer.  The
pilot's own seconds are not counted.

>>> e = estimate_assessment("dragon7", n_shoes=1000, cut_cards=(14,), pilot_shoes=20)
>>> sorted(e["seconds"]), e["shoes"], e["cut_cards"]
(['fresh', 'scoring', 'search', 'sweep'], 1000, [14])
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from toolkit.bets.base import Bet
from toolkit.counting.strategies import count_strategy, perfect_strategy
from toolkit.counting.systems import CountSystem, resolve_bet
from toolkit.coup.rules import Rules
from toolkit.dealing.dealer import Dealing
from toolkit.parallel import block_plan, default_workers
from toolkit.studies.assess.depth import _block as sweep_block
from toolkit.studies.assess.fresh import _block as fresh_block
from toolkit.studies.assess.run import DEFAULT_SHOES, _cut_cards, published_counts
from toolkit.studies.assess.search import SearchSpace, score_tags, search_block

__all__ = ["estimate_assessment", "expected_candidates"]

#: Thresholds of the count found that the fresh shoes replay (about the search's grid).
_GRID = 40


def expected_candidates(space: SearchSpace = SearchSpace(), reach: int = 10) -> int:
    """About how many counts the search scores: two families and up to two triggers per top, and the hill climb.

    >>> expected_candidates(SearchSpace(), 3)
    93
    """
    return 3 * len(space.tops_for(reach)) + space.local_passes * 2 * 13 * 3 // 2


def estimate_assessment(
    bet: Bet | str,
    dealing: Dealing = Dealing(),
    n_shoes: int = DEFAULT_SHOES,
    cut_cards: Sequence[int] | None = None,
    penetration_shoes: int | None = None,
    rules: Rules | None = None,
    space: SearchSpace = SearchSpace(),
    workers: int | None = None,
    pilot_shoes: int | None = None,
) -> dict[str, Any]:
    """The seconds each step of :func:`~toolkit.studies.assess.assess_bet` will take, from a timed pilot.

    Parameters
    ----------
    bet, dealing, n_shoes, cut_cards, penetration_shoes, rules, space, workers
        As :func:`~toolkit.studies.assess.assess_bet` takes them.
    pilot_shoes
        Shoes of the pilot (its own seed; what it deals is not used again); default: a tenth of
        ``n_shoes``, at least 20 and at most 200.

    Returns
    -------
    dict
        ``seconds`` by step (``search``, ``scoring``, ``fresh``, ``sweep``), ``total``, ``memory_bytes`` (what the
        search holds at once, from the pilot's arrays: about 9 KB a shoe of eight decks, over what the process
        holds anyway, some 300 MB with the bet's exact tables), ``workers``, ``shoes``, ``penetration_shoes``,
        ``cut_cards`` and ``pilot_shoes``.
    """
    rules = Rules(decks=dealing.decks, tableau=dealing.tableau) if rules is None else rules
    b = resolve_bet(bet, rules)
    cuts = _cut_cards(dealing, cut_cards)
    n_pen = n_shoes if penetration_shoes is None else penetration_shoes
    n_workers = default_workers() if workers is None else int(workers)
    pilot_shoes = min(max(n_shoes // 10, 20), 200) if pilot_shoes is None else pilot_shoes
    warm = block_plan(10, seed=1)[0]
    pilot = block_plan(pilot_shoes, block_size=pilot_shoes, seed=12345)[0]
    search_block(warm, dealing, b)  # compiles the bet and loads the kernels: not part of the estimate
    start = time.process_time()
    data = search_block(pilot, dealing, b)
    per_shoe = {"search": (time.process_time() - start) / pilot.n_shoes}
    start = time.process_time()
    score_tags((1, 1, 0, 0, 0, -1, -1, -1, 1, 0, 0, 0, 0), "true", data, space.thresholds)
    per_shoe["scoring"] = (time.process_time() - start) / pilot.n_shoes * expected_candidates(space)
    count = CountSystem("pilot", (1, 1, 0, 0, 0, -1, -1, -1, 1, 0, 0, 0, 0), threshold=1)
    played = [count_strategy(count, bet=b, name="count"), perfect_strategy(b, name="perfect")]
    grid = [count_strategy(count, float(t), bet=b, name=f"t={t}") for t in np.linspace(0, 4, _GRID)]
    published = [count_strategy(s, bet=b, name=s.name) for s in published_counts(b)]
    start = time.process_time()
    fresh_block(pilot, (*played, *grid, *published), dealing, rules)
    per_shoe["fresh"] = (time.process_time() - start) / pilot.n_shoes
    start = time.process_time()
    if cuts:
        sweep_block(pilot, tuple(played), dealing, tuple(cuts), rules)
    per_shoe["sweep"] = (time.process_time() - start) / pilot.n_shoes
    share = max(min(n_workers, -(-n_shoes // 1000)), 1)  # blocks of 1,000 shoes are shared among the workers
    seconds = {
        "search": per_shoe["search"] * n_shoes / share,
        "scoring": per_shoe["scoring"] * n_shoes,  # in this process
        "fresh": per_shoe["fresh"] * n_shoes / share,
        "sweep": per_shoe["sweep"] * n_pen / share,
    }
    # memory: the search holds every search shoe's coups (SearchSet.nbytes a shoe) and, while joining its blocks,
    # one field twice; scoring a candidate adds four arrays of 8 bytes a coup (counts, thresholds reached)
    per_coup_scoring = 4 * 8 * data.hands / pilot.n_shoes
    held = (data.nbytes + data.largest_field_nbytes) / pilot.n_shoes + per_coup_scoring
    return {
        "seconds": seconds,
        "total": float(sum(seconds.values())),
        "memory_bytes": float(held * n_shoes),
        "workers": share,
        "shoes": n_shoes,
        "penetration_shoes": n_pen if cuts else 0,
        "cut_cards": cuts,
        "pilot_shoes": pilot.n_shoes,
    }
