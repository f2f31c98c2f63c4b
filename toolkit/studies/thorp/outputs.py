"""The files of a run: tables (Parquet and CSV), ``summary.json``, ``reproduce.csv``, ``published.md``, ``report.md``.

Figures are not drawn here (the studies sit below the plots): a caller that
wants them passes the function that draws them, as ``baccarat thorp`` passes
:func:`toolkit.plots.save_study_figures`.

>>> import tempfile
>>> from toolkit.studies import ThorpStudy, run_study
>>> study = ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player"))
>>> result = run_study(study, workers=1, progress=False)
>>> paths = write_outputs(result, tempfile.mkdtemp(), reproduce=False)
>>> sorted(paths)[:3], paths["report"].name
(['by_bucket', 'by_unseen', 'claims'], 'report.md')
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from toolkit._files import atomic_write, refuse_symlink
from toolkit.studies.thorp.exact_depths import EXACT_CARDS_LEFT, exact_beside_sampled, exact_table
from toolkit.studies.thorp.markdown import markdown_report, published_markdown
from toolkit.studies.thorp.report import study_summary, study_verdicts
from toolkit.studies.thorp.reproduce import reproduce_table
from toolkit.studies.thorp.result import StudyResult

__all__ = ["DEAL_TO_END_TABLES", "TABLES", "FigureWriter", "write_outputs"]

#: What draws the figures of a run: ``figures(tables, folder)`` writes them and returns their paths by title.
FigureWriter = Callable[[Mapping[str, pl.DataFrame], Path], Mapping[str, Path]]

TABLES = ("by_unseen", "by_bucket", "cumulative", "claims", "per_shoe", "variance", "variance_by_bucket", "jacobson")
#: The tables of the deal-to-end run, written as ``<name>_deal_to_end``.
DEAL_TO_END_TABLES = ("by_unseen", "cumulative", "claims")


def write_outputs(
    result: StudyResult,
    out: str | os.PathLike,
    reproduce: bool = True,
    figures: FigureWriter | None = None,
    jacobson: pl.DataFrame | None = None,
    counts: dict[str, Any] | None = None,
    deal_to_end: StudyResult | None = None,
    exact_cards_left: str | int | Sequence[int] | None = EXACT_CARDS_LEFT,
    workers: int | None = None,
    progress: bool = False,
) -> dict[str, Path]:
    """Write the tables (Parquet and CSV, in ``tables/``), ``summary.json`` and ``report.md``.

    Parameters
    ----------
    result
        The casino-dealing run.
    out
        The folder (made if missing; a link is refused).
    reproduce
        Also write ``reproduce.csv`` and ``published.md`` (summed up in one
        line of the report): the published figures, with the study's own rows
        and ``counts``.
    figures
        A function such as :func:`toolkit.plots.save_study_figures`, called as
        ``figures(tables, out / "figures")`` with the tables written (by name);
        the figures it returns (paths by title) are shown in the report.
    jacobson
        Jacobson's setting from :func:`toolkit.studies.jacobson_setting`
        (default: the study's own).
    counts
        From :func:`toolkit.studies.count_providers`; without it the published
        count results stay pending.
    deal_to_end
        The same study dealt with no cut card
        (:meth:`~toolkit.studies.ThorpStudy.dealt_to_end`): its tables are
        written as ``<name>_deal_to_end`` (:data:`DEAL_TO_END_TABLES`), its
        summary under ``deal_to_end`` in ``summary.json``, and the report
        compares the two.
    exact_cards_left
        Put the exact law of the last cards at these depths (unseen cards: ``"6-26"``, ``(6, 26)``; default
        6 to 12, seconds) beside the sampled shares
        (:func:`~toolkit.studies.thorp.exact_depths.exact_beside_sampled`, on ``deal_to_end`` when given;
        table ``exact_last_cards``, the figure of P(EV > 0), the verdicts and a section of the report);
        ``None``: not computed.  ``"6-26"`` prices 254 million compositions on 8 decks: minutes on two cores.
        On 8 decks the same table checks the claims of ``reproduce.csv`` that need it
        (:func:`~toolkit.studies.thorp.reproduce.reproduce_providers`).
    workers
        Local processes for the exact table (``None``: every core); the figures do not depend on it.
    progress
        A progress bar for the exact table (on a terminal only).

    Returns
    -------
    dict
        The paths written, by name (a figure as ``"figure:<file stem>"``).
    """
    if figures is not None and (isinstance(figures, bool) or not callable(figures)):
        raise TypeError(
            "write_outputs(figures=...) takes the function that draws the figures, such as "
            f"toolkit.plots.save_study_figures, or None; got {figures!r}"
        )
    if deal_to_end is not None and not isinstance(deal_to_end, StudyResult):
        raise TypeError(f"write_outputs(deal_to_end=...) takes a StudyResult or None, got {type(deal_to_end).__name__}")
    folder = refuse_symlink(out, "output folder")
    refuse_symlink(folder / "tables", "output folder")
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    frames = _frames(result, deal_to_end)
    exact, law = None, None
    if exact_cards_left is not None:
        exact = exact_beside_sampled(deal_to_end or result, exact_cards_left, workers=workers, progress=progress)
        law = exact_table(deal_to_end or result, exact_cards_left)  # computed just above: kept in this process
    frames |= {"exact_last_cards": exact} if exact is not None and exact.height else {}
    for name, frame in frames.items():
        atomic_write(folder / "tables" / f"{name}.parquet", frame.write_parquet)
        atomic_write(folder / "tables" / f"{name}.csv", frame.write_csv)
        paths[name] = folder / "tables" / f"{name}.parquet"
    paths["summary"] = folder / "summary.json"
    atomic_write(
        paths["summary"], json.dumps(study_summary(result, deal_to_end), indent=2, default=_json_default) + "\n"
    )
    table = None
    if reproduce:
        table = reproduce_table(result, jacobson, counts, law if result.study.dealing.decks == 8 else None)
        atomic_write(folder / "reproduce.csv", table.write_csv)
        paths["reproduce"] = folder / "reproduce.csv"
        paths["published"] = folder / "published.md"
        atomic_write(paths["published"], published_markdown(table))
    shown: dict[str, str] = {}
    if figures is not None:
        refuse_symlink(folder / "figures", "figures folder")
        for title, path in figures(frames, folder / "figures").items():
            shown[title] = str(path.relative_to(folder))
            paths[f"figure:{path.stem}"] = path
    paths["report"] = folder / "report.md"
    report = markdown_report(result, table, shown, deal_to_end, "published.md" if reproduce else None, exact)
    atomic_write(paths["report"], report)
    return paths


def _frames(result: StudyResult, deal_to_end: StudyResult | None) -> dict[str, pl.DataFrame]:
    """The tables of a run (and of its deal-to-end run), by name."""
    frames: dict[str, pl.DataFrame] = {
        "by_unseen": result.by_unseen(),
        "by_bucket": result.by_bucket(),
        "cumulative": result.cumulative(),
        "claims": result.claims().join(
            pl.concat([study_verdicts(result, o).with_columns(observer=pl.lit(o)) for o in result.study.observers]),
            on=["observer", "bet"],
            how="left",
        ),
        "per_shoe": result.per_shoe(),
        "jacobson": result.jacobson(),
    }
    if "unseen" in result.study.observers:
        frames["variance"] = result.variance()
        frames["variance_by_bucket"] = result.variance_by_bucket()
    if deal_to_end is not None:
        frames |= {
            "by_unseen_deal_to_end": deal_to_end.by_unseen(),
            "cumulative_deal_to_end": deal_to_end.cumulative(),
            "claims_deal_to_end": deal_to_end.claims(),
        }
    return frames


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON-able: {type(value).__name__}")
