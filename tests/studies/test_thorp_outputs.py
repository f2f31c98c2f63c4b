"""The files of a run (``toolkit.studies.thorp.outputs``), the figures drawn by the function the caller passes."""

from __future__ import annotations

import polars as pl
import pytest

from toolkit.plots import save_study_figures
from toolkit.studies import write_outputs


def test_write_outputs(plain, tmp_path) -> None:
    paths = write_outputs(plain, tmp_path, reproduce=True, figures=save_study_figures)
    for name in ("by_unseen", "by_bucket", "claims", "variance", "jacobson"):
        assert (tmp_path / "tables" / f"{name}.parquet").is_file()
        assert pl.read_csv(tmp_path / "tables" / f"{name}.csv").height > 0
    assert pl.read_parquet(paths["claims"])["verdict"].null_count() == 0
    figures = sorted(p.name for p in (tmp_path / "figures").glob("*.png"))
    assert {"p_positive_by_unseen.png", "mean_positive_ev_by_unseen.png", "variance_by_unseen.png"} <= set(figures)
    assert any(f.startswith("gain_share_by_depth") for f in figures)
    report = paths["report"].read_text()
    for heading in ("## Verdict", "## Jacobson's computer-perfect setting", "## The fundamental theorem",
                    "## Published figures, reproduced", "figures/p_positive_by_unseen.png"):  # fmt: skip
        assert heading in report
    reproduce = pl.read_csv(paths["reproduce"])
    assert reproduce.filter(pl.col("figure") == "house_edge_8d_banker")["status"].item() == "match"
    assert reproduce.filter(pl.col("figure") == "jacobson_perfect_18")["toolkit"].item().startswith("P(Player EV > 0)")


def test_write_outputs_draws_no_figures_unless_given_a_function(plain, tmp_path) -> None:
    paths = write_outputs(plain, tmp_path, reproduce=False)
    assert not (tmp_path / "figures").exists()
    assert not any(name.startswith("figure:") for name in paths)
    assert "## Figures" not in paths["report"].read_text()
    with pytest.raises(TypeError, match="takes the function that draws the figures"):
        write_outputs(plain, tmp_path, reproduce=False, figures=True)
