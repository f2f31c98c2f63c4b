"""Every limit at the limit and one past it, figures written safely, loose ends refused (hostile input).

Each refusal is checked to come before the work starts (one line, exit 2), and where a file could be
written through a planted link, the folder's bytes are hashed before and after.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run

from toolkit._check import MAX_FLOAT_CARDS, float_counts
from toolkit.edges._observation import parse_positions


def _one_line(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("baccarat: error: ")
    return lines[0]


def _folder_hash(folder: Path) -> dict[str, str]:
    """Every entry of ``folder`` (links as their target's name, never followed) and the bytes of its files."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_symlink():
            out[str(p)] = "link to " + os.readlink(p)
        elif p.is_file():
            out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[str(p)] = "folder"
    return out


# ------------------------------------------------------------------ class 5: figures
CUT_CARD = ("cut-card", "--shoes", "2", "--seed", "1", "--coups", "1", "--no-progress")


def test_a_link_planted_at_the_figure_path_is_refused_and_its_target_unchanged(capsys, tmp_path: Path):
    victim = tmp_path / "victim.png"
    victim.write_bytes(b"precious")
    os.symlink(victim, tmp_path / "plot.png")
    os.symlink(tmp_path / "missing.png", tmp_path / "dangling.png")
    before = _folder_hash(tmp_path)
    for name in ("plot.png", "dangling.png"):
        line = _one_line(*run(capsys, *CUT_CARD, "--figure", str(tmp_path / name))[::2])
        assert "symbolic link" in line
    assert _folder_hash(tmp_path) == before
    assert not (tmp_path / "missing.png").exists()


@pytest.mark.parametrize(
    ("name", "fault"),
    [
        ("/dev/full", "ending in .png, .svg or .pdf"),  # matplotlib would have written /dev/full.png
        ("plot", "ending in .png, .svg or .pdf"),  # ... and plot.png, a file not named
        ("plot.jpeg", "ending in .png, .svg or .pdf"),
        ("folder.png", "is a folder, not a file"),
    ],
)
def test_a_figure_path_that_is_not_a_new_or_regular_file_of_a_known_kind_is_refused(capsys, tmp_path, name, fault):
    (tmp_path / "folder.png").mkdir()
    path = name if name.startswith("/") else str(tmp_path / name)
    before = _folder_hash(tmp_path)
    line = _one_line(*run(capsys, *CUT_CARD, "--figure", path)[::2])
    assert fault in line
    assert _folder_hash(tmp_path) == before


def test_a_device_with_a_figure_suffix_is_refused(capsys, tmp_path: Path):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    line = _one_line(*run(capsys, *CUT_CARD, "--figure", str(fifo))[::2])
    assert "a device, a pipe or a socket" in line


def test_save_figure_is_atomic_and_writes_the_format_named(tmp_path: Path):
    from matplotlib.figure import Figure

    from toolkit.plots._save import save_figure

    fig = Figure(figsize=(1, 1))
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".PDF", b"%PDF")):
        path = save_figure(fig, tmp_path / f"a{suffix}", dpi=20)
        assert path.read_bytes().startswith(magic)
    old = tmp_path / "old.png"
    old.write_bytes(b"the old figure")

    def broken(fh, **kwargs):
        fh.write(b"half a figure")
        raise OSError(28, "No space left on device")

    fig.savefig = broken  # type: ignore[method-assign]
    with pytest.raises(OSError, match="No space"):
        save_figure(fig, old)
    assert old.read_bytes() == b"the old figure"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.PDF", "a.png", "a.svg", "old.png"]  # no temporary left


# ------------------------------------------------------------------ class 7: loose ends
def test_one_shoe_beside_a_shoe_column_is_refused(capsys, tmp_path: Path):
    path = tmp_path / "shoes.csv"
    path.write_text("shoe,player,banker\n1,2 3,4 5\n")
    for command in ("validate", "replay", "convert"):
        extra = {"convert": ("--out", str(tmp_path / "out.csv")), "replay": ("--shoe", "1")}.get(command, ())
        line = _one_line(*run(capsys, command, str(path), "--one-shoe", "--shoe-column", "shoe", *extra)[::2])
        assert "either --one-shoe" in line
    assert not (tmp_path / "out.csv").exists()


