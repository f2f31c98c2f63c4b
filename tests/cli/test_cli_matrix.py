"""Every command x every class of bad value: exit 2, one line on stderr, no traceback.

The commands and their options are read from the click app itself, so commands
added later are covered: their int and float options get the bad values of
their type, their path-like options (``--out``) the unwritable ones.  A new
command needing arguments to run gets a line in ``BASE`` (without one, it is
still run and must fail cleanly on the missing arguments).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import typer
from cli_helpers import run

from toolkit.cli.app import app

SHOES = Path(__file__).resolve().parents[2] / "data" / "shoes"
CARDS = str(SHOES / "cards_complete.parquet")
QUIET = ("--no-progress",)

#: Arguments that make each command run quickly (besides the option under test).
BASE: dict[tuple[str, ...], tuple[str, ...]] = {
    ("edge",): (),
    ("eor",): (),
    ("simulate",): ("--out", "{tmp}/s.parquet", "--shoes", "2", "--seed", "1", "--workers", "1", *QUIET),
    ("count",): ("--system", "dragon7", "--shoes", "2", "--seed", "1", "--workers", "1", *QUIET),
    ("thorp",): (
        "--out",
        "{tmp}/t",
        "--shoes",
        "2",
        "--seed",
        "1",
        "--workers",
        "1",
        "--count-shoes",
        "0",
        "--no-figures",
        *QUIET,
    ),
    ("reproduce",): ("--shoes", "2", "--study-shoes", "2", "--count-shoes", "0", "--workers", "1", *QUIET),
    ("validate",): (CARDS,),
    ("replay",): (CARDS, "--shoe", "3"),
    ("chemin", "solve"): (),
    ("chemin", "value"): (),
}

#: Bad values by class, for int and float options.  Each must be refused (exit 2) unless the option's
#: meaning allows it (see ACCEPTS).
INT_BAD = {"negative": "-5", "non_numeric": "x", "huge": "9" * 30, "nan": "nan", "float": "2.5"}
FLOAT_BAD = {"non_numeric": "x", "nan": "nan", "inf": "inf", "huge": "1e400", "negative_inf": "-inf"}
#: (option, class) pairs that are valid values, not errors: the command may run (exit 0).
ACCEPTS = {("--threshold", "negative"), ("--seed", "huge")}
#: The same, for one command: the exact odds take a shoe of any size.
ACCEPTS_IN = {(("edge",), "--decks", "huge"), (("eor",), "--decks", "huge")}
#: Options whose zero is refused (zero of other options can be meaningful: --burn-cards 0, --seed 0).
ZERO_REFUSED = {"--shoes", "--decks", "--workers", "--coups", "--study-shoes", "--confidence", "--bankroll"}


def _commands():
    root = typer.main.get_command(app)

    def walk(command, path):
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                yield from walk(sub, (*path, name))
        else:
            yield path, command

    return list(walk(root, ()))


COMMANDS = _commands()


def _kind(param) -> type | None:
    return getattr(getattr(param, "type_descriptor", None), "annotation", None)


def _options(kind: type) -> list[tuple[tuple[str, ...], str]]:
    return [
        (path, p.opts[0])
        for path, command in COMMANDS
        for p in command.params
        if p.param_type_name == "option" and _kind(p) is kind and not getattr(p, "is_flag", False)
    ]


def _cases():
    for path, option in _options(int):
        for name, value in INT_BAD.items():
            yield path, option, name, value
        if option in ZERO_REFUSED:
            yield path, option, "zero", "0"
    for path, option in _options(float):
        for name, value in FLOAT_BAD.items():
            yield path, option, name, value
        if option in ZERO_REFUSED:
            yield path, option, "zero", "0"
    for path, command in COMMANDS:
        for p in command.params:
            if p.param_type_name == "option" and not getattr(p, "is_flag", False):
                yield path, p.opts[0], "missing", None


def _argv(path, tmp_path: Path, option, value):
    base = [a.replace("{tmp}", str(tmp_path)) for a in BASE.get(path, ())]
    # the option under test replaces the base's value for it
    if option in base:
        i = base.index(option)
        del base[i : i + 2]
    return [*path, *base, option] if value is None else [*path, *base, option, value]


def _assert_one_line(code: int, err: str, argv) -> None:
    assert code == 2, f"{argv}: exit {code}, stderr {err!r}"
    lines = [line for line in err.strip().splitlines() if not line.startswith("baccarat: seed ")]
    assert len(lines) == 1, f"{argv}: {err!r}"
    assert lines[0].startswith("baccarat: error: "), f"{argv}: {err!r}"
    assert "Traceback" not in err


def test_the_app_has_the_known_commands():
    names = {path for path, _ in COMMANDS}
    assert set(BASE) <= names
    assert len(list(_cases())) > 150


@pytest.mark.parametrize(
    ("path", "option", "kind", "value"), list(_cases()), ids=lambda v: v if isinstance(v, str) else None
)
def test_bad_values_are_one_line_and_exit_2(capsys, tmp_path, path, option, kind, value):
    argv = _argv(path, tmp_path, option, value)
    code, _, err = run(capsys, *argv)
    if (option, kind) in ACCEPTS or (path, option, kind) in ACCEPTS_IN:
        assert code in (0, 2), f"{argv}: exit {code}, {err!r}"
        assert "Traceback" not in err
        return
    _assert_one_line(code, err, argv)


def _out_options():
    for path, command in COMMANDS:
        for p in command.params:
            if p.param_type_name == "option" and p.opts[0] == "--out":
                yield path


@pytest.mark.parametrize("path", list(_out_options()), ids=" ".join)
@pytest.mark.parametrize("where", ["empty", "missing_folder", "symlink", "dev_full"])
def test_unwritable_outputs_are_one_line(capsys, tmp_path, path, where):
    target = tmp_path / "victim.txt"
    target.write_text("precious\n")
    name = "out.parquet" if path == ("simulate",) else "out.json"
    values = {
        "empty": "",
        "missing_folder": str(tmp_path / "no" / "such" / name),
        "symlink": str(tmp_path / name),
        "dev_full": "/dev/full",
    }
    if where == "symlink":
        os.symlink(target, tmp_path / name)
    argv = _argv(path, tmp_path, "--out", values[where])
    if path == ("replay",):
        argv += ["--format", "json"]
    if path == ("thorp",) and where in ("dev_full", "missing_folder"):
        pytest.skip("thorp's --out is a folder, made when missing")
    code, _, err = run(capsys, *argv)
    _assert_one_line(code, err, argv)
    assert target.read_text() == "precious\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--counts", "dragon7,dragon7"],
        ["replay", "--system", "dragon7", "--system", "dragon7"],
        ["replay", "--bet", "banker", "--bet", "banker"],
        ["simulate", "--burn", "none", "--burn-cards", "5"],
        ["count", "--burn", "fixed", "--burn-ace", "11"],
        ["edge", "--decks", "8", "--shoe", "4,4,4,4,4,4,4,4,4,4"],
        ["simulate", "--coups", "5", "--cut-card", "20"],
        ["count", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
        ["thorp", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"],
        ["eor", "--tie-pays", "1e308"],
        ["chemin", "value", "--player-at-5", "1/0"],
        ["chemin", "value", "--banker", "restricted:1/0,1"],
    ],
    ids=" ".join,
)
def test_duplicated_and_conflicting_options_are_one_line(capsys, tmp_path, argv):
    path = tuple(argv[:2]) if argv[0] == "chemin" else (argv[0],)
    full = _argv(path, tmp_path, "--no-such-placeholder", None)[:-1] + argv[len(path) :]
    code, _, err = run(capsys, *full)
    _assert_one_line(code, err, full)
