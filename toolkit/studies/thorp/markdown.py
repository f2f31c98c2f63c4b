"""The report of a Thorp study (``report.md``): the answer and its figure first, then the numbers.

The report opens with one paragraph that answers the study's question
(:func:`answer`) and the figure drawn under the name :data:`ANSWER_FIGURE`;
then the main table, with 95 % intervals on the chance of an edge, on the
perfect bettor's gain per shoe and on the shares of edges by depth, and the
smallest depth reached; then the same shoes dealt to the end (no cut card),
compared; then each bet in words, Jacobson's setting and the fundamental
theorem.  The published figures go in their own file (``published.md``,
:func:`published_markdown`) with a one-line summary here.

>>> from toolkit.studies import ThorpStudy, run_study
>>> result = run_study(ThorpStudy(n_shoes=30, seed=2, bets=("banker", "player")), progress=False)
>>> text = markdown_report(result, deal_to_end=run_study(result.study.dealt_to_end(10), progress=False))
>>> "## Dealt to the end (no cut card)" in text, "smallest depth reached" in text
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from toolkit.studies.thorp._text import bet_group, bet_label, by_family, complement, in_words, one_in, pct
from toolkit.studies.thorp.exact_depths import coverage
from toolkit.studies.thorp.report import ALMOST_ALWAYS, smallest_depths, study_verdicts, thorp_status
from toolkit.studies.thorp.result import StudyResult

__all__ = [
    "ANSWER_FIGURE",
    "answer",
    "markdown_report",
    "markdown_table",
    "published_markdown",
    "published_summary",
]


def _md_table(frame: pl.DataFrame) -> str:
    cols = frame.columns
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.iter_rows():
        lines.append("| " + " | ".join("" if v is None else str(v).replace("|", "/") for v in row) + " |")
    return "\n".join(lines)


def markdown_table(frame: pl.DataFrame) -> str:
    """A polars frame as a GitHub markdown table (``None`` as an empty cell).

    Parameters
    ----------
    frame
        Any frame; its values are written with ``str``.

    Returns
    -------
    str

    Examples
    --------
    >>> print(markdown_table(pl.DataFrame({"bet": ["Banker"], "edges": [3]})))
    | bet | edges |
    |---|---|
    | Banker | 3 |
    """
    return _md_table(frame)


def _interval(value: float | None, low: float | None, high: float | None, digits: int) -> str:
    return f"{pct(value, digits)} [{pct(low, digits)}, {pct(high, digits)}]"


def _units(value: float, low: float, high: float) -> str:
    return f"{value:.4f} [{low:.4f}, {high:.4f}]"


def _family_rows(claims: pl.DataFrame) -> list[dict[str, Any]]:
    rows = {r["bet"]: r for r in claims.to_dicts()}
    return [rows[b] for b in by_family(list(rows))]


def _numbers_table(claims: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "bet": bet_label(r["bet"]),
                "P(edge) per hand [95 % CI]": _interval(r["p_positive"], r["p_positive_low"], r["p_positive_high"], 3),
                "gain per shoe, units [95 % CI]": _units(
                    r["gain_per_shoe"], r["gain_per_shoe_low"], r["gain_per_shoe_high"]
                ),
                "edges with 20 or fewer cards unseen [95 % CI]": _interval(
                    r["share_positive_last_20"], r["share_positive_last_20_low"], r["share_positive_last_20_high"], 0
                ),
                "edges with more than 50 cards unseen [95 % CI]": _interval(
                    r["share_positive_beyond_50"],
                    r["share_positive_beyond_50_low"],
                    r["share_positive_beyond_50_high"],
                    0,
                ),
                "gain with 20 or fewer unseen": pct(r["share_gain_last_20"], 0),
                "deepest edge (cards unseen)": r["deepest_edge"],
                "Thorp's claim": thorp_status(r),
            }
            for r in _family_rows(claims)
        ]
    )


def _both(rows: Sequence[Any], text: Callable[[Any], str]) -> str:
    """``text(row)`` for each row, joined: "a and b", "a, b and c"."""
    parts = [text(r) for r in rows]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _lead(status: dict[str, str], end_status: dict[str, str] | None) -> str:
    if all(s == "holds" for s in status.values()):
        return "Yes, on the main bets"
    if end_status and all(s == "holds" for s in end_status.values()):
        return "Only when the shoe is dealt to the end"
    if all(s in ("holds", "holds only partly") for s in status.values()):
        return "Partly"
    if end_status and all(s in ("holds", "holds only partly") for s in end_status.values()):
        return "Partly, and only when the shoe is dealt to the end"
    return "Not as stated"


def answer(result: StudyResult, deal_to_end: StudyResult | None = None) -> str:
    """The report's first paragraph: the answer to the study's question, with its numbers.

    Parameters
    ----------
    result
        The casino-dealing run.
    deal_to_end
        The same study dealt with no cut card
        (:meth:`~toolkit.studies.ThorpStudy.dealt_to_end`), if it was run.

    Returns
    -------
    str
        One paragraph of markdown, starting with the answer in bold.

    Examples
    --------
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> result = run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player")), progress=False)
    >>> answer(result).startswith("**")
    True
    """
    observer = result.study.observers[0]
    claims = {r["bet"]: r for r in result.claims().filter(pl.col("observer") == observer).to_dicts()}
    main = [b for b in ("banker", "player") if b in claims] or list(claims)[:1]
    rows = [claims[b] for b in main]
    names = _both(rows, lambda r: bet_label(r["bet"]))
    depth = smallest_depths(result)[observer]
    d = result.study.dealing
    casino = f"cut card {d.cut_card} cards from the end" if d.cut_card else "no cut card"
    if not any(r["positive_hands"] for r in rows):
        return f"**No edge was seen on {names}** in {result.n_hands:,} hands ({result.n_shoes:,} shoes, {casino})."
    status = {r["bet"]: thorp_status(r) for r in rows}
    end_rows: list[dict[str, Any]] = []
    end_status = None
    if deal_to_end is not None:
        end = {r["bet"]: r for r in deal_to_end.claims().filter(pl.col("observer") == observer).to_dicts()}
        end_rows = [end[b] for b in main if b in end]
        end_status = {r["bet"]: thorp_status(r) for r in end_rows}
    text = [
        f"**{_lead(status, end_status)}.** On {names} edges are very rare "
        f"({_both(rows, lambda r: one_in(r['p_positive']))}) and very small "
        f"({_both(rows, lambda r: '+' + pct(r['mean_positive_ev'], 2))} on average when present), and they "
        f"belong to the end of the shoe: {_both(rows, lambda r: pct(complement(r['share_positive_beyond_50']), 0))} "
        "of them come with 50 or fewer cards unseen.",
        f"Dealt as a casino deals ({casino}), {_both(rows, lambda r: pct(r['share_positive_last_20'], 0))} come "
        f"with 20 or fewer cards unseen, where only {pct(rows[0]['share_hands_last_20'])} of hands are dealt.",
    ]
    if end_rows:
        text.append(
            f"Dealt to the end (no cut card), {_both(end_rows, lambda r: pct(r['share_positive_last_20'], 0))} do "
            f"({pct(end_rows[0]['share_hands_last_20'])} of hands are dealt there)."
        )
    end_depth = smallest_depths(deal_to_end)[observer] if deal_to_end is not None else None
    reached = f"{depth} unseen cards" + (f" ({end_depth} dealt to the end)" if end_depth is not None else "")
    text.append(f'No coup starts with fewer than {reached}, so Thorp\'s "last 5 to 20 cards" are here the last 20.')
    deep = [
        in_words(b)
        for b, r in claims.items()
        if bet_group(b) != "main bets" and (r["share_positive_beyond_50"] or 0) > 0.5
    ]
    if deep:
        text.append(
            f"The side bets are another story: {_both(deep, str)} have edges all through the shoe, most of them with "
            "more than 50 cards unseen."
        )
    return " ".join(text)


#: The file stem of the figure the report shows under its answer (drawn by :func:`toolkit.plots.save_study_figures`).
ANSWER_FIGURE = "where_the_edges_are"


def _setting(result: StudyResult, who: str) -> str:
    study, d = result.study, result.study.dealing
    cut = f"cut card {d.cut_card} cards from the end, last hand rule {d.last_hand}" if d.cut_card else "no cut card"
    return (
        f"{result.n_shoes:,} shuffled {d.decks}-deck shoes (seed {study.seed}), {result.n_hands:,} hands; burn "
        f"{d.burn}, {cut}. Before every coup the exact expectation of every bet was computed from {who}. An "
        "*edge* is a positive expectation; the *perfect bettor* bets one unit whenever there is one. Depths are "
        "counted in the cards that observer has not seen before the coup."
    )


def _depth_note(result: StudyResult, observer: str) -> str:
    depth = smallest_depths(result)[observer]
    last_5 = result.claims().filter(pl.col("observer") == observer)["share_hands_last_5_20"][0]
    last_20 = result.claims().filter(pl.col("observer") == observer)["share_hands_last_20"][0]
    same = last_5 == last_20
    return (
        f"**The smallest depth reached is {depth} cards unseen**: no coup starts with fewer than six cards left "
        "(a coup may need six), and the cards burned face down stay unseen"
        + (
            '. So no hand is dealt with fewer than 5 unseen cards, and Thorp\'s "last 5 to 20 cards" holds '
            'exactly the hands of "the last 20": the tables read it as 20 or fewer cards unseen.'
            if same
            else f"; {pct(last_20 - last_5)} of hands are dealt with fewer than 5 unseen cards."
        )
    )


def _comparison(result: StudyResult, end: StudyResult, observer: str) -> list[str]:
    casino = {r["bet"]: r for r in result.claims().filter(pl.col("observer") == observer).to_dicts()}
    ended = {r["bet"]: r for r in end.claims().filter(pl.col("observer") == observer).to_dicts()}
    rows = []
    for bet in by_family(list(casino)):
        a, b = casino[bet], ended[bet]
        rows.append(
            {
                "bet": bet_label(bet),
                "edges with 20 or fewer cards unseen: casino -> dealt to the end": _interval(
                    a["share_positive_last_20"], a["share_positive_last_20_low"], a["share_positive_last_20_high"], 0
                )
                + " -> "
                + _interval(
                    b["share_positive_last_20"], b["share_positive_last_20_low"], b["share_positive_last_20_high"], 0
                ),
                "more than 50 unseen": f"{pct(a['share_positive_beyond_50'], 0)} -> "
                f"{pct(b['share_positive_beyond_50'], 0)}",
                "gain per shoe, units": f"{a['gain_per_shoe']:.4f} -> "
                + _units(b["gain_per_shoe"], b["gain_per_shoe_low"], b["gain_per_shoe_high"]),
                "Thorp's claim": f"{thorp_status(a)} -> {thorp_status(b)}",
            }
        )
    first = next(iter(casino.values()))
    d_casino, d_end = smallest_depths(result)[observer], smallest_depths(end)[observer]
    fewer = (
        f" The run deals fewer shoes than the casino run ({end.n_shoes:,} against {result.n_shoes:,}, to keep the "
        "command short), so its intervals are wider."
        if end.n_shoes < result.n_shoes
        else ""
    )
    main = [b for b in ("banker", "player") if b in casino]
    moved = (
        " On the main bets the share of edges in the last 20 cards goes "
        + _both(
            [casino[b] for b in main],
            lambda r: (
                f"from {pct(r['share_positive_last_20'], 0)} to "
                f"{pct(ended[r['bet']]['share_positive_last_20'], 0)} ({bet_label(r['bet'])})"
            ),
        )
        + ": the chance of an edge at a given depth is the same, but more hands are dealt where edges are frequent."
        if main
        else ""
    )
    return [
        "## Dealt to the end (no cut card)",
        "",
        f"Thorp's sentence reads most fairly of a shoe whose last cards are played. The first {end.n_shoes:,} "
        f"shoes of the same seed, dealt with no cut card: a coup starts whenever at least six cards are left (the "
        f"burn is kept). {pct(ended[next(iter(ended))]['share_hands_last_20'])} of hands are dealt with 20 or "
        f"fewer cards unseen (casino: {pct(first['share_hands_last_20'])}); the smallest depth reached is {d_end} "
        f"cards unseen (casino: {d_casino}).{fewer}{moved}",
        "",
        _md_table(pl.DataFrame(rows)),
    ]


def _status_kind(status: str) -> str:
    """The kind of a published figure's status: ``"match"``, ``"pending"``, ``"computed without a verdict"``..."""
    kind = status.split(" (", 1)[0].split(":", 1)[0].lower()
    return kind.replace("; no verdict", " without a verdict")