def test_a_panel_bet_given_twice_to_cut_card_is_refused(capsys):
    line = _one_line(*run(capsys, *CUT_CARD, "--bet", "banker", "--bet", "banker")[::2])
    assert "'banker'" in line


ESCAPE = "\x1b[2J\x1b]0;owned\x07"


def test_control_characters_in_names_never_reach_the_terminal_raw(capsys, tmp_path: Path):
    missing = tmp_path / f"shoes{ESCAPE}.csv"
    code, out, err = run(capsys, "validate", str(missing))
    assert code != 0
    shoes = tmp_path / "shoes.csv"
    shoes.write_text("shoe,player,banker\n1,2 3,4 5\n")
    out_name = tmp_path / f"no{ESCAPE}folder" / "x.csv"
    code2, out2, err2 = run(capsys, "convert", str(shoes), "--out", str(out_name))
    assert code2 == 2
    for text in (out, err, out2, err2):
        assert "\x1b" not in text
        assert "\x07" not in text
    assert "\\x1b[2J" in out + err
    assert "\\x1b[2J" in err2
    assert len(err2.strip().splitlines()) == 1


def test_a_table_cell_with_control_characters_is_escaped():
    import polars as pl

    from toolkit.cli._output import render_table

    text = render_table(pl.DataFrame({"seat": [f"Ann{ESCAPE}", "Bob\nnext"], "bets": [3, 4]}), width=80)
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "Ann\\x1b[2J" in text
    assert "Bob\\nnext" in text


# ------------------------------------------------------------------ class 2: what the arithmetic holds
def test_the_float_engine_holds_shoes_of_up_to_2_to_the_53_cards():
    assert float_counts([[MAX_FLOAT_CARDS, 0]]).tolist() == [[MAX_FLOAT_CARDS, 0]]
    for past in ([[MAX_FLOAT_CARDS, 1]], [[2**64, 0]], np.array([[2**63, 1]], dtype=np.uint64), [[10**19] * 13]):
        with pytest.raises(ValueError, match=r"at most 2\*\*53"):
            float_counts(past)


def test_sort_at_the_largest_shoe_and_one_deck_past_it(capsys):
    limit = MAX_FLOAT_CARDS // 52
    code, out, err = run(capsys, "sort", "--decks", str(limit), "--format", "json")
    assert code == 0, err
    import json

    result = json.loads(out)
    assert result["cards"] == 52 * limit
    # the gain of an infinite shoe, seen at position 1 by 6789 (the edge sorter's sort): 6.71%, as for 8 decks
    # and a hundred decks within a few in the fourth digit; 10**18 decks read 3,954%
    assert 0.06 < result["gain_per_coup"] < 0.07
    assert all(0 <= p["probability"] <= 1 for p in result["patterns"])
    for decks in (limit + 1, 10**18):
        line = _one_line(*run(capsys, "sort", "--decks", str(decks))[::2])
        assert "at most 2**53 = 9,007,199,254,740,992 cards" in line


def test_sort_positions_are_checked_before_any_range_is_built(capsys):
    assert parse_positions("1-6") == (1, 2, 3, 4, 5, 6)
    assert parse_positions("006") == (6,)
    for text, fault in (("1-7", "position 7 is outside 1-6"), ("1-99999999999", "99999999999 is outside 1-6")):
        with pytest.raises(ValueError, match=fault):
            parse_positions(text)
    line = _one_line(*run(capsys, "sort", "--positions", "1-" + "9" * 5000)[::2])
    assert "is outside 1-6" in line
    assert len(line) < 400
    with pytest.raises(ValueError, match="given twice"):
        parse_positions(iter(lambda: 1, 0))  # an endless iterable stops at the first repeat


