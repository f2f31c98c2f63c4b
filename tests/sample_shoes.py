"""The sample shoe records of ``data/shoes/``: how they are made, so that they can be made again.

Run ``python tests/sample_shoes.py`` from the repository root to rewrite them;
``tests/records/test_records.py`` checks that the files in ``data/shoes/`` are exactly
what this module writes (seeds below).  The deliberately malformed files of
``data/shoes/malformed/`` are written by hand here too, with the problem each
one must raise listed in ``data/shoes/malformed/expected.csv``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
SHOES = ROOT / "data" / "shoes"

#: Seeds of the simulated samples (``SeedSequence`` roots, see toolkit.records.simulate_records).
SEEDS = {
    "cards_observed.csv": 20240401,
    "cards_complete.parquet": 20240402,
    "coups_with_bets.jsonl": 20240403,
    "coups_6decks.csv": 20240404,
    "roads.csv": 20240405,
    "mixed.csv": 20240406,
}


def _bettors(records, rng: np.random.Generator) -> pl.DataFrame:
    """Three bettors: flat on Banker, at random on Banker or Player, and a Dragon 7 counter (big at TC >= 4)."""
    from toolkit.records import replay_records

    frame = replay_records(records, systems=["dragon7"], bets=["banker"]).select("shoe", "coup", "tc_dragon7")
    n = frame.height
    flat = frame.select(
        "shoe", "coup", pl.lit("seat1").alias("who"), pl.lit("banker").alias("bet"), pl.lit(10.0).alias("amount")
    )
    random_side = frame.select(
        "shoe",
        "coup",
        pl.lit("seat2").alias("who"),
        pl.Series("bet", np.where(rng.random(n) < 0.5, "banker", "player")),
        pl.Series("amount", rng.choice([5.0, 10.0, 25.0, 50.0], n)),
    )
    counter = frame.select(
        "shoe",
        "coup",
        pl.lit("seat3").alias("who"),
        pl.lit("dragon7").alias("bet"),
        pl.when(pl.col("tc_dragon7") >= 4).then(pl.lit(25.0)).otherwise(pl.lit(1.0)).alias("amount"),
    )
    return pl.concat([flat, random_side, counter]).sort("shoe", "coup", "who")


def write_samples(folder: Path = SHOES) -> list[Path]:
    """Write every sample record (simulated with the seeds of :data:`SEEDS`) and the malformed files."""
    from toolkit.records import ShoeHeader, simulate_records, write_records

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    observed = simulate_records(4, seed=SEEDS["cards_observed.csv"], suits=True).observed()
    written.append(write_records(observed, folder / "cards_observed.csv", roles=False))
    complete = simulate_records(4, seed=SEEDS["cards_complete.parquet"], suits=True)
    written.append(write_records(complete, folder / "cards_complete.parquet"))
    with_bets = simulate_records(3, seed=SEEDS["coups_with_bets.jsonl"], suits=True)
    with_bets = with_bets.with_bets(_bettors(with_bets, np.random.default_rng(SEEDS["coups_with_bets.jsonl"])))
    written.append(write_records(with_bets, folder / "coups_with_bets.jsonl", layout="coups"))
    six = ShoeHeader().updated(decks=6, cut_card=16, commission="0.04")
    written.append(
        write_records(
            simulate_records(3, six, seed=SEEDS["coups_6decks.csv"]), folder / "coups_6decks.csv", layout="coups"
        )
    )
    roads = simulate_records(20, seed=SEEDS["roads.csv"]).outcomes()
    written.append(write_records(roads, folder / "roads.csv"))
    written.append(_write_mixed(folder / "mixed.csv"))
    written.extend(write_malformed(folder / "malformed"))
    return written


def _write_mixed(path: Path) -> Path:
    """Five shoes (observer's long form); shoe 2 has an unknown card and shoe 4 loses a card."""
    from toolkit.records import simulate_records, write_records

    recs = simulate_records(5, seed=SEEDS["mixed.csv"]).observed()
    write_records(recs, path, roles=False)
    lines = path.read_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("shoe,"))
    rows = [line.split(",") for line in lines[header + 1 :]]
    bad_card = next(i for i, r in enumerate(rows) if r[0] == "2" and r[1] == "10")
    rows[bad_card][2] = "Z"
    dropped = next(i for i, r in enumerate(rows) if r[0] == "4" and r[1] == "30")
    del rows[dropped]
    path.write_text("\n".join(lines[: header + 1] + [",".join(r) for r in rows]) + "\n")
    return path