def published_summary(reproduce: pl.DataFrame) -> str:
    """One line on the published figures: how many match, differ, are pending or carry no verdict.

    Parameters
    ----------
    reproduce
        From :func:`toolkit.studies.reproduce_table` (``figure``, ``status``).

    Returns
    -------
    str

    Examples
    --------
    >>> published_summary(pl.DataFrame({"figure": ["a", "b", "c"], "status": ["match", "match", "pending: x"]}))
    '3 published figures: 2 match, 1 pending.'
    """
    kinds = reproduce["status"].map_elements(_status_kind, return_dtype=pl.String)
    counts = kinds.value_counts(sort=True)
    parts = ", ".join(f"{n} {kind}" for kind, n in counts.iter_rows())
    return f"{reproduce.height} published figures: {parts}."


def published_markdown(reproduce: pl.DataFrame) -> str:
    """The published figures beside the toolkit's values, as a markdown document (``published.md``).

    Parameters
    ----------
    reproduce
        From :func:`toolkit.studies.reproduce_table`.

    Returns
    -------
    str

    Examples
    --------
    >>> from toolkit.studies import reproduce_table
    >>> published_markdown(reproduce_table()).startswith("# Published figures")
    True
    """
    return "\n".join(
        [
            "# Published figures, reproduced",
            "",
            published_summary(reproduce),
            "",
            "Every figure of `data/reference` beside the toolkit's value; the sources and units are in "
            "`reproduce.csv`.",
            "",
            _md_table(reproduce.select("figure", "published", "toolkit", "status")),
            "",
        ]
    )