@pytest.mark.parametrize("z", [math.nan, -1.96, 0.0, math.inf])
def test_cut_card_effect_refuses_a_bad_z_before_any_shoe_is_dealt(monkeypatch, z):
    import toolkit.studies.cut_card.run as run_module

    def never(*args, **kwargs):
        raise AssertionError("the study ran")

    monkeypatch.setattr(run_module, "run_cut_card", never)
    with pytest.raises(ValueError, match="finite positive normal quantile"):
        run_module.cut_card_effect(n_shoes=2, seed=1, z=z, progress=False)


def test_an_exact_zero_effect_is_reported_exactly_zero():
    """The first coup of a shoe with no burn is dealt from the whole shoe: its effect is zero, not 1e-17."""
    from toolkit.coup.options import Burn
    from toolkit.dealing.dealer import Dealing
    from toolkit.studies.cut_card import cut_card_effect

    bets = ("player_pair", "banker_pair", "either_pair", "banker")
    frame = cut_card_effect(
        n_shoes=3, cut_cards=(), coups=(1,), bets=bets, dealing=Dealing(burn=Burn.NONE), seed=2, progress=False
    )
    assert frame["effect"].to_list() == [0.0] * len(bets)
    assert frame["ci_low"].to_list() == frame["ci_high"].to_list() == [0.0] * len(bets)
    assert frame["dealt_edge"].to_list() == frame["fresh_edge"].to_list()
    from toolkit.studies.cut_card.result import check_z

    with pytest.raises(ValueError, match="finite positive"):
        check_z(math.nan)


# ------------------------------------------------------------------ classes 4 and 6: shuffles
def test_an_a_shuffle_of_many_packets_matches_the_kernel_and_holds_no_table():
    from toolkit.dealing.shuffles._kernels import interleave_by_digits
    from toolkit.dealing.shuffles.models import MAX_PACKETS, AShuffle, Riffle, interleave_positions

    gen = np.random.default_rng(5)
    for a in (2, 7, 300, 2**16):
        digits = gen.integers(0, a, size=(40, 90))
        # the sorting path (any a past the table's) against the counting kernel, on the same digits
        assert np.array_equal(interleave_positions(digits, 2**31 - 1), interleave_by_digits(digits, a))
    deck = np.tile(np.arange(2_000, dtype=np.int16), (3, 1))
    for model in (AShuffle(MAX_PACKETS), Riffle(30), Riffle(64)):
        out = model.apply(deck, np.random.default_rng(1))  # a 2**31-packet table was 16 GiB
        assert (np.sort(out, axis=1) == deck).all()


def test_the_float_distance_agrees_with_the_exact_fraction():
    """The fast path (floats from logarithms) against the oracle (the Bayer-Diaconis sum in integers)."""
    from toolkit.dealing.shuffles.exact import _total_variation_float, total_variation_exact

    for n, k in ((52, 6), (52, 7), (52, 12), (52, 40), (52, 64), (416, 9), (416, 10), (416, 20), (300, 64)):
        exact = float(total_variation_exact(n, k))
        assert _total_variation_float(n, k) == pytest.approx(exact, rel=1e-12, abs=0), (n, k)
    # Bayer & Diaconis (1992), Table 1 (52 cards): 0.334 after 7 riffles, 0.043 after 10
    assert round(_total_variation_float(52, 7), 3) == 0.334
    assert round(_total_variation_float(52, 10), 3) == 0.043


