"""An edge sorter at the table: what seeing the groups of each coup's first cards wins per dealt shoe.

The sorter sees, before every coup, the group of the cards at the observed positions (1 and 3 are
Player's first two cards, 2 and 4 Banker's; positions 5 and 6 are not handled here) and takes the
best action of the fresh shoe for that pattern (:func:`toolkit.edges.information.information_edge`):
a fixed strategy, without counting.  Shoes are shuffled and dealt as a casino deals them
(:func:`toolkit.dealing.deal`: burn, cut card, last hand), and every coup's payout of the chosen bet
is added up shoe by shoe.

By exchangeability every coup's first four cards are a uniform draw from the cards left, and the
expectation of the next coup is a martingale in the cards dealt, so the win per coup of dealt
shoes is close to the fresh shoe's gain (20.928 % for Jacobson's four-card sort, 8 decks); the
study measures it, and its spread per shoe.

>>> from toolkit.dealing import Dealing
>>> t = edge_sorter_shoes(4, seed=1, dealing=Dealing(decks=1, cut_card=14))
>>> t.columns
['shoe', 'coups', 'bets', 'win']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import polars as pl

from toolkit.bets.paytable import PayTable
from toolkit.coup.cards import Composition
from toolkit.dealing.dealer import Dealing, deal
from toolkit.edges._observation import observation
from toolkit.edges.information import _resolve_bets, information_edge
from toolkit.parallel import SeedLike

__all__ = ["edge_sorter_shoes", "edge_sorter_summary"]

#: The slot (:data:`toolkit.dealing.dealer.SLOTS`) of dealing positions 1-4.
_SLOT_OF_POSITION = {1: 0, 2: 3, 3: 1, 4: 4}


def edge_sorter_shoes(
    n_shoes: int = 1_000,
    groups: str = "6789",
    positions: int | str | Iterable[int] = "1-4",
    bets: Iterable[PayTable | str] | None = None,
    dealing: Dealing = Dealing(),
    seed: SeedLike = None,
    by: str = "value",
    progress: bool = False,
    workers: int | None = None,
    scheduler: str | Any | None = None,
) -> pl.DataFrame:
    """Deal ``n_shoes`` shoes and play the edge sorter's fixed strategy on every coup; one row per shoe.

    Parameters
    ----------
    n_shoes
        Shoes to deal.
    groups
        The sort (``"6789"``: H against the rest), as :func:`~toolkit.edges.information.information_edge` takes it.
    positions
        The observed positions, among 1-4.
    bets
        The bets the sorter may take (default Banker, Player, Tie 8:1), one unit each time.
    dealing
        How the shoes are dealt (decks, burn, cut card...).
    seed
        Seed of the shuffles (same seed, same shoes).
    by
        ``"value"`` or ``"rank"`` groups.
    progress
        A progress bar while dealing.
    workers, scheduler
        Where the shoes are dealt (:func:`~toolkit.dealing.dealer.deal`: this process, local worker processes or
        a Dask cluster); the same shoes wherever they are dealt.

    Returns
    -------
    polars.DataFrame
        ``shoe`` (from 1), ``coups``, ``bets`` (coups bet on), ``win`` (units won in the shoe).

    References
    ----------
    E. Jacobson, "Edge Sorting in Baccarat" (apheat.net, 18 August 2012).
    """
    obs = observation(groups, positions, by)
    if any(p > 4 for p in obs.positions):
        raise ValueError(
            f"positions {obs.positions}: the dealt-shoes study observes positions 1-4 only (the first four cards, "
            "dealt in every coup)"
        )
    chosen = _resolve_bets(bets)
    strategy = information_edge(Composition.from_decks(dealing.decks), groups, positions, by, chosen, exact=True)
    best = dict(strategy.patterns.select("pattern", "best_bet").iter_rows())
    dealt = deal(n_shoes, dealing, seed=seed, workers=workers, scheduler=scheduler, progress=progress)
    cell = np.zeros(len(dealt), dtype=np.int64)
    for i, p in enumerate(obs.positions):
        cell += dealt.cards[:, _SLOT_OF_POSITION[p]].astype(np.int64) * 13**i
    codes = obs.codes(cell, base=13)
    classes = dealt.outcome_classes()
    by_name = {b.name: b for b in chosen}
    win = np.zeros(len(dealt))
    took = np.zeros(len(dealt), dtype=bool)
    for code in np.unique(codes):
        name = best.get(obs.name(int(code)))
        if name is not None:
            rows = codes == code
            win[rows] = by_name[name].payoff_array[classes[rows]]
            took[rows] = True
    shoe = dealt.shoe - dealt.first_shoe
    n = dealt.n_shoes
    return pl.DataFrame(
        {
            "shoe": np.arange(n) + dealt.first_shoe + 1,  # numbered from 1, as every frame numbers shoes
            "coups": np.bincount(shoe, minlength=n),
            "bets": np.bincount(shoe, weights=took, minlength=n).astype(np.int64),
            "win": np.bincount(shoe, weights=win, minlength=n),
        }
    )


def edge_sorter_summary(table: pl.DataFrame) -> dict[str, float]:
    """Win per shoe and per coup, with standard errors over shoes (the independent unit; delta method per coup).

    Parameters
    ----------
    table
        :func:`edge_sorter_shoes`'s frame.

    Returns
    -------
    dict
        ``shoes, coups_per_shoe, win_per_shoe, win_per_shoe_se, win_per_coup, win_per_coup_se, share_coups_bet``.
    """
    n = table.height
    win = table["win"].to_numpy()
    coups = table["coups"].to_numpy().astype(float)
    per_coup = win.sum() / coups.sum()
    residual = win - per_coup * coups
    se_coup = float(np.sqrt((residual**2).sum() / (n * (n - 1))) / coups.mean()) if n > 1 else float("nan")
    return {
        "shoes": float(n),
        "coups_per_shoe": float(coups.mean()),
        "win_per_shoe": float(win.mean()),
        "win_per_shoe_se": float(win.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan"),
        "win_per_coup": float(per_coup),
        "win_per_coup_se": se_coup,
        "share_coups_bet": float(table["bets"].sum() / coups.sum()),
    }
