"""Thorp's end-of-shoe study: do baccarat edges appear only in the last 5 to 20 cards of a shoe?

Thorp (*The Mathematics of Gambling*, 1984, ch. 3) concluded that advantages
in baccarat are very small, very rare and occur almost always in the last 5 to
20 cards.  This subpackage makes the claim measurable: many shoes are dealt and
before every coup the exact expectation of every bet is computed from the cards
a perfect counter has not seen.

The modules, each using only those above it:

* :mod:`~toolkit.studies.thorp.design`: :class:`ThorpStudy`, what to deal and evaluate;
* :mod:`~toolkit.studies.thorp.theory`: :func:`linear_variance`, the fundamental theorem
  (Thorp and Walden 1973), and the depth beyond which edges are rarer than one in a million;
* :mod:`~toolkit.studies.thorp.tally`: one block of shoes dealt, evaluated and reduced to additive sums;
* :mod:`~toolkit.studies.thorp.checkpoint`: the tally saved, and resumed, between blocks;
* :mod:`~toolkit.studies.thorp.result`: :class:`StudyResult`, the tables derived from the tally;
* :mod:`~toolkit.studies.thorp.run`: :func:`run_study` and :func:`jacobson_setting`;
* :mod:`~toolkit.studies.thorp.report`: :func:`verdicts` and :func:`summary`;
* :mod:`~toolkit.studies.thorp.markdown`: the report, :func:`markdown_report`, opening with :func:`answer`;
* :mod:`~toolkit.studies.thorp.reproduce`: the published figures beside the toolkit's values;
* :mod:`~toolkit.studies.thorp.outputs`: :func:`write_outputs`, the files of a run (figures come from
  :mod:`toolkit.plots`, passed in by the caller).

>>> result = run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player")), progress=False)
>>> study_verdicts(result)["bet"].to_list()
['banker', 'player']
"""

from toolkit.studies.thorp.checkpoint import checkpoint_seed
from toolkit.studies.thorp.design import ThorpStudy, deal_to_end, depth_bucket
from toolkit.studies.thorp.markdown import answer, markdown_report, published_markdown
from toolkit.studies.thorp.outputs import write_outputs
from toolkit.studies.thorp.report import study_summary, study_verdicts
from toolkit.studies.thorp.reproduce import count_providers, reproduce_providers, reproduce_table
from toolkit.studies.thorp.result import StudyResult
from toolkit.studies.thorp.run import jacobson_setting, records_frame, run_study
from toolkit.studies.thorp.theory import linear_variance

__all__ = (
    "StudyResult",
    "ThorpStudy",
    "answer",
    "checkpoint_seed",
    "count_providers",
    "deal_to_end",
    "depth_bucket",
    "jacobson_setting",
    "linear_variance",
    "markdown_report",
    "published_markdown",
    "records_frame",
    "reproduce_providers",
    "reproduce_table",
    "run_study",
    "study_summary",
    "study_verdicts",
    "write_outputs",
)
