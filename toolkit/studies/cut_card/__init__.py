"""The cut-card effect for baccarat's bets: how dealing to a cut card changes the average edge of the coups dealt.

The modules, each using only those above it:

* :mod:`~toolkit.studies.cut_card.design`: :class:`CutCardStudy`, what to deal and which rules to compare;
* :mod:`~toolkit.studies.cut_card.tally`: one block of shoes dealt, priced and reduced to per-shoe moments;
* :mod:`~toolkit.studies.cut_card.result`: :class:`CutCardResult`, the effects with delta-method intervals;
* :mod:`~toolkit.studies.cut_card.run`: :func:`run_cut_card` and :func:`cut_card_effect`.

>>> cut_card_effect(n_shoes=10, bets=("player",), seed=2, progress=False)["rule"].to_list()
['cut14/one_more']
"""

from toolkit.studies.cut_card.design import CutCardStudy
from toolkit.studies.cut_card.result import CutCardResult
from toolkit.studies.cut_card.run import cut_card_effect, run_cut_card

__all__ = ("CutCardResult", "CutCardStudy", "cut_card_effect", "run_cut_card")
