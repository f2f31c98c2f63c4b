"""Does a recorded shoe look random?  Tests against the exact odds and against simulated shoes.

Outcomes within a shoe are not independent (the cards are dealt without
replacement, and ties interleave with the Banker/Player results), so every
test here compares the record with what the same rules give:

* :func:`frequency_test`: Banker/Player/Tie (and pair) frequencies against
  the exact probabilities.  For a card-level record each coup has its own
  exact probabilities, from the unseen composition before it; the deviations
  ``observed - expected`` then add up as a martingale, whose covariance is the
  sum of the coups' multinomial covariances, so ``D' V^+ D`` is chi-square with
  ``K - 1`` degrees of freedom (it equals Pearson's statistic,
  :func:`scipy.stats.chisquare`, when every coup has the same probabilities).
  The pair marks are two correlated Bernoulli counts, 2 degrees of freedom.
  For an outcome-only record, each shoe's counts less its number of coups times
  the baseline's proportions are compared with their mean and covariance over a
  baseline of simulated shoes (``K - 1`` degrees of freedom again).
* :func:`runs_test` and :func:`streak_test`: the Wald-Wolfowitz runs statistic
  of each shoe's Banker/Player sequence (ties left out), and its longest
  streak, against their distribution over the baseline.
* :func:`cut_card_test`: the cards left behind the last coup (outcome-only:
  the coups per shoe) against the baseline's distribution, by a chi-square.
* :func:`deck_mixing_test`: the dispersion of the rank counts in every run of
  52 consecutive cards; decks shuffled one by one and stacked leave every
  deck-sized run too even.
* :func:`repeated_sequences`: runs of ``k`` or more cards that occur in two
  shoes (a shoe made from the last one's discards with a weak shuffle), against
  the Poisson number expected by chance.

Every test returns a :class:`TestResult`; :func:`randomness_tests` runs them all
on one baseline.  A baseline is simulated (:func:`baseline`) from ``seed``: an
integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator`
or ``None``.  Under a fair shuffle each p-value is (close to) uniform, so
a test at level 0.05 flags a fair record about 5% of the time; the tests
check this on simulated shoes.

>>> from toolkit.records.simulate import simulate_records
>>> recs = simulate_records(3, seed=4)
>>> result = frequency_test(recs)
>>> result.test, result.df, 0 <= result.p_value <= 1
('frequencies', 2, True)
"""

from __future__ import annotations

from functools import cache

import numpy as np
import polars as pl

from toolkit.bets.paytable import PayTable
from toolkit.bets.pricing import expected_values
from toolkit.parallel import SeedLike
from toolkit.records._calibrate import TestResult, _against_baseline, _baseline, _reference, baseline
from toolkit.records.model import Records

__all__ = [
    "TestResult",
    "baseline",
    "cut_card_test",
    "deck_mixing_test",
    "frequency_test",
    "randomness_tests",
    "repeated_sequences",
    "runs_test",
    "seen_sequences",
    "streak_test",
]

_WINNERS = ("banker", "player", "tie")
_PAIRS = ("player pair", "banker pair")


# ------------------------------------------------------------------ frequencies
def _indicator(name: str, test) -> PayTable:
    return PayTable.from_function(name, lambda o: 1 if test(o) else 0)


@cache
def _probability_bets() -> tuple[PayTable, ...]:
    """The indicator bets whose exact expectations are the per-coup probabilities (built once: immutable)."""
    return (
        _indicator("p_banker", lambda o: o.winner == "banker"),
        _indicator("p_player", lambda o: o.winner == "player"),
        _indicator("p_tie", lambda o: o.winner == "tie"),
        _indicator("p_player_pair", lambda o: o.player_pair),
        _indicator("p_banker_pair", lambda o: o.banker_pair),
        _indicator("p_both_pairs", lambda o: o.player_pair and o.banker_pair),
    )


def _needs_ranks(records: Records, what: str) -> None:
    """Refuse, in one line, a test that compares ranks on a record of values (0-9)."""
    if records.kind == "values":
        raise ValueError(
            f"{records.source}: the {what} compares ranks, and a record of values (0-9) gives only each card's value"
        )


def _categories(coups: pl.DataFrame, pairs: bool) -> np.ndarray:
    """``(coups, K)`` indicators: the winner (one-hot), or the two pair marks."""
    if pairs:
        return coups.select(pl.col("player_pair", "banker_pair").cast(pl.Float64)).to_numpy()
    winners = coups["winner"].to_numpy()
    return (winners[:, None] == np.array(_WINNERS)[None, :]).astype(np.float64)