#: Malformed files: name -> (contents, expected problems as (line, shoe, coup, code)).
MALFORMED: dict[str, tuple[str | bytes, list[tuple[int | None, str | None, int | None, str]]]] = {
    "unknown_card.csv": (
        "# decks=8 burn=none\nshoe,position,card\n1,1,K\n1,2,9\n1,3,Qx\n1,4,4\n",
        [(5, "1", None, "unknown_card")],
    ),
    "too_many_cards.csv": (
        "# decks=1 burn=none\nshoe,position,card\n" + "".join(f"1,{i + 1},{c}\n" for i, c in enumerate("KKQQKKQK")),
        [(10, "1", None, "too_many_cards")],
    ),
    "third_card_forbidden.csv": (
        "# burn=none\nshoe,coup,player,banker,winner\n7,1,7s Kd 3h,2c 5d 4h,B\n7,2,7d Kc,6s Kh,P\n",
        [(3, "7", 1, "tableau")],
    ),
    "missing_third_card.jsonl": (
        '{"meta": {"burn": "none"}}\n'
        '{"shoe": 3, "coup": 1, "player": ["5", "K"], "banker": ["2", "5"], "winner": "B"}\n'
        '{"shoe": 3, "coup": 2, "player": ["9", "K"], "banker": ["2", "5"], "winner": "P"}\n',
        [(2, "3", 1, "tableau")],
    ),
    "after_natural.csv": (
        "# burn=none\nshoe,position,card,role\n1,1,8,player\n1,2,3,banker\n1,3,K,player\n1,4,4,banker\n1,5,2,banker\n",
        [(7, "1", 1, "tableau")],
    ),
    "winner_mismatch.csv": (
        "# burn=none\nshoe,coup,player,banker,winner\nA1,1,7 K,6 K,B\nA1,2,9 K,6 K,P\n",
        [(3, "A1", 1, "winner_mismatch")],
    ),
    "truncated.csv": (
        "# burn=none\nshoe,position,card\n1,1,8\n1,2,3\n1,3,K\n1,4,K\n1,5,2\n1,6,2\n",
        [(8, "1", 2, "truncated")],
    ),
    "duplicate_position.csv": (
        "# burn=none\nshoe,position,card\n1,1,8\n1,2,3\n1,2,K\n1,3,K\n",
        [(5, "1", None, "duplicate_position")],
    ),
    "missing_position.csv": (
        "# burn=none\nshoe,position,card\n1,1,8\n1,2,3\n1,5,K\n1,6,K\n",
        [(5, "1", None, "missing_position")],
    ),
    "burn_count.csv": (
        "shoe,position,card,role\n1,1,3,burn\n1,2,9,burn\n1,3,8,player\n1,4,3,banker\n1,5,K,player\n1,6,4,banker\n",
        [(3, "1", None, "burn")],
    ),
    "bad_bet.jsonl": (
        '{"meta": {"burn": "none"}}\n'
        '{"shoe": 1, "coup": 1, "player": ["9", "K"], "banker": ["6", "K"], '
        '"bets": [{"who": "seat1", "bet": "bankr", "amount": 10}]}\n',
        [(2, "1", 1, "bad_bet")],
    ),
    "bad_road.csv": ("shoe,road\n1,BPPTBp\n2,BPxTb\n", [(3, "2", None, "bad_road")]),
    "empty.csv": ("", [(None, None, None, "empty_file")]),
    "header_only.csv": ("# decks=8\nshoe,position,card\n", [(None, None, None, "empty_file")]),
    "not_text.csv": (b"PK\x03\x04\x00\x00\x08\x00binary", [(1, None, None, "not_text")]),
    "bad_header.csv": ("# decks=eight\nshoe,position,card\n1,1,K\n", [(1, None, None, "bad_header")]),
    "unknown_columns.csv": ("shoe,card_no,rank\n1,1,K\n", [(1, None, None, "missing_column")]),
    "ragged.csv": ("shoe,position,card\n1,1,K\n1,2,9,extra\n", [(3, "1", None, "bad_line")]),
}