def test_total_variation_sums_in_integers_up_to_the_bits_limit_and_in_floats_past_it():
    from toolkit.dealing.shuffles.exact import (
        EXACT_ROW_BITS,
        _total_variation_float,
        total_variation,
        total_variation_exact,
    )

    n = 500
    k = EXACT_ROW_BITS // n  # n * k at the limit: the exact fraction, rounded
    rows = total_variation(n, (k, k + 1))["tv"].to_list()
    assert rows[0] == float(total_variation_exact(n, k))
    assert rows[1] == _total_variation_float(n, k + 1)
    assert rows[1] == pytest.approx(float(total_variation_exact(n, k + 1)), rel=1e-12, abs=0)
    with pytest.raises(ValueError, match="at most 64"):
        total_variation(52, (1, 65))
    # a deck larger than the riffles' packets stays exact past the bits: 2**9 <= 1,000 (9,000 bits)
    assert total_variation(1_000, (9,))["tv"].to_list() == [float(total_variation_exact(1_000, 9))]


def test_tv_of_64_riffles_runs_and_65_is_refused(capsys):
    code, out, err = run(capsys, "shuffle", "--riffles", "64", "--measure", "tv", "--cards", "416", "--format", "csv")
    assert code == 0, err
    last = out.strip().splitlines()[-1].split(",")
    assert last[:2] == ["416", "64"]
    assert 0 < float(last[2]) < 1e-15
    line = _one_line(*run(capsys, "shuffle", "--model", "riffle:64", "--model", "riffle:1", "--measure", "tv")[::2])
    assert "1 to 64 riffles in all, got 65" in line


@pytest.mark.slow
def test_tv_at_the_largest_deck_and_riffles(capsys):
    code, out, err = run(capsys, "shuffle", "--riffles", "64", "--measure", "tv", "--cards", "2000", "--format", "csv")
    assert code == 0, err
    assert len(out.strip().splitlines()) == 65