def _quadratic(d: np.ndarray, cov: np.ndarray) -> tuple[float, int]:
    """``d' cov^+ d`` and the rank of ``cov`` (eigenvalues below 1e-10 of the largest count as zero)."""
    w, v = np.linalg.eigh(cov)
    keep = w > 1e-10 * max(float(w.max()), 0.0)
    z = v[:, keep].T @ d
    return float(np.sum(z * z / w[keep])), int(keep.sum())


def frequency_test(
    records: Records,
    pairs: bool = False,
    base: Records | None = None,
    seed: SeedLike = None,
) -> TestResult:
    """Outcome frequencies against the exact probabilities (see the module notes).

    Parameters
    ----------
    records
        The record (card level: exact per-coup probabilities; outcome only: a
        baseline calibrates the test).
    pairs
        Test the two pair marks (Player pair, Banker pair) instead of the winners.
    base, seed
        The baseline for an outcome-only record (default: simulated from ``seed``).

    Returns
    -------
    TestResult
        The statistic, its p-value and the values behind it.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> frequency_test(simulate_records(4, seed=1)).test
    'frequencies'
    """
    from scipy import stats

    if pairs:
        _needs_ranks(records, "pair frequency test")
    labels = _PAIRS if pairs else _WINNERS
    observed_cat = _categories(records.coups, pairs)
    observed = observed_cat.sum(axis=0)
    if records.dealt is not None:
        probs = expected_values(records.dealt.unseen, _probability_bets(), records.header.rules.tableau)
        if pairs:  # two Bernoulli marks per coup, correlated through P(both)
            p = probs[:, 3:5]
            expected = p.sum(axis=0)
            both = probs[:, 5].sum()
            cov = np.diag(expected) - p.T @ p
            cov[0, 1] += both
            cov[1, 0] += both
        else:  # one multinomial draw per coup
            p = probs[:, 0:3] / probs[:, 0:3].sum(axis=1, keepdims=True)
            expected = p.sum(axis=0)
            cov = np.diag(expected) - p.T @ p
        method = "exact per-coup probabilities"
    else:
        # per shoe, the counts less the baseline's proportions times the shoe's coups: conditioning on the
        # number of coups leaves K - 1 free dimensions, and shoes are independent
        base = _baseline(records, base, seed)
        reference = _reference(base, ("counts", pairs), lambda b: _per_shoe_counts(b.coups, pairs))
        share = reference.sum(axis=0) / reference.sum()
        ref_dev = reference - reference.sum(axis=1, keepdims=True) * share
        own = _per_shoe_counts(records.coups, pairs)
        n = records.n_shoes
        expected = own.sum(axis=1).sum() * share + n * ref_dev.mean(axis=0)
        cov = n * np.cov(ref_dev, rowvar=False)
        method = f"baseline of {base.n_shoes} simulated shoes"
    d = observed - expected
    statistic, df = _quadratic(d, cov)
    p_value = float(stats.chi2.sf(statistic, df))
    table = pl.DataFrame({"outcome": list(labels), "observed": observed, "expected": expected})
    detail = ", ".join(f"{lab} {o:.0f}/{e:.1f}" for lab, o, e in zip(labels, observed, expected, strict=True))
    return TestResult(
        "pair frequencies" if pairs else "frequencies",
        statistic,
        p_value,
        df,
        records.n_shoes,
        f"observed/expected: {detail} ({method})",
        table,
    )


def _per_shoe_counts(coups: pl.DataFrame, pairs: bool) -> np.ndarray:
    cats = _categories(coups, pairs)
    shoe_index = coups.select(pl.col("shoe").rank("dense") - 1).to_series().to_numpy()
    out = np.zeros((int(shoe_index.max()) + 1 if len(shoe_index) else 0, cats.shape[1]))
    np.add.at(out, shoe_index, cats)
    return out


# ------------------------------------------------------------------ runs and streaks
def _shoe_runs(coups: pl.DataFrame) -> pl.DataFrame:
    """Per shoe (in the record's order), its Banker (1) / Player (0) sequence with the ties left out, summed up:
    ``n`` decisions, ``banker`` wins, ``runs`` and the ``longest`` run."""
    decided = coups.filter(pl.col("winner") != "tie").select("shoe", (pl.col("winner") == "banker").alias("b"))
    starts = decided.with_columns(start=(pl.col("b") != pl.col("b").shift(1)).fill_null(True).over("shoe"))
    runs = starts.with_columns(run=pl.col("start").cum_sum().over("shoe"))
    longest = runs.group_by("shoe", "run").len().group_by("shoe").agg(longest=pl.col("len").max())
    per_shoe = runs.group_by("shoe", maintain_order=True).agg(
        n=pl.len(), banker=pl.col("b").sum(), runs=pl.col("start").sum()
    )
    return per_shoe.join(longest, on="shoe", how="left", maintain_order="left")