_GOOD = "8,3,K,4"  # one coup without a burn: Player's natural 8 against Banker 7


def _long(shoe: str, cards: str = _GOOD) -> str:
    return "".join(f"{shoe},{i},{c}\n" for i, c in enumerate(cards.split(","), start=1))


def _parquet(frame: pl.DataFrame) -> bytes:
    import io

    out = io.BytesIO()
    frame.write_parquet(out, metadata={"baccarat": '{"header": {"burn": "none"}}'})
    return out.getvalue()


_ROWS = "\n".join
#: Files of the readers' hardening: bad lines, headers, Parquet types, bead roads, encodings, line breaks.
MALFORMED.update(
    {
        "bad_json_line.jsonl": (
            _ROWS(
                [
                    '{"meta": {"burn": "none"}}',
                    '{"shoe": 1, "coup": 1, "player": ["9", "K"], "banker": ["6", "K"]}',
                    "{not json",
                    "[1, 2]",
                    '{"shoe": 2, "coup": 1, "player": ["9", "K"], "banker": ["6", "K"]}',
                    '{"shoe": 3, "coup": 1, "player": ["9", "K"], "banker": ["6", "K"]}',
                    '{"shoe": 3, "coup": 2, "player": ["9", "K"], "banker"',
                    '{"shoe": 3, "coup": 3, "player": ["9", "K"], "banker": ["6", "K"]}',
                    '{"shoe": 4, "coup": 1, "player": ["9", "K"], "banker": ["6", "K"], "shoe": 5}',
                    '{"shoe": 6, "coup": 1, "player": ["9", "K"], "banker": ["6", "K"]}',
                ]
            )
            + "\n",
            [
                (3, None, None, "bad_line"),
                (4, None, None, "bad_line"),
                (7, "3", None, "bad_line"),
                (8, "3", None, "missing_coup"),
                (9, "4", None, "bad_line"),
            ],
        ),
        "header_middle.csv": (
            "# burn=none\nshoe,position,card\n" + _long("1") + "# decks=6 burn=none\n" + _long("2"),
            [],
        ),
        "header_inside_shoe.csv": (
            "# burn=none\nshoe,position,card\n1,1,8\n1,2,3\n# decks=6 burn=none\n1,3,K\n1,4,4\n" + _long("2"),
            [(5, "1", None, "bad_header")],
        ),
        "repeated_key.csv": (
            "# decks=8 decks=6 burn=none\nshoe,position,card\n" + _long("1"),
            [(1, None, None, "bad_header")],
        ),
        "joined.csv": (
            "# burn=none\nshoe,position,card\n"
            + _long("1")
            + "# decks=6 burn=none cut_card=16\nshoe,position,card\n"
            + _long("2"),
            [],
        ),
        "joined_same_ids.csv": (
            "# burn=none\nshoe,position,card\n" + _long("1") + "# decks=6 burn=none\nshoe,position,card\n" + _long("1"),
            [
                (7, "1", None, "bad_header"),
                (9, "1", None, "duplicate_position"),
                (10, "1", None, "duplicate_position"),
                (11, "1", None, "duplicate_position"),
                (12, "1", None, "duplicate_position"),
            ],
        ),
        "float_positions.parquet": (
            _parquet(
                pl.DataFrame(
                    {
                        "shoe": [1, 1, 1, 1, 2, 2, 2, 2],
                        "position": [1.0, 2.0, 3.0, 4.0, 1.0, 2.5, 3.0, 4.0],
                        "card": ["8", "3", "K", "4"] * 2,
                    }
                )
            ),
            [(6, "2", None, "bad_value"), (7, "2", None, "missing_position")],
        ),
        "list_shoe.parquet": (
            _parquet(pl.DataFrame({"shoe": [[1]] * 4, "position": [1, 2, 3, 4], "card": ["8", "3", "K", "4"]})),
            [(None, None, None, "bad_column")],
        ),
        "road_twice.csv": ("shoe,road\n1,BPBP\n2,PPB\n1,BB\n", [(4, "1", None, "duplicate_shoe")]),
        "road_too_long.csv": ("# decks=8\nshoe,road\n1," + "B" * 200 + "\n2,BPT\n", [(3, "1", None, "too_many_coups")]),
        "utf16_bom.txt": (("# burn=none\nshoe,position,card\n" + _long("1")).encode("utf-16"), []),
        "utf16_no_bom.txt": (("# burn=none\nshoe,position,card\n" + _long("1")).encode("utf-16-le"), []),
        "latin1.txt": (
            ("# relev\xe9 au casino\n# burn=none\nshoe,position,card\n" + _long("caf\xe9") + _long("2")).encode(
                "latin-1"
            ),
            [(1, None, None, "encoding")],
        ),
        "cr_only.csv": (("# burn=none\nshoe,position,card\n" + _long("1") + _long("2")).replace("\n", "\r"), []),
        "quoted_break.csv": (
            '# burn=none\nshoe,position,card,note\n1,1,8,"two\nlines"\n1,2,3,\n1,3,K,\n1,4,4,\n'
            "2,1,8,\n2,2,Z,\n2,3,K,\n2,4,4,\n",
            [(9, "2", None, "unknown_card")],
        ),
        "control_chars.csv": (
            "# burn=none\nshoe,position,card\n1,1,8\n1,2,\x1b[31m3\n1,3,K\n1,4,4\n" + _long("2"),
            [(4, "1", None, "unknown_card")],
        ),
    }
)


