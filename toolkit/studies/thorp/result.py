"""The result of a Thorp study: its tally and the tables derived from it (polars frames).

Every table is read from the tally of :mod:`toolkit.studies.thorp.tally`;
nothing is dealt again.  :meth:`StudyResult.claims` makes Thorp's claim
measurable, :meth:`StudyResult.variance` checks the fundamental theorem
(:func:`toolkit.studies.thorp.theory.linear_variance`) and
:meth:`StudyResult.jacobson` gives Jacobson's setting: exact Player and Banker
edges with 18, 26, 34, 42 and 50 unseen cards (he used 100,000 eight-deck
shoes; see also :func:`toolkit.studies.jacobson_setting`).

>>> from toolkit.studies.thorp.run import run_study
>>> from toolkit.studies.thorp.design import ThorpStudy
>>> result = run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player")), progress=False)
>>> result.n_shoes, result.by_unseen()["bet"].unique().sort().to_list()
(20, ['banker', 'player'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from toolkit._stats import normal_quantile, ratio_interval, wilson_interval
from toolkit.studies.thorp.design import DEFAULT_BUCKETS, REGIONS, ThorpStudy, bucket_edges
from toolkit.studies.thorp.tally import Tally, block_spec, panel_values
from toolkit.studies.thorp.theory import depth_one_in_a_million, linear_variance

__all__ = ["DEFAULT_BUCKETS", "StudyResult"]


@dataclass(frozen=True)
class StudyResult:
    """The tally of a study and the tables derived from it (polars frames).

    ``blocks_done < study.n_blocks`` when the run was interrupted (then the
    tables cover the shoes of the finished blocks).

    Attributes
    ----------
    study
        The :class:`~toolkit.studies.thorp.design.ThorpStudy` run.
    tally
        The running sums every table is derived from.
    blocks_done
        Blocks of shoes finished.
    wall_seconds
        Wall-clock time of the run.
    coups_this_run
        Coups evaluated by this run (not by the run it resumed).
    seconds
        Time spent in each part of the work, summed over the workers.
    """

    study: ThorpStudy
    tally: Tally = field(repr=False)
    blocks_done: int = 0
    wall_seconds: float = 0.0
    coups_this_run: int = 0
    seconds: dict[str, float] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        """The size of the study in a few lines (:meth:`by_bucket` and :meth:`by_unseen` hold the tables)."""
        from toolkit._show import text_table

        s = self.study
        rows = [("blocks done", f"{self.blocks_done:,} of {s.n_blocks:,}"), ("shoes", self.n_shoes),
                ("hands", self.n_hands), ("observers", ", ".join(s.observers)), ("bets", ", ".join(s.bet_names)),
                ("wall seconds", self.wall_seconds)]  # fmt: skip
        return text_table(f"StudyResult: {self.n_shoes:,} of {s.n_shoes:,} shoes", rows)

    def _repr_html_(self) -> str:
        from toolkit._show import html_table

        s = self.study
        rows = [("blocks done", f"{self.blocks_done:,} of {s.n_blocks:,}"), ("shoes", self.n_shoes),
                ("hands", self.n_hands), ("observers", ", ".join(s.observers)), ("bets", ", ".join(s.bet_names)),
                ("wall seconds", self.wall_seconds)]  # fmt: skip
        return html_table(f"StudyResult: {self.n_shoes:,} of {s.n_shoes:,} shoes", rows)

    @property
    def complete(self) -> bool:
        return self.blocks_done >= self.study.n_blocks

    @property
    def n_shoes(self) -> int:
        return int(self.tally.arrays["shoes"][0])

    @property
    def n_hands(self) -> int:
        return int(self.tally.arrays["hands"][0].sum())

    @property
    def full_shoe_ev(self) -> np.ndarray:
        """The exact EV of each bet from the full shoe (the shift of the sums)."""
        return panel_values(np.full((1, 13), 4 * self.study.dealing.decks), block_spec(self.study))[0]

    def _grid(self) -> pl.DataFrame:
        """Every (observer, bet, unseen) cell with hands, in long form."""
        a = self.tally.arrays
        obs, bets = self.study.observers, self.study.bet_names
        n_o, n_b, n_d = a["positive"].shape
        hands = a["hands"]
        ev0 = self.full_shoe_ev
        o_idx, b_idx, d_idx = (x.ravel() for x in np.meshgrid(range(n_o), range(n_b), range(n_d), indexing="ij"))
        return pl.DataFrame(
            {
                "observer": np.array(obs)[o_idx],
                "bet": np.array(bets)[b_idx],
                "unseen": d_idx.astype(np.int32),
                "hands": hands[o_idx, d_idx],
                "positive": a["positive"].ravel(),
                "sum_dev": a["sum_dev"].ravel(),
                "sum_dev2": a["sum_dev2"].ravel(),
                "sum_gain": a["sum_gain"].ravel(),
                "max_ev": a["max_ev"].ravel(),
                "ev_full_shoe": ev0[b_idx],
            }
        ).filter(pl.col("hands") > 0)

    @staticmethod
    def _stats(frame: pl.DataFrame) -> pl.DataFrame:
        """Hands, P(EV > 0) with its Wilson interval, mean and SD of EV, mean positive EV, gain, largest EV."""
        lo, hi = wilson_interval(frame["positive"].to_numpy(), frame["hands"].to_numpy())
        n = pl.col("hands").cast(pl.Float64)
        mean_dev = pl.col("sum_dev") / n
        var = ((pl.col("sum_dev2") - n * mean_dev * mean_dev) / (n - 1)).clip(lower_bound=0)
        return frame.with_columns(
            p_positive=pl.col("positive") / n,
            p_low=pl.Series(lo),
            p_high=pl.Series(hi),
            mean_ev=pl.col("ev_full_shoe") + mean_dev,
            sd_ev=pl.when(pl.col("hands") > 1).then(var.sqrt()),
            mean_positive_ev=pl.when(pl.col("positive") > 0).then(pl.col("sum_gain") / pl.col("positive")),
            gain_per_hand=pl.col("sum_gain") / n,
            max_ev=pl.col("max_ev"),
        )

    _COLUMNS = (
        "hands",
        "positive",
        "p_positive",
        "p_low",
        "p_high",
        "mean_ev",
        "sd_ev",
        "mean_positive_ev",
        "gain_per_hand",
        "max_ev",
    )

    def by_unseen(self) -> pl.DataFrame:
        """One row per observer, bet and exact number of unseen cards (where hands were dealt).

        Columns: ``observer, bet, unseen, hands, positive, p_positive, p_low,
        p_high`` (95 % Wilson interval), ``mean_ev, sd_ev, mean_positive_ev``
        (mean EV when positive), ``gain_per_hand`` (E[max(EV, 0)], the perfect
        bettor's gain per hand), ``max_ev``.

        Returns
        -------
        polars.DataFrame
        """
        return self._stats(self._grid()).select("observer", "bet", "unseen", *self._COLUMNS)

    def by_bucket(self, upper_bounds: Sequence[int] = DEFAULT_BUCKETS) -> pl.DataFrame:
        """The same statistics in buckets of unseen cards (``bucket`` labels such as ``"21-30"``).

        Parameters
        ----------
        upper_bounds
            Inclusive upper bounds of the buckets of unseen cards.

        Returns
        -------
        polars.DataFrame
        """
        edges, lows, labels = _buckets(upper_bounds, self.study.dealing.cards)
        grid = self._grid()
        index = np.searchsorted(np.array(edges), grid["unseen"].to_numpy(), side="left")
        grid = grid.with_columns(
            bucket=pl.Series(np.array(labels)[index]),
            unseen_low=pl.Series(np.array(lows)[index]).cast(pl.Int32),
            unseen_high=pl.Series(np.array(edges)[index]).cast(pl.Int32),
        )
        summed = grid.group_by("observer", "bet", "bucket", "unseen_low", "unseen_high").agg(
            pl.col("hands").sum(),
            pl.col("positive").sum(),
            pl.col("sum_dev").sum(),
            pl.col("sum_dev2").sum(),
            pl.col("sum_gain").sum(),
            pl.col("max_ev").max(),
            pl.col("ev_full_shoe").first(),
        )
        out = self._stats(summed).select("observer", "bet", "bucket", "unseen_low", "unseen_high", *self._COLUMNS)
        order = {o: i for i, o in enumerate(self.study.observers)} | {b: i for i, b in enumerate(self.study.bet_names)}
        return out.sort(
            pl.col("observer").replace_strict(order, return_dtype=pl.Int32),
            pl.col("bet").replace_strict(order, return_dtype=pl.Int32),
            "unseen_low",
        )

    def cumulative(self) -> pl.DataFrame:
        """Cumulative shares by depth: of hands, positive opportunities and gain dealt with at most ``unseen`` cards.

        Returns
        -------
        polars.DataFrame
        """
        grid = self._grid().sort("observer", "bet", "unseen")
        over = ["observer", "bet"]
        return grid.select(
            "observer",
            "bet",
            "unseen",
            share_hands_within=pl.col("hands").cum_sum().over(over) / pl.col("hands").sum().over(over),
            share_positive_within=pl.col("positive").cum_sum().over(over) / pl.col("positive").sum().over(over),
            share_gain_within=pl.col("sum_gain").cum_sum().over(over) / pl.col("sum_gain").sum().over(over),
        ).with_columns(pl.col("share_positive_within", "share_gain_within").fill_nan(None))

    def claims(self, confidence: float = 0.95) -> pl.DataFrame:
        """The claim made measurable, one row per observer and bet.

        Columns: ``hands, positive_hands, p_positive`` (per hand);
        ``shoes_with_edge`` (share of shoes with at least one);
        ``opportunities_per_shoe`` and ``gain_per_shoe`` (the perfect bettor
        betting one unit whenever EV > 0) with standard errors over shoes
        (``_se``) and normal 95 % bounds (``_low``/``_high``);
        ``p_positive_low``/``_high`` (the bounds of edges per shoe over hands
        per shoe);
        ``mean_positive_ev``; for each region of :data:`REGIONS`:
        ``share_hands_<region>`` (the baseline: the share of all hands dealt
        there), ``share_positive_<region>`` and ``share_gain_<region>`` with
        ``_low``/``_high`` bounds (delta method over shoes);
        ``deepest_edge`` (most unseen cards with an edge);
        ``depth_one_in_a_million`` (the smallest depth beyond which edges are
        rarer than one in a million hands, point estimate) and
        ``depth_one_in_a_million_upper`` (the same using the upper Wilson bound
        of the rate: null when there are too few hands to show it);
        ``max_ev`` and ``max_ev_unseen``.

        Parameters
        ----------
        confidence
            Of the intervals.

        Returns
        -------
        polars.DataFrame
        """
        a = self.tally.arrays
        n_shoes = self.n_shoes
        rows = []
        for o, observer in enumerate(self.study.observers):
            hands_by_depth = a["hands"][o]
            total_hands = int(hands_by_depth.sum())
            for b, bet in enumerate(self.study.bet_names):
                pos = a["positive"][o, b]
                ss, ss2, cross = a["shoe_sum"][o, b], a["shoe_sum2"][o, b], a["shoe_cross"][o, b]
                n_pos = int(pos.sum())
                mx = a["max_ev"][o, b]
                row: dict[str, Any] = {
                    "observer": observer,
                    "bet": bet,
                    "shoes": n_shoes,
                    "hands": total_hands,
                    "positive_hands": n_pos,
                    "p_positive": n_pos / total_hands if total_hands else None,
                    "shoes_with_edge": int(a["shoes_positive"][o, b]) / n_shoes if n_shoes else None,
                }
                for q, name in enumerate(("opportunities_per_shoe", "gain_per_shoe")):
                    mean = ss[q, -1] / n_shoes
                    var = (ss2[q, -1] - n_shoes * mean * mean) / max(n_shoes - 1, 1)
                    row[name] = float(mean)
                    row[name + "_se"] = float(np.sqrt(max(var, 0) / n_shoes))
                z = normal_quantile(confidence)
                for name in ("opportunities_per_shoe", "gain_per_shoe"):
                    row[name + "_low"] = max(row[name] - z * row[name + "_se"], 0.0)
                    row[name + "_high"] = row[name] + z * row[name + "_se"]
                # P(edge) per hand over shoes (the independent unit): edges per shoe / hands per shoe, hands per
                # shoe taken as fixed (they vary by about 1 %, against tens of per cent for the edges)
                per_shoe = total_hands / n_shoes if n_shoes else 0
                for suffix in ("_low", "_high"):
                    opp = row["opportunities_per_shoe" + suffix]
                    row["p_positive" + suffix] = min(opp / per_shoe, 1.0) if per_shoe else None
                row["mean_positive_ev"] = float(a["sum_gain"][o, b].sum() / n_pos) if n_pos else None
                for r, region in enumerate(REGIONS):
                    lo_d, hi_d = REGIONS[region]
                    region_hands = hands_by_depth[lo_d : hi_d + 1].sum()
                    row[f"share_hands_{region}"] = float(region_hands / total_hands) if total_hands else None
                    for q, name in enumerate(("positive", "gain")):
                        share, lo, hi = ratio_interval(
                            ss[q, r], ss[q, -1], ss2[q, r], cross[q, r], ss2[q, -1], n_shoes, confidence
                        )
                        row[f"share_{name}_{region}"] = _float(share)
                        row[f"share_{name}_{region}_low"] = _float(lo)
                        row[f"share_{name}_{region}_high"] = _float(hi)
                depths = np.flatnonzero(pos)
                row["deepest_edge"] = int(depths.max()) if len(depths) else None
                point, upper = depth_one_in_a_million(pos, hands_by_depth, confidence)
                row["depth_one_in_a_million"] = point
                row["depth_one_in_a_million_upper"] = upper
                seen = hands_by_depth > 0
                row["max_ev"] = float(mx[seen].max()) if seen.any() else None
                row["max_ev_unseen"] = int(np.flatnonzero(seen)[np.argmax(mx[seen])]) if seen.any() else None
                rows.append(row)
        return pl.DataFrame(rows, infer_schema_length=None)

    def per_shoe(self) -> pl.DataFrame:
        """How many shoes had 0, 1, 2, ... positive opportunities (the last row: 64 or more).

        Returns
        -------
        polars.DataFrame
        """
        a = self.tally.arrays["opportunity_hist"]
        rows = [
            {"observer": obs, "bet": bet, "opportunities": k, "shoes": int(a[o, b, k])}
            for o, obs in enumerate(self.study.observers)
            for b, bet in enumerate(self.study.bet_names)
            for k in range(a.shape[2])
        ]
        return pl.DataFrame(rows)

    def _observer_index(self, observer: str) -> int:
        if observer not in self.study.observers:
            raise ValueError(f"observer {observer!r} is not in this study (it has {', '.join(self.study.observers)})")
        return self.study.observers.index(observer)

    def variance(self, observer: str = "unseen") -> pl.DataFrame:
        """The fundamental theorem checked: variance of the exact EV by the number of cards it is computed from.

        The composition an observer evaluates before a coup is (nearly) a
        random subset of the full shoe of that size, so its variance across
        shoes is what :func:`linear_variance` predicts to first order.

        Columns: ``bet, unseen, hands, mean_ev, ev_full_shoe, var_ev`` (across
        hands, one per shoe at most, so across shoes), ``var_linear`` (the
        first-order prediction), ``ratio`` (``var_ev / var_linear``; null for
        bets with no first-order spread, the pair bets) and ``ratio_se`` (its
        standard error were EV normal: ``ratio * sqrt(2 / (hands - 1))``).

        Parameters
        ----------
        observer
            One of the study's observers.

        Returns
        -------
        polars.DataFrame
        """
        self._observer_index(observer)
        stats = self._stats(self._grid()).filter((pl.col("observer") == observer) & (pl.col("hands") > 1))
        depths = np.arange(1, self.study.dealing.cards + 1)
        predicted = linear_variance(depths, self.study.dealing.decks, self.study.bets, self.study.rules)
        pred = pl.DataFrame(
            {
                "bet": np.repeat(np.array(self.study.bet_names), len(depths)),
                "unseen": np.tile(depths, len(self.study.bet_names)).astype(np.int32),
                "var_linear": predicted.T.ravel(),
            }
        )
        out = stats.join(pred, on=["bet", "unseen"], how="left").with_columns(var_ev=pl.col("sd_ev") ** 2)
        return out.select(
            "bet",
            "unseen",
            "hands",
            "mean_ev",
            "ev_full_shoe",
            "var_ev",
            "var_linear",
            ratio=pl.when(pl.col("var_linear") > 0).then(pl.col("var_ev") / pl.col("var_linear")),
        ).with_columns(ratio_se=pl.col("ratio") * (2 / (pl.col("hands") - 1)).sqrt())

    def variance_by_bucket(
        self, upper_bounds: Sequence[int] = DEFAULT_BUCKETS, observer: str = "unseen"
    ) -> pl.DataFrame:
        """:meth:`variance` pooled in buckets of cards: ``ratio = sum((h - 1) var_ev) / sum((h - 1) var_linear)``.

        Parameters
        ----------
        upper_bounds
            Inclusive upper bounds of the buckets.
        observer
            One of the study's observers.

        Returns
        -------
        polars.DataFrame
        """
        table = self.variance(observer)
        edges, lows, labels = _buckets(upper_bounds, self.study.dealing.cards)
        index = np.searchsorted(np.array(edges), table["unseen"].to_numpy(), side="left")
        weight = pl.col("hands") - 1
        return (
            table.with_columns(
                bucket=pl.Series(np.array(labels)[index]),
                unseen_low=pl.Series(np.array(lows)[index]).cast(pl.Int32),
                unseen_high=pl.Series(np.array(edges)[index]).cast(pl.Int32),
            )
            .group_by("bet", "bucket", "unseen_low", "unseen_high")
            .agg(
                hands=pl.col("hands").sum(),
                sd_ev=((weight * pl.col("var_ev")).sum() / weight.sum()).sqrt(),
                sd_linear=((weight * pl.col("var_linear")).sum() / weight.sum()).sqrt(),
                ratio=(weight * pl.col("var_ev")).sum() / (weight * pl.col("var_linear")).sum(),
            )
            .with_columns(
                pl.when(pl.col("sd_linear") > 0).then(pl.col("ratio")).alias("ratio"),
                unseen_mid=(pl.col("unseen_low") + pl.col("unseen_high")) / 2,
            )
            .sort(pl.col("bet").replace_strict({b: i for i, b in enumerate(self.study.bet_names)}), "unseen_low")
        )

    def jacobson(self, confidence: float = 0.95) -> pl.DataFrame:
        """Jacobson's setting: P(EV > 0) for Player and Banker with exactly ``unseen`` cards unseen.

        Columns: ``unseen, bet, samples, positive, p_positive, p_low, p_high,
        mean_ev, mean_positive_ev`` (the average edge when betting only when
        positive), ``max_ev``.

        Parameters
        ----------
        confidence
            Of the Wilson intervals.

        Returns
        -------
        polars.DataFrame
        """
        a = self.tally.arrays
        n = self.n_shoes
        rows = []
        for j, depth in enumerate(self.study.jacobson_depths):
            for k, bet in enumerate(("player", "banker")):
                pos = int(a["jac_positive"][j, k])
                lo, hi = wilson_interval(pos, n, confidence)
                rows.append(
                    {
                        "unseen": depth,
                        "bet": bet,
                        "samples": n,
                        "positive": pos,
                        "p_positive": pos / n if n else None,
                        "p_low": _float(lo),
                        "p_high": _float(hi),
                        "mean_ev": float(a["jac_sum"][j, k] / n) if n else None,
                        "mean_positive_ev": float(a["jac_gain"][j, k] / pos) if pos else None,
                        "max_ev": float(a["max_jac"][j, k]) if n else None,
                    }
                )
        return pl.DataFrame(rows, infer_schema_length=None)

    def beyond(self, depth: int, bets: Sequence[str] = ("player", "banker"), observer: str = "unseen") -> pl.DataFrame:
        """Hands and positive hands with more than ``depth`` unseen cards, per bet, with a Wilson interval.

        Parameters
        ----------
        depth
            Hands with more than this many unseen cards.
        bets
            The bets.
        observer
            One of the study's observers.

        Returns
        -------
        polars.DataFrame
        """
        o = self._observer_index(observer)
        a = self.tally.arrays
        hands = int(a["hands"][o, depth + 1 :].sum())
        rows = []
        for bet in bets:
            b = self.study.bet_names.index(bet)
            pos = int(a["positive"][o, b, depth + 1 :].sum())
            lo, hi = wilson_interval(pos, hands)
            rate = pos / hands if hands else None
            rows.append(
                {
                    "bet": bet,
                    "beyond": depth,
                    "hands": hands,
                    "positive": pos,
                    "rate": rate,
                    "rate_low": _float(lo),
                    "rate_high": _float(hi),
                }
            )
        return pl.DataFrame(rows, infer_schema_length=None)


def _buckets(upper_bounds: Sequence[int], top: int) -> tuple[list[int], list[int], list[str]]:
    return bucket_edges(list(upper_bounds), top)


def _float(x) -> float | None:
    v = float(np.asarray(x))
    return None if np.isnan(v) else v