def _runs_z(shoes: pl.DataFrame) -> np.ndarray:
    """Wald-Wolfowitz z score of the number of runs of each shoe (nan when one side never wins)."""
    n, n1, runs = (shoes[c].to_numpy().astype(np.int64) for c in ("n", "banker", "runs"))
    n2 = n - n1
    z = np.full(len(n), np.nan)
    ok = (n1 > 0) & (n2 > 0)
    n, n1, n2, runs = n[ok], n1[ok], n2[ok], runs[ok]
    mean = 2 * n1 * n2 / n + 1
    var = 2 * n1 * n2 * (2 * n1 * n2 - n) / (n * n * (n - 1))
    spread = var > 0
    z[np.flatnonzero(ok)[spread]] = (runs[spread] - mean[spread]) / np.sqrt(var[spread])
    return z


def runs_test(records: Records, base: Records | None = None, seed: SeedLike = None) -> TestResult:
    """Wald-Wolfowitz runs of each shoe's Banker/Player sequence, against the baseline (two-sided z).

    Too few runs means streaky shoes, too many choppy ones.

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    base
        The baseline: shoes simulated under the record's rules (default: :func:`baseline` from ``seed``).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).

    Returns
    -------
    TestResult
        The statistic, its p-value and the values behind it.

    References
    ----------
    Wald & Wolfowitz, "On a test whether two samples are from the same population", *Ann. Math. Statist.* 11 (1940)
    147-162.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> recs = simulate_records(6, seed=1)
    >>> 0 <= runs_test(recs, baseline(recs, 30, seed=2)).p_value <= 1
    True
    """
    base = _baseline(records, base, seed)
    values = _runs_z(_shoe_runs(records.coups))
    reference = _reference(base, "runs", lambda b: _runs_z(_shoe_runs(b.coups)))
    return _against_baseline("runs", values, reference, records.n_shoes, "runs z score")


def streak_test(records: Records, base: Records | None = None, seed: SeedLike = None) -> TestResult:
    """Longest Banker or Player streak of each shoe (ties left out), against the baseline (two-sided z).

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    base
        The baseline: shoes simulated under the record's rules (default: :func:`baseline` from ``seed``).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).

    Returns
    -------
    TestResult
        The statistic, its p-value and the values behind it.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> recs = simulate_records(6, seed=1)
    >>> streak_test(recs, baseline(recs, 30, seed=2)).test
    'longest streak'
    """
    base = _baseline(records, base, seed)
    values = _shoe_runs(records.coups)["longest"].to_numpy().astype(float)
    reference = _reference(base, "longest", lambda b: _shoe_runs(b.coups)["longest"].to_numpy().astype(float))
    return _against_baseline("longest streak", values, reference, records.n_shoes, "longest streak")


# ------------------------------------------------------------------ cut card
def _shoe_ends(records: Records) -> tuple[np.ndarray, str]:
    """Cards left behind the last coup of each shoe (card level), else coups per shoe."""
    dealt = records.dealt
    if dealt is None:
        return records.shoes["coups"].to_numpy().astype(np.int64), "coups per shoe"
    if len(dealt) == 0:
        return np.zeros(0, np.int64), "cards left after the last coup"
    ends = np.flatnonzero(np.r_[dealt.shoe[1:] != dealt.shoe[:-1], True])
    used = dealt.start[ends] + (dealt.cards[ends] >= 0).sum(axis=1)
    size = 52 * np.array([h.dealing.decks for h in records.headers], dtype=np.int64)[dealt.shoe[ends]]
    return size - used, "cards left after the last coup"


def _pooled_bins(reference: np.ndarray, n: int, min_expected: float = 5.0) -> np.ndarray:
    """Upper edges of bins of the baseline's values holding at least ``min_expected`` of ``n`` shoes each."""
    values, freq = np.unique(reference, return_counts=True)
    share = freq / freq.sum()
    edges, acc = [], 0.0
    for v, s in zip(values, share, strict=True):
        acc += s
        if acc * n >= min_expected:
            edges.append(v)
            acc = 0.0
    if edges and acc > 0:
        edges[-1] = values[-1]
    return np.array(edges)