def _numbers_section(result: StudyResult, claims: pl.DataFrame, deal_to_end: StudyResult | None) -> list[str]:
    """The first observer's numbers, the baseline and the depth note (and the deal-to-end comparison)."""
    observer = result.study.observers[0]
    who = (
        "the cards a perfect counter has not seen (burned cards stay unseen)"
        if observer == "unseen"
        else "the cards left in the shoe (an observer who also saw the burned cards)"
    )
    lines = ["", "## The numbers", "", _setting(result, who), "", _md_table(_numbers_table(claims)), ""]
    lines += [
        f"Baseline: {pct(claims['share_hands_last_20'][0])} of all hands are dealt with 20 or fewer cards unseen, "
        f"{pct(complement(claims['share_hands_beyond_50'][0]))} with 50 or fewer. Intervals are 95 %, with shoes "
        "as the independent unit: the shares by the delta method, P(edge) as edges per shoe over hands per shoe, "
        'the gain per shoe as a normal interval. *Thorp\'s claim* reads "almost always" as at least '
        f"{ALMOST_ALWAYS:.0%} of the edges (criteria: `toolkit.studies.thorp.report`).",
        "",
        _depth_note(result, observer),
    ]
    if deal_to_end is not None:
        lines += ["", *_comparison(result, deal_to_end, observer)]
    return lines


