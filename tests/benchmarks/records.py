"""Ingesting card-level shoe records: 10,000 shoes read, checked and rebuilt, against a per-row Python loop.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/records.py              # 10,000 shoes
    python tests/benchmarks/records.py --shoes 2000 --baseline-shoes 100

It simulates ``--shoes`` 8-deck shoes (seed 1), writes them as an observer's long-form record
(the exposed burn card and the coups, no roles, so every coup is rebuilt by the tableau) to
CSV and to Parquet in a temporary folder, and times :func:`toolkit.records.read_records` on
each: parsing, card codes, positions, rank counts and the numba kernel that rebuilds the
coups and the unseen composition before each.  The baseline reads the same CSV with the
standard library and does the same work one row and one card at a time in Python, on the
first ``--baseline-shoes`` shoes (its time is scaled to all shoes).  Both must find the same
coups.  With ``--replay`` it also times :func:`toolkit.records.replay_records` (exact EVs of the 17
standard bets before every coup) on all the shoes.  With ``--foreign N`` it also runs the scaling
figures of the foreign layouts (``foreign_records.py``: ``N`` hands of each of the five public
formats read without options, and ``N`` single-coup shoes against the same coups in long shoes).
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from toolkit.coup.cards import RANK_VALUES, parse_card
from toolkit.records import read_records, simulate_records, write_records


def python_loop_ingest(path: Path, max_shoes: int, decks: int = 8) -> dict[str, list[tuple]]:
    """The same work one row and one card at a time.

    Reads and checks every row (card code, position sequence, rank counts), deals the
    recorded cards by the tableau (standard burn, face-down burns not listed), and keeps for
    each coup what :func:`read_records` keeps: its cards, the unseen composition and the
    cards seen before it, and each card's role and coup.  Returns ``{shoe: [(p1, p2, p3, b1,
    b2, b3), unseen, seen) per coup]}``.
    """
    rows: dict[str, list[tuple[int, int]]] = {}
    with path.open(newline="") as f:
        reader = csv.reader(line for line in f if not line.startswith("#"))
        next(reader)
        for shoe, position, card in reader:
            if shoe not in rows:
                if len(rows) == max_shoes:
                    break
                rows[shoe] = []
            rows[shoe].append((int(position), parse_card(card)))
    out = {}
    for shoe, cards in rows.items():
        cards.sort()
        if [p for p, _ in cards] != list(range(1, len(cards) + 1)):
            raise ValueError(f"shoe {shoe}: positions are not 1..n")
        ranks = [r for _, r in cards]
        counts = [0] * 13
        for r in ranks:
            counts[r] += 1
            if counts[r] > 4 * decks:
                raise ValueError(f"shoe {shoe}: too many cards of one rank")
        unseen = [4 * decks] * 13
        unseen[ranks[0]] -= 1  # the exposed burn card is seen
        roles = ["burn"] + [""] * (len(ranks) - 1)
        coup_of = [0] * len(ranks)
        pos = seen = 1
        coups = []
        while pos < len(ranks):
            if pos + 4 > len(ranks):
                raise ValueError(f"shoe {shoe}: truncated")
            start = pos
            p1, b1, p2, b2 = ranks[pos : pos + 4]
            pos += 4
            pt = (RANK_VALUES[p1] + RANK_VALUES[p2]) % 10
            bt = (RANK_VALUES[b1] + RANK_VALUES[b2]) % 10
            p3 = b3 = -1
            hands = ["player", "banker", "player", "banker"]
            if pt < 8 and bt < 8:
                third = None
                if pt <= 5:
                    p3 = ranks[pos]
                    pos += 1
                    third = RANK_VALUES[p3]
                    hands.append("player")
                if _banker_draws(bt, third):
                    b3 = ranks[pos]
                    pos += 1
                    hands.append("banker")
            coups.append(((p1, p2, p3, b1, b2, b3), tuple(unseen), seen))
            for i, hand in zip(range(start, pos), hands, strict=True):
                roles[i] = hand
                coup_of[i] = len(coups)
                unseen[ranks[i]] -= 1
            seen += pos - start
        out[shoe] = coups
    return out


def _banker_draws(total: int, third: int | None) -> bool:
    if third is None:
        return total <= 5
    return (
        total <= 2
        or (total == 3 and third != 8)
        or (total == 4 and 2 <= third <= 7)
        or (total == 5 and 4 <= third <= 7)
        or (total == 6 and third in (6, 7))
    )


def best_of(repeats: int, fn):
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10_000)
    parser.add_argument("--baseline-shoes", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--replay", action="store_true", help="also time the replay of every shoe")
    parser.add_argument("--foreign", type=int, metavar="HANDS", help="also time HANDS hands of each foreign layout")
    args = parser.parse_args(argv)
    if args.foreign:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from foreign_records import main as foreign_main

        foreign_main(["--hands", str(args.foreign), "--repeats", str(args.repeats)])

    start = time.perf_counter()
    records = simulate_records(args.shoes, seed=1, suits=True).observed()
    print(f"simulated {args.shoes:,} shoes in {time.perf_counter() - start:.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        csv_path = write_records(records, Path(folder) / "shoes.csv", roles=False)
        pq_path = write_records(records, Path(folder) / "shoes.parquet", roles=False)
        print(f"CSV {csv_path.stat().st_size / 1e6:.0f} MB, Parquet {pq_path.stat().st_size / 1e6:.1f} MB")
        read_records(pq_path)  # compile and load the kernel once
        t_csv, from_csv = best_of(args.repeats, lambda: read_records(csv_path))
        t_pq, from_pq = best_of(args.repeats, lambda: read_records(pq_path))
        assert from_csv.report.ok
        assert from_pq.report.ok
        assert from_csv.n_shoes == args.shoes
        n_base = min(args.baseline_shoes, args.shoes)
        t_loop, loop = best_of(1, lambda: python_loop_ingest(csv_path, n_base))
        t_loop_all = t_loop * args.shoes / n_base

    dealt = from_csv.dealt
    for i, (shoe, coups) in enumerate(loop.items()):
        mine = dealt.cards[dealt.shoe == i]
        assert str(from_csv.shoe_ids[i]) == shoe, shoe
        assert mine.tolist() == [list(c[0]) for c in coups], shoe
        assert dealt.unseen[dealt.shoe == i].tolist() == [list(c[1]) for c in coups], shoe
    n_coups = len(dealt)
    print(f"{args.shoes:,} shoes, {n_coups:,} coups, {int(from_csv.shoes['cards_seen'].sum()):,} cards")
    print(f"{'path':<44}{'seconds':>10}{'shoes/s':>12}{'ratio':>10}")
    for name, t in (
        ("read_records, CSV (polars + numba kernel)", t_csv),
        ("read_records, Parquet", t_pq),
        (f"Python loop per row (scaled from {n_base} shoes)", t_loop_all),
    ):
        print(f"{name:<44}{t:>10.2f}{args.shoes / t:>12,.0f}{t / t_csv:>10.1f}")
    print(f"the vectorised CSV ingest is {t_loop_all / t_csv:.0f}x faster than the per-row loop")
    if args.replay:
        from toolkit.records import replay_records

        t_replay, frame = best_of(1, lambda: replay_records(from_csv, systems=["dragon7", "panda8"]))
        print(f"replay with exact EVs of 17 bets: {t_replay:.1f} s, {frame.height / t_replay:,.0f} coups/s")
    return 0 if np.isfinite(t_csv) else 1


if __name__ == "__main__":
    sys.exit(main())