def cut_card_test(records: Records, base: Records | None = None, seed: SeedLike = None) -> TestResult:
    """Where each shoe ended (cards left behind the last coup) against the baseline's distribution (chi-square).

    Under the header's cut card every shoe ends within a few cards of the same
    place; a cut card placed elsewhere (or shoes cut short) shows here.
    Outcome-only records compare the number of coups per shoe instead.

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    base
        The baseline: shoes simulated under the record's rules (default: :func:`baseline` from ``seed``).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).

    Returns
    -------
    TestResult
        The statistic, its p-value and the values behind it.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> recs = simulate_records(6, seed=1)
    >>> cut_card_test(recs, baseline(recs, 30, seed=2)).test
    'cut card'
    """
    from scipy import stats

    base = _baseline(records, base, seed)
    values, what = _shoe_ends(records)
    reference, _ = _shoe_ends(base) if records.dealt is not None else _shoe_ends(base.outcomes())
    n = len(values)
    edges = _pooled_bins(reference, n)
    if len(edges) < 2:
        table = pl.DataFrame({"up_to": edges, "observed": [n] * len(edges), "expected": [float(n)] * len(edges)})
        return TestResult("cut card", 0.0, 1.0, 0, n, f"too few shoes to compare the {what}", table)
    bins = np.concatenate([[-np.inf], edges[:-1] + 0.5, [np.inf]])
    observed = np.histogram(values, bins)[0]
    expected = np.histogram(reference, bins)[0] / len(reference) * n
    result = stats.chisquare(observed, expected)
    table = pl.DataFrame({"up_to": edges, "observed": observed, "expected": expected})
    detail = f"{what}: mean {values.mean():.1f} (baseline {reference.mean():.1f}) over {len(edges)} bins"
    return TestResult("cut card", float(result.statistic), float(result.pvalue), len(edges) - 1, n, detail, table)


# ------------------------------------------------------------------ card order
def seen_sequences(records: Records) -> tuple[np.ndarray, np.ndarray]:
    """Rank indices of the cards seen in each shoe, in dealing order (exposed burn card, then the coups).

    Returns the ranks of all shoes one after the other and the ``(n_shoes + 1,)`` offsets.
    """
    if records.cards is None or records.dealt is None:
        raise ValueError("the card order tests need a card-level record")
    _needs_ranks(records, "card order test")
    dealt = records.dealt
    order = (0, 3, 1, 4, 2, 5)  # dealing order: P1 B1 P2 B2 P3 B3
    cards = dealt.cards[:, order]
    exposed = dealt.burn_card
    per_shoe = np.bincount(dealt.shoe, weights=(cards >= 0).sum(axis=1), minlength=records.n_shoes).astype(np.int64)
    per_shoe += exposed >= 0
    offsets = np.concatenate([[0], np.cumsum(per_shoe)])
    seq = np.empty(offsets[-1], np.int8)
    seq[offsets[:-1][exposed >= 0]] = exposed[exposed >= 0]
    body = np.ones(offsets[-1], bool)
    body[offsets[:-1][exposed >= 0]] = False
    flat = cards.ravel()
    seq[body] = flat[flat >= 0]
    return seq, offsets


def _window_dispersion(seq: np.ndarray, offsets: np.ndarray, width: int = 52) -> np.ndarray:
    """Per shoe: mean over every run of ``width`` consecutive seen cards of sum_r (count_r - width/13)^2.

    A window's counts sum to ``width``, so its term is sum_r count_r^2 - width^2/13: the squares are summed in
    integers over every window of the record at once, and each shoe's windows are a range of that running sum.
    """
    out = np.full(len(offsets) - 1, np.nan)
    windows = np.diff(offsets) - width + 1  # windows of each shoe (none where it saw fewer than width cards)
    if not (windows > 0).any():
        return out
    square = np.zeros(len(seq) - width + 1, np.int32)  # [i]: sum_r count_r^2 in seq[i : i + width]
    for rank in range(13):  # a rank at a time: a few MB of scratch, not a one-hot table of the whole record
        cum = np.concatenate([[0], np.cumsum(seq == rank, dtype=np.int32)])
        count = cum[width:] - cum[:-width]
        square += count * count
    squares = np.concatenate([[0], np.cumsum(square, dtype=np.int64)])
    ok = windows > 0
    starts = offsets[:-1][ok]
    out[ok] = (squares[starts + windows[ok]] - squares[starts]) / windows[ok] - width * width / 13
    return out


