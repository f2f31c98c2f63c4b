"""Re-implementations of the writers of public baccarat simulators, for reading their files in tests.

Each function deals shoes the way the named program does and writes them as it does, bugs
included, from an injected random stream (no network, no third-party code):

* :func:`halverson_rows`, :func:`write_halverson_csv`, :func:`write_halverson_db`:
  ``stevenhalverson/baccarat_simulator`` (``the_deal.py`` at commit 0a09de1, ``simulation.py`` at
  4ae9aae, ``data_access.py`` at 49f025f, ``get_cards.py`` at bea5014).  Cards are values 0-9; the
  first card is turned up and its value (0 as 10) burned; coups are dealt while more than 14
  cards remain.  Its third-card block carries three faults, reproduced here: a hand that stands
  keeps the previous coup's third card when the block is skipped (a Player natural against no
  Banker natural) or when Player stands on 0-5 against a Banker natural; Banker's draw rules for
  4, 5 and 6 read Player's third card even when Player stood, so Banker stands on 4, 5 and 6
  then; and its draws are chained ``if``\\ s, so a Banker who draws on 0-2 to a 3-6 may draw
  again (the record shows only the last card, the total counts both).  The CSV is pandas'
  ``to_csv(index=False)``; the database is pandas' ``to_sql("simulation_results")`` after
  ``reset_index`` (an ``id`` column) and a ``create_date`` column.
* :func:`write_silvestre_report`: ``rjsilvestre/baccarat`` (``baccarat-sim.py`` at 0103d6f,
  ``rules.py`` at 16fe085, ``hands.py`` and ``cards.py`` at 4d502e9): a text report, ``\\nShoe
  number N\\n\\n``, then one line a coup ``W,banco total,punto total,banco cards x3,punto cards x3``
  (values, ``x`` for no third card), then the shoe's results; a correct tableau, no burn, coups
  dealt while six cards or more remain.
* :func:`write_lanlicyuen_csv`: ``lanlicyuen/Baccarat_Simulator`` (``baccarat_core.py`` at
  df270d2): ranks ``A 2..10 J Q K``, hands as JSON lists in a cell, ``hand_no`` running across
  shoes, no shoe column, the shoe refilled when 52 cards or fewer remain (``shoe_cards_left``
  jumps up), always-Banker bets with their bankroll columns.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import numpy as np

HALVERSON_COLUMNS = [
    "b total",
    "player total",
    "pcard1",
    "pcard2",
    "pcard3",
    "bcard1",
    "bcard2",
    "bcard3",
    "outcome",
    "rounds",
    "banker streak",
    "player streak",
    "tie streak",
    "shoe number",
]
VALUE_DECK = [1, 2, 3, 4, 5, 6, 7, 8, 9] * 4 + [0] * 16


def _halverson_shoe(shoe: list[int]) -> list[list[object]]:
    """One shoe dealt by ``DealCards.deal_cards``: the rows it records, faults included."""
    cut = shoe.pop(0)
    shoe = shoe[(10 if cut == 0 else cut) :]
    rows: list[list[object]] = []
    p3 = b3 = None
    streaks = {"banker win": 0, "player win": 0, "tie": 0}
    rounds = 0
    while len(shoe) > 14:
        p1, b1, p2, b2 = (shoe.pop(0) for _ in range(4))
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        if pt not in (8, 9) or bt in (8, 9):
            if pt in (6, 7, 8, 9):
                p3 = None
            if bt in (7, 8, 9):
                b3 = None
            if pt in (0, 1, 2, 3, 4, 5) and bt not in (8, 9):
                p3 = shoe.pop(0)
                pt = (pt + p3) % 10
            if bt in (0, 1, 2, 3, 4, 5, 6):
                if bt in (0, 1, 2):
                    b3 = shoe.pop(0)
                    bt = (bt + b3) % 10
                if bt == 3 and p3 != 8:
                    b3 = shoe.pop(0)
                    bt = (bt + b3) % 10
                if bt == 4 and p3 in (2, 3, 4, 5, 6, 7):
                    b3 = shoe.pop(0)
                    bt = (bt + b3) % 10
                if bt == 5 and p3 in (4, 5, 6, 7):
                    b3 = shoe.pop(0)
                    bt = (bt + b3) % 10
                if bt == 6 and p3 in (6, 7):
                    b3 = shoe.pop(0)
                    bt = (bt + b3) % 10
        outcome = "banker win" if bt > pt else "player win" if pt > bt else "tie"
        for key, run in streaks.items():
            streaks[key] = run + 1 if key == outcome else (run if outcome == "tie" else 0)
        rounds += 1
        rows.append(
            [
                bt,
                pt,
                p1,
                p2,
                p3,
                b1,
                b2,
                b3,
                outcome,
                rounds,
                streaks["banker win"],
                streaks["player win"],
                streaks["tie"],
            ]
        )
    return rows


def halverson_rows(n_shoes: int, seed: int) -> list[list[object]]:
    """The rows ``BaccaratSimulation.begin_simulation`` collects (8 decks a shoe), with the shoe number."""
    rng = np.random.default_rng(seed)
    out = []
    for number in range(1, n_shoes + 1):
        shoe = [int(v) for v in rng.permutation(VALUE_DECK * 8)]
        out += [[*row, number] for row in _halverson_shoe(shoe)]
    return out


def _pandas_cell(value: object) -> str:
    return "" if value is None else str(value)


def write_halverson_csv(path: Path, rows: list[list[object]]) -> Path:
    """``data_frames.to_csv(file_path, index=False)``."""
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(HALVERSON_COLUMNS)
        writer.writerows([[_pandas_cell(v) for v in row] for row in rows])
    return path


def write_halverson_db(path: Path, rows: list[list[object]]) -> Path:
    """``save_to_db``: ``reset_index`` as ``id``, a ``create_date`` column, ``to_sql("simulation_results")``."""
    columns = ["id", *HALVERSON_COLUMNS, "create_date"]
    connection = sqlite3.connect(path)
    try:
        kinds = ["INTEGER"] + ["INTEGER"] * 8 + ["TEXT"] + ["INTEGER"] * 5 + ["TIMESTAMP"]
        names = ", ".join(f'"{c}" {k}' for c, k in zip(columns, kinds, strict=True))
        connection.execute(f"CREATE TABLE simulation_results ({names})")
        marks = ", ".join("?" for _ in columns)
        connection.executemany(
            f"INSERT INTO simulation_results VALUES ({marks})",
            [[i, *row, "2024-01-01 00:00:00.000000"] for i, row in enumerate(rows)],
        )
        connection.commit()
    finally:
        connection.close()
    return path


# ------------------------------------------------------------------ rjsilvestre/baccarat
_SILVESTRE_RANKS = ["ace", 2, 3, 4, 5, 6, 7, 8, 9, 10, "jack", "queen", "king"]


def _silvestre_value(rank: object) -> int:
    return rank if isinstance(rank, int) and 2 <= rank <= 9 else 1 if rank == "ace" else 0


def _banco_draws(banco: int, punto_third: int | None) -> bool:
    """``Banco.draw_third``."""
    rules = {3: [0, 1, 2, 3, 4, 5, 6, 7, 9], 4: [2, 3, 4, 5, 6, 7], 5: [4, 5, 6, 7], 6: [6, 7]}
    if punto_third is not None:
        return banco <= 2 or (3 <= banco <= 6 and punto_third in rules[banco])
    return banco <= 5


def write_silvestre_report(path: Path, n_shoes: int, seed: int, decks: int = 8) -> Path:
    """The text file ``baccarat-sim.py -s n_shoes -d decks`` writes."""
    rng = np.random.default_rng(seed)
    total = {"banco": 0, "punto": 0, "tie": 0}
    games = 0
    lines = []
    for number in range(1, n_shoes + 1):
        cards = [_silvestre_value(r) for r in _SILVESTRE_RANKS] * 4 * decks
        cards = [cards[i] for i in rng.permutation(len(cards))]
        wins = {"banco": 0, "punto": 0, "tie": 0}
        lines.append(f"\nShoe number {number}\n\n")
        while len(cards) >= 6:
            punto = [cards.pop(), cards.pop()]
            banco = [cards.pop(), cards.pop()]
            if sum(punto) % 10 < 8 and sum(banco) % 10 < 8:
                if sum(punto) % 10 <= 5:
                    punto.append(cards.pop())
                    if _banco_draws(sum(banco) % 10, punto[2]):
                        banco.append(cards.pop())
                elif _banco_draws(sum(banco) % 10, None):
                    banco.append(cards.pop())
            p, b = sum(punto) % 10, sum(banco) % 10
            result = "punto" if p > b else "banco" if b > p else "tie"
            wins[result] += 1
            total[result] += 1
            games += 1
            hands = (
                [str(v) for v in banco] + ["x"] * (3 - len(banco)) + [str(v) for v in punto] + ["x"] * (3 - len(punto))
            )
            lines.append(",".join([result.title()[0], str(b), str(p), *hands]) + "\n")
        lines.append("\nShoe results:\n")
        lines += [f"{k.title()}:\t{v}\n" for k, v in wins.items()]
    lines.append("\nTotal results:\n")
    lines += [f"{k.title()}:\t{v}\t    ({round(v / games * 100, 4)}%)\n" for k, v in total.items()]
    path.write_text("".join(lines))
    return path


# ------------------------------------------------------------------ lanlicyuen/Baccarat_Simulator
_LANLICYUEN_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
LANLICYUEN_FIELDS = [
    "timestamp",
    "hand_no",
    "bet_side",
    "bet_amount",
    "player_cards",
    "banker_cards",
    "player_total",
    "banker_total",
    "outcome",
    "win_amount",
    "bankroll_after",
    "shoe_cards_left",
    "commission_paid",
    "cumulative_win",
]


def _point(rank: str) -> int:
    return 1 if rank == "A" else 0 if rank in ("10", "J", "Q", "K") else int(rank)


def lanlicyuen_hands(hands: int, seed: int, decks: int = 8, penetration: int = 52) -> list[dict[str, object]]:
    """The events ``simulate_hands`` yields (always-Banker, 100 a hand): one dict a hand."""
    rng = np.random.default_rng(seed)

    def fresh() -> list[str]:
        deck = [r for _ in range(decks) for r in _LANLICYUEN_RANKS for _ in range(4)]
        return [deck[i] for i in rng.permutation(len(deck))]

    shoe = fresh()
    bankroll = cumulative = 0.0
    events = []
    for hand_no in range(1, hands + 1):
        if len(shoe) < 6 or len(shoe) <= penetration:
            shoe = fresh()
        player = [shoe.pop(), shoe.pop()]
        banker = [shoe.pop(), shoe.pop()]
        pt, bt = sum(map(_point, player)) % 10, sum(map(_point, banker)) % 10
        if pt < 8 and bt < 8:
            third = None
            if pt <= 5:
                player.append(shoe.pop())
                third = _point(player[2])
                pt = sum(map(_point, player)) % 10
            if _lanlicyuen_banker_draws(bt, third):
                banker.append(shoe.pop())
                bt = sum(map(_point, banker)) % 10
        outcome = "player" if pt > bt else "banker" if bt > pt else "tie"
        win = 0.0 if outcome == "tie" else 95.0 if outcome == "banker" else -100.0
        bankroll += win
        cumulative += win
        events.append(
            {
                "timestamp": f"2025-01-01T00:00:{hand_no % 60:02d}",
                "hand_no": hand_no,
                "bet_side": "banker",
                "bet_amount": 100.0,
                "player_cards": player,
                "banker_cards": banker,
                "player_total": pt,
                "banker_total": bt,
                "outcome": outcome,
                "win_amount": win,
                "bankroll_after": 100000.0 + bankroll,
                "shoe_cards_left": len(shoe),
                "commission_paid": 5.0 if outcome == "banker" else 0.0,
                "cumulative_win": cumulative,
            }
        )
    return events


def _lanlicyuen_banker_draws(total: int, third: int | None) -> bool:
    if third is None:
        return total <= 5
    return (
        total <= 2
        or (total == 3 and third != 8)
        or (total == 4 and 2 <= third <= 7)
        or (total == 5 and 4 <= third <= 7)
        or (total == 6 and third in (6, 7))
    )


def write_lanlicyuen_csv(path: Path, hands: int, seed: int) -> Path:
    """``save_csv``: a ``csv.DictWriter`` row a hand, the hands as JSON lists, the run's parameters after."""
    params = {"strategy": "always-banker", "bet_size": 100.0, "decks": 8, "penetration": 52, "seed": seed}
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=[*LANLICYUEN_FIELDS, *params])
        writer.writeheader()
        for event in lanlicyuen_hands(hands, seed):
            row = dict(event)
            row["player_cards"] = json.dumps(row["player_cards"], ensure_ascii=False)
            row["banker_cards"] = json.dumps(row["banker_cards"], ensure_ascii=False)
            row.update(params)
            writer.writerow(row)
    return path