#: The shoes of each malformed file that load (every shoe its defect does not touch), in file order.
LOADED: dict[str, list[str]] = {
    "bad_bet.jsonl": ["1"],
    "bad_road.csv": ["1"],
    "bad_json_line.jsonl": ["1", "2", "6"],
    "header_middle.csv": ["1", "2"],
    "header_inside_shoe.csv": ["2"],
    "joined.csv": ["1", "2"],
    "float_positions.parquet": ["1"],
    "road_twice.csv": ["2"],
    "road_too_long.csv": ["2"],
    "utf16_bom.txt": ["1"],
    "utf16_no_bom.txt": ["1"],
    "latin1.txt": ["café", "2"],
    "cr_only.csv": ["1", "2"],
    "quoted_break.csv": ["1"],
    "control_chars.csv": ["2"],
}


def write_malformed(folder: Path) -> list[Path]:
    """Write the malformed files and ``expected.csv``.

    ``expected.csv`` holds a row ``file, line, shoe, coup, code`` for each problem, in the order
    of the report, and a row with the code ``loaded`` for each shoe that loads (no line, no coup).
    """
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    rows = []
    for name, (content, problems) in MALFORMED.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        written.append(path)
        rows += [
            {"file": name, "line": line, "shoe": shoe, "coup": coup, "code": code}
            for line, shoe, coup, code in problems
        ]
        rows += [
            {"file": name, "line": None, "shoe": shoe, "coup": None, "code": "loaded"} for shoe in LOADED.get(name, [])
        ]
    expected = folder / "expected.csv"
    schema = {"file": pl.String, "line": pl.Int64, "shoe": pl.String, "coup": pl.Int64, "code": pl.String}
    pl.DataFrame(rows, schema=schema).write_csv(expected)
    written.append(expected)
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for path in write_samples():
        print(path.relative_to(ROOT), path.stat().st_size)