def deck_mixing_test(records: Records, base: Records | None = None, seed: SeedLike = None) -> TestResult:
    """Dispersion of the rank counts in every 52 consecutive cards seen, against the baseline (two-sided z).

    A well-mixed shoe spreads each rank's 4 per deck unevenly over deck-sized
    stretches; decks shuffled separately and stacked hold exactly 4 of each
    rank per deck, so the dispersion falls (clumped ranks raise it).

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    base
        The baseline: shoes simulated under the record's rules (default: :func:`baseline` from ``seed``).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).

    Returns
    -------
    TestResult
        The statistic, its p-value and the values behind it.

    Examples
    --------
    >>> from toolkit.dealing.shuffles import stacked_shoes
    >>> from toolkit.records.simulate import records_from_orders, simulate_records
    >>> stacked = records_from_orders(stacked_shoes(1, seed=1))
    >>> deck_mixing_test(stacked, simulate_records(30, seed=2)).p_value < 0.01
    True
    """
    base = _baseline(records, base, seed)
    values = _window_dispersion(*seen_sequences(records))
    reference = _reference(base, "dispersion", lambda b: _window_dispersion(*seen_sequences(b)))
    return _against_baseline("deck mixing", values, reference, records.n_shoes, "rank dispersion per 52 cards")


#: Chance that two cards from different shuffled shoes share a rank (every rank is 1/13 of a full shoe).
_Q = 1 / 13


def _window_pairs(lengths: np.ndarray, k: int, consecutive: bool) -> float:
    """Pairs of ``k``-card windows from two different shoes (all pairs, or shoe i with shoe i + 1)."""
    windows = np.maximum(lengths - k + 1, 0).astype(np.float64)
    if consecutive:
        return float(windows[:-1] @ windows[1:])
    return float((windows.sum() ** 2 - (windows**2).sum()) / 2)


def _expected_runs(lengths: np.ndarray, k: int, consecutive: bool) -> float:
    return _window_pairs(lengths, k, consecutive) * _Q**k * (1 - _Q)


