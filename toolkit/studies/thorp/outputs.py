"""The files of a run: the tables (Parquet and CSV), ``summary.json``, ``reproduce.csv`` and ``report.md``.

Figures are not drawn here (the studies sit below the plots): a caller that
wants them passes the function that draws them, as ``baccarat thorp`` passes
:func:`toolkit.plots.save_study_figures`.

>>> import tempfile
>>> from toolkit.studies import ThorpStudy, run_study
>>> result = run_study(ThorpStudy(shoes=20, seed=1, bets=("banker", "player")), progress=False)
>>> paths = write_outputs(result, tempfile.mkdtemp(), reproduce=False)
>>> sorted(paths)[:3], paths["report"].name
(['by_bucket', 'by_unseen', 'claims'], 'report.md')
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from toolkit._files import atomic_write, refuse_symlink
from toolkit.studies.thorp.report import markdown_report, summary, verdicts
from toolkit.studies.thorp.reproduce import reproduce_table
from toolkit.studies.thorp.result import StudyResult

__all__ = ["TABLES", "FigureWriter", "write_outputs"]

#: What draws the figures of a run: ``figures(tables, folder)`` writes them and returns their paths by title.
FigureWriter = Callable[[Mapping[str, pl.DataFrame], Path], Mapping[str, Path]]

TABLES = ("by_unseen", "by_bucket", "cumulative", "claims", "per_shoe", "variance", "variance_by_bucket", "jacobson")


def write_outputs(
    result: StudyResult,
    out: str | os.PathLike,
    reproduce: bool = True,
    figures: FigureWriter | None = None,
    jacobson: pl.DataFrame | None = None,
    counts: dict[str, Any] | None = None,
) -> dict[str, Path]:
    """Write the tables (Parquet and CSV, in ``tables/``), ``summary.json`` and ``report.md``.

    With ``reproduce``, also ``reproduce.csv`` (and its table in the report):
    the published figures, with the study's own rows and ``counts`` (from
    :func:`toolkit.studies.count_providers`; without it the count results stay
    pending).  With ``figures``, a function such as
    :func:`toolkit.plots.save_study_figures`, it is called as
    ``figures(tables, out / "figures")`` with the tables written (by name) and
    the figures it returns (paths by title) are listed in the report.
    Returns the paths written, by name (a figure as ``"figure:<file stem>"``).
    """
    if figures is not None and (isinstance(figures, bool) or not callable(figures)):
        raise TypeError(
            "write_outputs(figures=...) takes the function that draws the figures, such as "
            f"toolkit.plots.save_study_figures, or None; got {figures!r}"
        )
    folder = refuse_symlink(out, "output folder")
    refuse_symlink(folder / "tables", "output folder")
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    frames: dict[str, pl.DataFrame] = {
        "by_unseen": result.by_unseen(),
        "by_bucket": result.by_bucket(),
        "cumulative": result.cumulative(),
        "claims": result.claims().join(
            pl.concat([verdicts(result, o).with_columns(observer=pl.lit(o)) for o in result.study.observers]),
            on=["observer", "bet"],
            how="left",
        ),
        "per_shoe": result.per_shoe(),
        "jacobson": result.jacobson(),
    }
    if "unseen" in result.study.observers:
        frames["variance"] = result.variance()
        frames["variance_by_bucket"] = result.variance_by_bucket()
    for name, frame in frames.items():
        atomic_write(folder / "tables" / f"{name}.parquet", frame.write_parquet)
        atomic_write(folder / "tables" / f"{name}.csv", frame.write_csv)
        paths[name] = folder / "tables" / f"{name}.parquet"
    paths["summary"] = folder / "summary.json"
    atomic_write(paths["summary"], json.dumps(summary(result), indent=2, default=_json_default) + "\n")
    table = None
    if reproduce:
        table = reproduce_table(result, jacobson, counts)
        atomic_write(folder / "reproduce.csv", table.write_csv)
        paths["reproduce"] = folder / "reproduce.csv"
    shown: dict[str, str] = {}
    if figures is not None:
        refuse_symlink(folder / "figures", "figures folder")
        for title, path in figures(frames, folder / "figures").items():
            shown[title] = str(path.relative_to(folder))
            paths[f"figure:{path.stem}"] = path
    paths["report"] = folder / "report.md"
    atomic_write(paths["report"], markdown_report(result, table, shown))
    return paths


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON-able: {type(value).__name__}")
