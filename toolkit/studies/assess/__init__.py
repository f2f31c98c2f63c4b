"""The assessment of a side bet for a casino: its odds, its effects of removal, the best count and what it wins.

* :mod:`~toolkit.studies.assess.search`: the search for the best integer count, guided by the effects of removal;
* :mod:`~toolkit.studies.assess.depth`: the count and perfect play against the cut card, on the same shuffles;
* :mod:`~toolkit.studies.assess.fresh`: strategies on the fresh shoes, and paired differences between them;
* :mod:`~toolkit.studies.assess.run`: :func:`assess_bet`, end to end;
* :mod:`~toolkit.studies.assess.pilot`: :func:`estimate_assessment`, how long it will take (a timed pilot);
* :mod:`~toolkit.studies.assess.result`: :class:`Assessment`, its frames and the verdict;
* :mod:`~toolkit.studies.assess.report`: ``report.md``, the tables and ``summary.json`` (:func:`write_assessment`).
"""

from toolkit.studies.assess.depth import depth_sweep
from toolkit.studies.assess.fresh import fresh_totals, paired_difference
from toolkit.studies.assess.pilot import estimate_assessment
from toolkit.studies.assess.report import assessment_report, write_assessment
from toolkit.studies.assess.result import Assessment
from toolkit.studies.assess.run import DEFAULT_CUT_CARDS, DEFAULT_MIN_WIN, DEFAULT_SHOES, assess_bet, published_counts
from toolkit.studies.assess.search import SearchSpace, candidate_tags, search_counts, tag_reach

__all__ = (
    "DEFAULT_CUT_CARDS",
    "DEFAULT_MIN_WIN",
    "DEFAULT_SHOES",
    "Assessment",
    "SearchSpace",
    "assess_bet",
    "assessment_report",
    "candidate_tags",
    "depth_sweep",
    "estimate_assessment",
    "fresh_totals",
    "paired_difference",
    "published_counts",
    "search_counts",
    "tag_reach",
    "write_assessment",
)