def repeated_sequences(
    records: Records, k: int | None = None, consecutive: bool = False
) -> tuple[TestResult, pl.DataFrame]:
    """Runs of ``k`` or more cards (by rank) seen in the same order in two different shoes.

    Under a fair shuffle, the number of such runs (counted once each, from
    where they start) is close to Poisson with mean ``pairs of windows * q^k *
    (1 - q)``, ``q = 1/13`` being the chance that two cards from different
    shoes share a rank.  ``k`` defaults to the smallest length (at least 4)
    whose expected count is at most 1.  With ``consecutive=True`` only each
    shoe and the next one in the record are compared: fewer chance matches, so
    shorter runs count, and a shoe made from the previous one's discards with
    a weak shuffle shows at once.

    Parameters
    ----------
    records
        A card-level record.
    k
        The shortest run counted (default: see above).
    consecutive
        Compare only each shoe with the next.

    Returns
    -------
    (TestResult, polars.DataFrame)
        The test (one-sided Poisson p-value) and the matches: ``shoe_a,
        position_a, shoe_b, position_b, length`` (positions count the seen
        cards of the shoe from 1).

    Examples
    --------
    >>> from toolkit.dealing.dealer import shuffled_shoes
    >>> from toolkit.dealing.shuffles import riffle_shuffle
    >>> from toolkit.records.simulate import records_from_orders
    >>> first = shuffled_shoes(1, seed=1)[0]
    >>> reused = records_from_orders(np.stack([first, riffle_shuffle(first, seed=2)]))
    >>> result, matches = repeated_sequences(reused, consecutive=True)
    >>> result.p_value < 0.001
    True
    """
    from scipy import stats

    seq, offsets = seen_sequences(records)
    lengths = np.diff(offsets)
    if k is None:
        k = next((n for n in range(4, 17) if _expected_runs(lengths, n, consecutive) <= 1), 16)
    if not 1 <= k <= 16:
        raise ValueError(f"k must be 1..16 cards (the run is hashed into 64 bits), got {k}")
    shoe_of = np.repeat(np.arange(len(lengths)), lengths)
    pos = np.arange(len(seq)) - offsets[shoe_of]
    valid = pos <= lengths[shoe_of] - k
    starts = np.flatnonzero(valid)
    code = np.zeros(len(starts), np.int64)
    for t in range(k):
        code = code * 13 + seq[starts + t]
    windows = pl.DataFrame({"code": code, "shoe": shoe_of[starts], "pos": pos[starts]})
    shared = windows.filter(pl.col("shoe").n_unique().over("code") > 1)
    pairs = (
        shared.join(shared, on="code", suffix="_b")
        .filter((pl.col("shoe_b") == pl.col("shoe") + 1) if consecutive else (pl.col("shoe") < pl.col("shoe_b")))
        .select("shoe", "pos", "shoe_b", "pos_b")
    )
    previous = pairs.with_columns(pl.col("pos") + 1, pl.col("pos_b") + 1, pl.lit(True).alias("_cont"))
    marked = pairs.join(previous, on=["shoe", "pos", "shoe_b", "pos_b"], how="left")
    ids = records.shoes["shoe"]
    matches = (
        marked.sort("shoe", "shoe_b", "pos")
        .with_columns((pl.col("pos") - pl.col("pos_b")).alias("_diag"))
        .with_columns(pl.col("_cont").is_null().cum_sum().over("shoe", "shoe_b", "_diag").alias("_run"))
        .group_by("shoe", "shoe_b", "_diag", "_run", maintain_order=True)
        .agg(pl.col("pos").first(), pl.col("pos_b").first(), (pl.len() + k - 1).alias("length"))
        .select(
            pl.col("shoe").alias("shoe_a"),
            (pl.col("pos") + 1).alias("position_a"),
            pl.col("shoe_b"),
            (pl.col("pos_b") + 1).alias("position_b"),
            pl.col("length").cast(pl.Int64),
        )
    )
    matches = matches.with_columns(
        ids.gather(matches["shoe_a"]).alias("shoe_a"), ids.gather(matches["shoe_b"]).alias("shoe_b")
    )
    expected = _expected_runs(lengths, k, consecutive)
    found = matches.height
    p_value = float(stats.poisson.sf(found - 1, expected)) if found else 1.0
    longest = int(matches["length"].to_numpy().max()) if found else 0
    across = "in consecutive shoes" if consecutive else "across shoes"
    detail = f"{found} runs of {k}+ cards repeated {across} (expected {expected:.2f} by chance); longest {longest}"
    table = pl.DataFrame({"k": [k], "found": [found], "expected": [expected], "longest": [longest]})
    name = "repeated sequences" + (" (consecutive shoes)" if consecutive else "")
    return TestResult(name, float(found), p_value, None, records.n_shoes, detail, table), matches


# ------------------------------------------------------------------ all tests
def randomness_tests(
    records: Records,
    base: Records | None = None,
    seed: SeedLike = None,
    n_baseline: int = 2000,
) -> pl.DataFrame:
    """Every test that applies to the record, on one baseline: ``test, statistic, p_value, df, shoes, detail``.

    Parameters
    ----------
    records
        The record (:class:`~toolkit.records.model.Records`).
    base
        The baseline: shoes simulated under the record's rules (default: :func:`baseline` from ``seed``).
    seed
        An integer, a :class:`numpy.random.SeedSequence`, a :class:`numpy.random.Generator` or ``None`` (fresh entropy).
    n_baseline
        Shoes of the baseline when none is given.

    Returns
    -------
    polars.DataFrame
        One row per test.

    Examples
    --------
    >>> from toolkit.records.simulate import simulate_records
    >>> recs = simulate_records(6, seed=1)
    >>> randomness_tests(recs, baseline(recs, 30, seed=2))["test"].to_list()[:3]
    ['frequencies', 'pair frequencies', 'runs']
    """
    if base is None:
        base = baseline(records, n_baseline, seed)
    ranks = records.kind != "values"  # a record of values tells no pairs and no rank order
    results = [
        frequency_test(records, base=base),
        *([frequency_test(records, pairs=True, base=base)] if ranks else []),
        runs_test(records, base),
        streak_test(records, base),
        cut_card_test(records, base),
    ]
    if records.dealt is not None and ranks:
        results += [
            deck_mixing_test(records, base),
            repeated_sequences(records)[0],
            repeated_sequences(records, consecutive=True)[0],
        ]
    schema = {
        "test": pl.String,
        "statistic": pl.Float64,
        "p_value": pl.Float64,
        "df": pl.Int64,
        "shoes": pl.Int64,
        "detail": pl.String,
    }
    return pl.DataFrame([r.row() for r in results], schema=schema)