def test_the_card_moves_of_a_run_are_checked_at_the_limit_and_one_past():
    from toolkit.dealing.shuffles.models import (
        MAX_CARD_MOVES,
        MAX_NESTING,
        Cut,
        Repeat,
        Riffle,
        Sequence,
        card_passes,
        check_shuffle_work,
    )

    assert card_passes(Riffle(30)) == 1
    assert card_passes(Riffle(31)) == card_passes(Riffle(60)) == 2
    assert card_passes(Riffle(64)) == 3
    assert card_passes(Repeat(Repeat(Riffle(64), 10_000), 10_000)) == 300_000_000  # integers: never rounded
    model = Repeat(Cut(), 1_000)
    assert check_shuffle_work(model, MAX_CARD_MOVES // (1_000 * 200), 200) == MAX_CARD_MOVES
    with pytest.raises(ValueError, match="card moves, past the 2,000,000,000"):
        check_shuffle_work(model, MAX_CARD_MOVES // (1_000 * 200) + 1, 200)
    deep: object = Cut()
    for _ in range(MAX_NESTING):
        deep = Sequence((deep,))
    assert card_passes(deep) == 1  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nests more than 32 deep"):
        card_passes(Sequence((deep,)))  # type: ignore[arg-type]


def test_runs_past_the_card_moves_are_refused_before_they_start(capsys, tmp_path: Path):
    line = _one_line(*run(capsys, "shuffle", "--model", "riffle:64", "--passes", "10000", "--seed", "1")[::2])
    assert "124,800,000,000 card moves" in line
    recipe = tmp_path / "nested.toml"
    steps = "".join(f"[[steps{'.steps' * d}]]\nkind = 'repeat'\ntimes = 10000\n" for d in range(3))
    recipe.write_text("name = 'nested'\n" + steps + "[[steps.steps.steps.steps]]\nkind = 'riffle'\ntimes = 64\n")
    for measure in ("guess", "tracker", "power"):
        extra = ("--decks", "1") if measure != "guess" else ()
        line = _one_line(*run(capsys, "shuffle", "--recipe", str(recipe), "--measure", measure, *extra, "-s", "1")[::2])
        assert "3,000,000,000,000 passes each" in line
    deep = tmp_path / "deep.toml"
    deep.write_text("name = 'x'\nx = " + "[" * 20_000 + "]" * 20_000 + "\n")
    line = _one_line(*run(capsys, "shuffle", "--recipe", str(deep))[::2])
    assert "nested too deeply" in line


def test_chemin_solve_fits_100_columns_in_a_pipe(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = run(capsys, "chemin", "solve")
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "exactly 974653793197999/75340147272374985" in out  # the exact value kept, on a line of its own


# ------------------------------------------------------------------ detect's limits (the protection study's side)
DETECT = ("detect", "data/shoes/coups_with_bets.jsonl", "--seed", "1")


def test_detect_refuses_a_reference_pool_or_shufflings_past_their_limits_before_any_work(capsys, monkeypatch):
    from toolkit.protection import detection
    from toolkit.protection.detection import MAX_PERMUTATIONS, _check_choices
    from toolkit.protection.reference import MAX_REFERENCE

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    _check_choices(MAX_PERMUTATIONS, "holm", "permutation", "fresh_shoes", MAX_REFERENCE)  # at the limits: taken

    def never(*args, **kwargs):
        raise AssertionError("the work started")

    monkeypatch.setattr(detection, "coup_table", never)
    for option, value, fault in (
        ("--reference", MAX_REFERENCE + 1, "reference must be 2..20,000"),
        ("--reference", 10**6, "reference must be 2..20,000"),
        ("--permutations", MAX_PERMUTATIONS + 1, "permutations must be 1..1,000,000"),
    ):
        assert fault in _one_line(*run(capsys, *DETECT, option, str(value))[::2])


def test_detect_refuses_more_seat_and_bet_pairs_than_one_run_tests(capsys, monkeypatch):
    from toolkit.protection import detection, reference

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    from toolkit.cli import detect as command

    # the command checks the same limits as the library, before the record's edges are computed
    assert command.MAX_SEAT_TESTS == detection.MAX_TESTS
    assert command.MAX_REFERENCE_SHOES == reference.MAX_REFERENCE
    monkeypatch.setattr(detection, "MAX_TESTS", 1)  # the sample record has a few pairs: one past a limit of one
    monkeypatch.setattr(detection, "coup_table", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    line = _one_line(*run(capsys, *DETECT)[::2])
    assert "seat-and-bet pairs to test, at most 1 in one run" in line


def test_the_coups_one_run_shuffles_are_bounded_at_the_limit_and_refused_one_past_it(capsys, monkeypatch):
    """Tests x coups x permutations: the sample record's 4 tests shuffle 243 coups each (its seats play every shoe)."""
    import polars as pl

    from toolkit.cli import detect as command
    from toolkit.protection import detection
    from toolkit.protection.ledger import read_table

    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    assert (command.MAX_PERMUTATIONS, command.MAX_SHUFFLED_COUPS) == (
        detection.MAX_PERMUTATIONS,
        detection.MAX_SHUFFLED_COUPS,
    )
    records = read_table(Path("data/shoes/coups_with_bets.jsonl"), None)
    placed = records.bets.group_by(["shoe", "coup", "who", "bet"], maintain_order=True).agg(pl.col("amount").sum())
    pairs = detection._pairs(placed, records.source)
    # the slow count: every test's coups, the coups of each shoe its seat placed a bet in
    coups = dict(zip(records.shoes["shoe"].cast(pl.String), records.shoes["coups"], strict=True))
    tested = sum(
        coups[str(shoe)] for who, _ in pairs for shoe in set(placed.filter(pl.col("who") == who)["shoe"].to_list())
    )
    assert tested > 0
    monkeypatch.setattr(detection, "MAX_SHUFFLED_COUPS", tested * 7)
    detection._refuse_too_much_shuffling(records, placed, pairs, 7)  # at the limit: taken
    with pytest.raises(ValueError, match=f"{tested * 8:,} coups shuffled, past the {tested * 7:,}"):
        detection._refuse_too_much_shuffling(records, placed, pairs, 8)
    monkeypatch.setattr(detection, "coup_table", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    line = _one_line(*run(capsys, *DETECT, "--permutations", "8")[::2])
    assert f"{tested * 8:,} coups shuffled, past the {tested * 7:,} one run may shuffle" in line
    code, out, _ = run(capsys, "detect", "--help")
    assert code == 0
    assert "2,000,000,000" in " ".join(out.split())


def test_the_reference_pool_is_the_same_replayed_in_blocks(monkeypatch):
    """Shoes are centred one by one, so replaying the pool a few shoes at a time (bounded memory) changes nothing."""
    from toolkit.protection import reference
    from toolkit.records import ShoeHeader

    header = ShoeHeader()
    whole = reference.reference_shoes(header, ["banker", "tie"], 7, seed=3)
    monkeypatch.setattr(reference, "_REFERENCE_BLOCK", 3)
    blocked = reference.reference_shoes(header, ["banker", "tie"], 7, seed=3)
    for bet in ("banker", "tie"):
        assert np.array_equal(whole[bet].edges, blocked[bet].edges)
    with pytest.raises(ValueError, match="2 to 20,000"):
        reference.reference_shoes(header, ["banker"], 20_001, seed=3)


# ------------------------------------------------------------------ the reader's limits at the command line
def test_validate_refuses_a_file_one_line_past_the_limit_with_its_location(capsys, tmp_path: Path, monkeypatch):
    from toolkit.cli.records import FILE_LIMITS
    from toolkit.records import _raw
    from toolkit.records.read import MAX_RECORD_BYTES, MAX_RECORD_LINES

    assert f"at most {MAX_RECORD_BYTES // 2**20} MiB and {MAX_RECORD_LINES:,} lines" == FILE_LIMITS
    for command in ("validate", "replay", "convert", "detect"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0
        assert FILE_LIMITS in " ".join(out.split()), command
    monkeypatch.setattr(_raw, "MAX_LINES", 3)
    path = tmp_path / "shoes.csv"
    for extra, want in ((0, 0), (1, 2)):
        path.write_text("shoe,coup,player,banker\n1,1,9 K,6 K\n" + "2,1,9 K,6 K\n" * (1 + extra))
        code, out, err = run(capsys, "validate", str(path), "--header", "burn=none")
        assert code == want, out + err
        if extra:
            assert f"{path}:4: the file holds 4 lines; a record file holds at most 3" in out + err


def test_shuffle_power_records_and_tests_at_most_so_many_cards(capsys, monkeypatch):
    from toolkit.cli import shuffle as command

    per_replicate = 2 * sum(command.POWER_SHOES) * 52
    assert command._power_replicates(None, 52) == 200  # one deck: the default fits
    assert command._power_replicates(None, 416) == command.MAX_POWER_CARDS // (2 * 87 * 416) == 27
    monkeypatch.setattr(command, "MAX_POWER_CARDS", 3 * per_replicate)
    assert command._power_replicates(3, 52) == 3  # at the limit
    assert command._power_replicates(None, 52) == 3  # the default, cut to fit
    line = _one_line(*run(capsys, "shuffle", "--riffles", "64", "--measure", "power", "--decks", "1", "-n", "4")[::2])
    assert f"records and tests {4 * per_replicate:,} cards" in line
    assert f"past the {3 * per_replicate:,} one run may; give --trials 3 or fewer" in line


def test_shuffle_tracker_deals_at_most_so_many_cards(capsys, monkeypatch):
    from toolkit.cli import shuffle as command

    assert command._tracker_pairs(None, 416) == 200
    assert command._tracker_pairs(command.MAX_TRACKER_CARDS // 52, 52) == command.MAX_TRACKER_CARDS // 52
    monkeypatch.setattr(command, "MAX_TRACKER_CARDS", 3 * 52)
    assert command._tracker_pairs(3, 52) == 3  # at the limit
    line = _one_line(*run(capsys, "shuffle", "--riffles", "64", "--measure", "tracker", "--decks", "1", "-n", "4")[::2])
    assert "--trials 4 with --measure tracker deals 208 cards (52 a shoe pair), past the 156" in line
    assert "give --trials 3 or fewer" in line