def _verdict_section(result: StudyResult, exact: pl.DataFrame | None = None) -> list[str]:
    """The verdicts bet by bet, grouped by family (with the exact table's figures where it has the bet), then each
    further observer's numbers."""
    study = result.study
    words = study_verdicts(result, study.observers[0])
    lines = ["", "## Verdict, bet by bet", ""]
    said = {r["bet"]: r for r in words.to_dicts()}
    ordered = by_family(list(said))
    for group in dict.fromkeys(bet_group(b) for b in ordered):
        lines += [f"**{group}**", ""]
        lines += [
            f"- {said[b]['verdict']}" + (_exact_verdict(exact, b) if exact is not None and exact.height else "")
            for b in ordered
            if bet_group(b) == group
        ]
        lines.append("")
    for observer in study.observers[1:]:
        other = result.claims().filter(pl.col("observer") == observer)
        lines += [
            "",
            f"### The {observer} observer",
            "",
            "A stronger, hypothetical observer who also saw the burned cards: expectations from the cards left in "
            f"the shoe, depths in cards left (the smallest reached: {smallest_depths(result)[observer]}). Same "
            "shoes, same hands.",
            "",
            _md_table(_numbers_table(other)),
            "",
            f"Baseline: {pct(other['share_hands_last_20'][0])} of all hands are dealt with 20 or fewer cards left.",
        ]
    return lines


def _jacobson_section(result: StudyResult) -> list[str]:
    """Jacobson's fixed-depth table, and his claim about hands beyond 50 cards when it applies."""
    study = result.study
    jac = pl.DataFrame(
        [
            {
                "unseen": r["unseen"],
                "bet": bet_label(r["bet"]),
                "P(EV > 0)": pct(r["p_positive"], 2),
                "95 % CI": f"{pct(r['p_low'], 2)} - {pct(r['p_high'], 2)}",
                "mean edge when positive": pct(r["mean_positive_ev"], 2),
            }
            for r in result.jacobson().to_dicts()
        ]
    )
    lines = [
        "",
        "## Jacobson's computer-perfect setting",
        "",
        f"Exact Player and Banker edges with a fixed number of unseen cards (the last cards of each of the "
        f"{result.n_shoes:,} shoes; Jacobson used 100,000).",
        "",
        _md_table(jac),
    ]
    if "unseen" in study.observers and {"player", "banker"} <= set(study.bet_names):
        beyond = result.beyond(50)
        lines += [
            "",
            "Jacobson: *beyond 50 cards, effectively no player edge on either wager.* In this run: "
            + "; ".join(
                f"{bet_label(r['bet'])} {r['positive']:,} edges in {r['hands']:,} hands dealt with more than 50 unseen "
                f"cards ({one_in(r['rate'])})"
                for r in beyond.to_dicts()
            )
            + ".",
        ]
    return lines


