"""Every table command through a pipe at 80 and 100 columns: identifiers whole, no line past the width, no bar.

A name read from a table must paste back into ``--bet`` or ``--system``: every cell of text
without a space (a bet, a system, a figure's name) appears whole, as one word, in the table.
Each command runs once in-process (stdout and stderr are not terminals there, as in a pipe);
the frames it renders are recorded and rendered again at the other width, so both widths are
checked on the command's own tables without running a long command twice.
"""

from __future__ import annotations

import pytest
from cli_helpers import run

from toolkit.cli import _output

SHOES = "data/shoes/cards_complete.parquet"
OBSERVED = "data/shoes/cards_observed.csv"
QUIET: tuple[str, ...] = ()  # progress is left on: off a terminal it must not be drawn at all

#: Each table command with arguments that make it quick.
COMMANDS: dict[str, tuple[str, ...]] = {
    "edge": ("edge", "--bet", "perfect_pair"),
    "eor": ("eor", "--bet", "super_tie"),
    "ca": ("ca", "--bet", "three_giving_eight"),
    "count": ("count", "--system", "dragon7", "--shoes", "40", "--seed", "1", "--workers", "1"),
    "replay": ("replay", OBSERVED, "--shoe", "1", "--system", "dragon7"),
    "detect": (
        "detect",
        "data/shoes/coups_with_bets.jsonl",
        "--permutations",
        "99",
        "--reference",
        "50",
        "--seed",
        "1",
    ),
    "shuffle": ("shuffle", "--riffles", "3", "--cards", "52", "--measure", "tv"),
    "sort": ("sort", "--positions", "1-2", "--best-partition"),
    "shuffle-track": ("shuffle-track", "--shoes", "4", "--seed", "1", "--workers", "1", "-k", "0", "-k", "1"),
    "cut-card": ("cut-card", "--shoes", "4", "--seed", "1", "--workers", "1"),
    "list-bets": ("list", "bets"),
    "list-systems": ("list", "systems"),
    "chemin-solve": ("chemin", "solve"),
    "chemin-value": ("chemin", "value"),
    "bankroll": ("bankroll", "--system", "dragon7", "--bankroll", "200", "--shoes", "40", "--seed", "1"),
}
#: Commands writing a folder (their table printed too), and reproduce.
FOLDERS: dict[str, tuple[str, ...]] = {
    "reproduce": ("reproduce", "--shoes", "2", "--study-shoes", "2", "--count-shoes", "0", "--workers", "1"),
    "thorp": (
        "thorp",
        "--shoes",
        "4",
        "--seed",
        "1",
        "--workers",
        "1",
        "--count-shoes",
        "0",
        "--no-figures",
    ),
    "assess": (
        "assess",
        "--bet",
        "three_giving_eight",
        "--shoes",
        "30",
        "--seed",
        "1",
        "--cut-cards",
        "14",
        "--workers",
        "1",
        "--no-figures",
    ),
}


def _identifiers(frame) -> set[str]:
    """The cells of text without a space: names a reader pastes back."""
    out: set[str] = set()
    for name, dtype in frame.schema.items():
        if dtype.is_numeric() or dtype.is_nested():
            continue
        out |= {str(v) for v in frame[name].to_list() if isinstance(v, str) and v and " " not in v}
    return out


def _check(text: str, frames, width: int, where: str) -> None:
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines), f"{where}: a line past {width} columns"
    words = set(text.split())
    for frame in frames:
        broken = sorted(v for v in _identifiers(frame) if v not in words and len(v) <= width)
        assert not broken, f"{where}: identifiers not whole in the table: {broken[:5]}"


SLOW = {"thorp", "reproduce"}  # half a minute each


@pytest.mark.parametrize(
    "name", [*COMMANDS, *(pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in FOLDERS)]
)
def test_every_table_fits_80_and_100_columns_through_a_pipe_with_identifiers_whole(
    name: str, capsys, monkeypatch, tmp_path
) -> None:
    seen: list[tuple] = []
    real = _output.render_table

    def recording(frame, *args, **kwargs):
        text = real(frame, *args, **kwargs)
        seen.append((frame, args, kwargs, text))
        return text

    monkeypatch.setattr(_output, "render_table", recording)
    monkeypatch.setenv("COLUMNS", "80")
    argv = COMMANDS.get(name) or FOLDERS[name]
    argv = (*argv, "--out", str(tmp_path / "out")) if name in ("thorp", "assess") else argv
    monkeypatch.chdir(_root())
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert seen, f"{name} printed no table"
    assert "\r" not in err, f"{name}: a progress bar was drawn into a pipe"
    for frame, args, kwargs, text in seen:
        assert text in out  # what was rendered is what was printed
        _check(text, [frame], 80, f"{name} at 80")
        wider = real(frame, *args, **{**kwargs, "width": 100})  # the same table at 100 columns
        _check(wider, [frame], 100, f"{name} at 100")


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[2]