def _theorem_section(result: StudyResult) -> list[str]:
    """Observed over predicted variance of the exact EV by depth (Thorp and Walden's theorem)."""
    var = result.variance_by_bucket()
    shown = [
        b for b in ("banker", "player", "tie", "natural9", "dragon7", "player_pair") if b in result.study.bet_names
    ]
    wide = (
        var.filter(pl.col("bet").is_in(shown))
        .with_columns(pl.col("ratio").round(2))
        .pivot(on="bet", index=["bucket", "unseen_low"], values="ratio")
        .sort("unseen_low", descending=True)
        .drop("unseen_low")
    )
    return [
        "",
        "## The fundamental theorem",
        "",
        "Thorp and Walden (1973): the spread of expectations grows as the shoe is depleted. The linear "
        "(effect-of-removal) prediction of the variance of the exact EV with n cards left is "
        "(N - n) / (n (N - 1)) (N - 1)^2 sum_c p_c EOR_c^2 (derivation: `toolkit.studies.linear_variance`). "
        "Observed variance / predicted, by cards unseen (1 = the linear picture is exact; the pair bets have "
        "no first-order spread, so no ratio):",
        "",
        _md_table(wide),
        "",
        "The linear picture holds to a few per cent deep in the shoe and fails in the last few dozen cards, "
        "exactly where the edges are.",
    ]


def _exact_at(table: pl.DataFrame) -> tuple[dict[tuple[str, int], float], list[str], int, int]:
    """The exact P(EV > 0) by (bet, depth), the bets, and the table's first and last depths."""
    at = {(r["bet"], r["unseen"]): r["exact_p_positive"] for r in table.to_dicts()}
    return at, list(dict.fromkeys(table["bet"].to_list())), int(table["unseen"].min()), int(table["unseen"].max())  # type: ignore[arg-type]


def _exact_lead(table: pl.DataFrame) -> str:
    """One sentence under the answer: the exact chance of an edge with the fewest and the most cards of the table."""
    at, bets, first, last = _exact_at(table)
    return (
        "Exactly (every composition of the last cards weighed, not sampled): an edge is there with probability "
        + "; ".join(f"{pct(at[(b, first)], 1)} for {bet_label(b)}" for b in bets)
        + f" with {first} cards left, and {'; '.join(f'{pct(at[(b, last)], 1)} for {bet_label(b)}' for b in bets)} "
        f"with {last} (section *The last cards, exactly*)."
    )


def _exact_verdict(table: pl.DataFrame, bet: str) -> str:
    """What the exact table says of ``bet`` at the depths of Thorp's claim it holds (empty when it holds none)."""
    at, bets, first, last = _exact_at(table)
    if bet not in bets:
        return ""
    depths = sorted({first, *(d for d in (20, last) if first <= d <= last)})
    said = ", ".join(f"{pct(at[(bet, d)], 2)} with {d} cards left" for d in depths)
    return f" Exactly, P(EV > 0) is {said} (every composition of the last {first} to {last} cards weighed)."


def _exact_section(table: pl.DataFrame, which: str) -> list[str]:
    """The exact law of the last cards beside the sampled shares, with the intervals' coverage."""
    covered, cells = coverage(table)
    at, bets, first, last = _exact_at(table)
    shown = pl.DataFrame(
        [
            {
                "unseen": r["unseen"],
                "bet": bet_label(r["bet"]),
                "exact P(EV > 0)": pct(r["exact_p_positive"], 3),
                "sampled": "" if r["hands"] is None else pct(r["p_positive"], 2),
                "95 % CI": "" if r["hands"] is None else f"{pct(r['p_low'], 2)} - {pct(r['p_high'], 2)}",
                "hands": r["hands"],
                "exact E[max(EV, 0)]": f"{r['exact_mean_positive']:.2e}",
            }
            for r in table.to_dicts()
        ]
    )
    cited = "; ".join(
        f"{bet_label(b)} {pct(at[(b, first)], 1)} with {first} cards left, {pct(at[(b, last)], 1)} with {last}"
        for b in bets
    )
    return [
        "",
        "## The last cards, exactly",
        "",
        f"With n cards unseen the unseen cards are a uniformly random n-card subset of the shoe, so the chance of "
        f"an edge there is known exactly: every composition of the last {first} to {last} cards priced and "
        "weighted (`baccarat last-cards`; `baccarat thorp --exact-cards-left 6-26` takes this table to 26). "
        f"Exactly: {cited}. Beside it the shares sampled in the {which} (coups that start with n unseen cards) "
        "with their 95 % Wilson intervals, which hold the "
        f"exact value in {covered} of {cells} depths ({pct(covered / cells if cells else None, 0)}; about 95 % "
        "expected).",
        "",
        _md_table(shown),
    ]


def _run_time(result: StudyResult, deal_to_end: StudyResult | None) -> list[str]:
    """The closing line on wall and worker seconds (nothing when the run was not timed)."""
    t = result.seconds
    if not result.wall_seconds:
        return []
    return [
        "",
        f"Run time {result.wall_seconds:.1f} s for {result.coups_this_run:,} coups this run "
        f"(worker seconds: dealing {t.get('deal', 0):.1f}, exact EVs {t.get('ev', 0):.1f}, "
        f"aggregation {t.get('aggregate', 0):.1f}, Jacobson's setting {t.get('jacobson', 0):.1f})"
        + (f"; dealt to the end {deal_to_end.wall_seconds:.1f} s" if deal_to_end is not None else "")
        + ".",
    ]


def markdown_report(
    result: StudyResult,
    reproduce: pl.DataFrame | None = None,
    figures: Mapping[str, str] | None = None,
    deal_to_end: StudyResult | None = None,
    published: str | None = None,
    exact: pl.DataFrame | None = None,
) -> str:
    """The report a researcher reads first: the answer and its figure, then the numbers.

    Parameters
    ----------
    result
        The casino-dealing run.
    reproduce
        From :func:`toolkit.studies.reproduce_table`: summed up in one line
        (the table itself goes in its own file, ``published``).
    figures
        Paths of the figures (relative to the report) by title; the one named
        :data:`ANSWER_FIGURE` is shown under the answer.
    deal_to_end
        The same study dealt with no cut card, compared with ``result``.
    published
        The file holding the published figures' table (named in the report).
    exact
        From :func:`~toolkit.studies.thorp.exact_depths.exact_beside_sampled` (on ``deal_to_end`` when given):
        the exact law of the last cards beside the sampled shares, in its own section.

    Returns
    -------
    str
        Markdown.

    Examples
    --------
    >>> from toolkit.studies import ThorpStudy, run_study
    >>> result = run_study(ThorpStudy(n_shoes=20, seed=1, bets=("banker", "player")), progress=False)
    >>> markdown_report(result).splitlines()[2].startswith("**")
    True
    """
    study = result.study
    claims = result.claims().filter(pl.col("observer") == study.observers[0])
    lines = ["# Do baccarat edges appear only in the last 5-20 cards?", "", answer(result, deal_to_end)]
    if exact is not None and exact.height:
        lines += ["", _exact_lead(exact)]
    pictures = dict(figures or {})
    first = next((t for t, path in pictures.items() if Path(path).stem == ANSWER_FIGURE), None)
    if first is not None:
        lines += ["", f"![{first}]({pictures.pop(first)})"]
    if not result.complete:
        lines += ["", f"**Partial run:** {result.blocks_done} of {study.n_blocks} blocks."]
    lines += _numbers_section(result, claims, deal_to_end)
    lines += _verdict_section(result, exact)
    if exact is not None and exact.height:
        lines += _exact_section(exact, "shoes dealt to the end" if deal_to_end is not None else "study")
    lines += _jacobson_section(result)
    if "unseen" in study.observers:
        lines += _theorem_section(result)
    if pictures:
        lines += ["", "## Figures", ""]
        for title, path in pictures.items():
            lines.append(f"![{title}]({path})")
            lines.append("")
    if reproduce is not None:
        where = f" The table, figure by figure, is in `{published}`." if published else ""
        lines += ["", "## Published figures, reproduced", "", published_summary(reproduce) + where]
    lines += _run_time(result, deal_to_end)
    return "\n".join(lines) + "\n"
