"""Inputs that used to give a wrong answer quietly, or a bare error, are refused: exit 2, one line naming the fault.

Bets of one name shown twice (or one over the panel's), a second bet where one is taken, a
payout past a million to one, counts written with underscores, cut cards beyond the shoe,
control characters in a bet's name, a bet file not in UTF-8, tags past a thousand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

PANEL_NAMED = 'name = "banker"\n[[pays]]\nwhen = "winner = \'banker\'"\npays = 1\n'
LUCKY = 'name = "lucky"\n[[pays]]\nwhen = "winner = \'banker\' AND banker_total = 6"\npays = 12\n'
LUCKY6_NAMED = 'name = "lucky6"\n[[pays]]\nwhen = "winner = \'tie\'"\npays = 8\n'
THORP = ("--shoes", "2", "--seed", "1", "--workers", "1", "--count-shoes", "0", "--no-figures", "--no-progress")
ASSESS = ("--shoes", "30", "--seed", "1", "--workers", "1", "--no-figures", "--no-progress")
SHOE_10 = "32,32,32,32,32,32,32,32,32,128"


def bet_file(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def pays(value: str, default: str = "-1") -> str:
    return f'name = "huge_pay"\ndefault = {default}\n[[pays]]\nwhen = "winner = \'tie\'"\npays = {value}\n'


def refused(capsys, args: list[str], fault: str) -> str:
    """Run ``baccarat ARGS``; it must exit 2 with one stderr line holding ``fault``, and no traceback."""
    code, _, err = run(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert fault in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("command", ["edge", "eor"])
def test_a_bet_file_named_like_a_panel_bet_is_refused(capsys, tmp_path, command) -> None:
    path = bet_file(tmp_path, "b.toml", PANEL_NAMED)
    line = refused(capsys, [command, "--bet-file", path], "'banker' is already on the panel")
    assert path in line


def test_thorp_refuses_a_bet_named_like_a_panel_bet(capsys, tmp_path) -> None:
    path = bet_file(tmp_path, "b.toml", PANEL_NAMED)
    refused(capsys, ["thorp", "--out", str(tmp_path / "t"), *THORP, "--bet-file", path], "already on the panel")


def test_a_panel_bet_asked_for_again_is_refused(capsys) -> None:
    refused(capsys, ["edge", "--bet", "banker"], "--bet banker: the bet 'banker' is already on the panel")


@pytest.mark.parametrize(
    "options",
    [
        ["--bet-file", "{a}", "--bet-file", "{b}"],
        ["--bet", "lucky6", "--bet-file", "{six}"],
        ["--bet", "lucky6,lucky6"],
    ],
    ids=["two files", "a name and a file", "a name twice"],
)
@pytest.mark.parametrize("command", ["edge", "eor"])
def test_two_bets_of_one_name_are_refused(capsys, tmp_path, command, options) -> None:
    files = {
        "a": bet_file(tmp_path, "a.toml", LUCKY),
        "b": bet_file(tmp_path, "b.toml", LUCKY),
        "six": bet_file(tmp_path, "six.toml", LUCKY6_NAMED),
    }
    line = refused(capsys, [command, *(o.format(**files) for o in options)], "is given twice")
    assert line.count("--bet") == 2  # both options are named


@pytest.mark.parametrize(
    "options",
    [
        ["--bet", "lucky6", "--bet", "dragon7"],
        ["--bet-file", "{a}", "--bet-file", "{a}"],
        ["--bet", "x", "--bet-file", "{a}"],
    ],
    ids=["two names", "two files", "a name and a file"],
)
@pytest.mark.parametrize("command", ["ca", "assess"])
def test_commands_of_one_bet_refuse_a_second(capsys, tmp_path, command, options) -> None:
    a = bet_file(tmp_path, "a.toml", LUCKY)
    extra = ["--out", str(tmp_path / "out"), *ASSESS] if command == "assess" else []
    line = refused(capsys, [command, *(o.format(a=a) for o in options), *extra], "this command takes one bet")
    assert "--bet" in line.split("got", 1)[1]  # the options given are named


@pytest.mark.parametrize(
    "text",
    [pays("1e308"), pays("1e200"), pays("1000001"), pays('"2000000/1"'), pays("8", default="-1e7")],
    ids=["1e308", "1e200", "a million and one", "a fraction", "the default"],
)
@pytest.mark.parametrize("command", ["edge", "eor", "ca", "thorp"])
def test_a_payout_past_a_million_to_one_is_refused(capsys, tmp_path, command, text) -> None:
    path = bet_file(tmp_path, "big.toml", text)
    opts = {"edge": [], "eor": [], "ca": [], "thorp": ["--out", str(tmp_path / "t"), *THORP]}[command]
    refused(capsys, [command, "--bet-file", path, *opts], "a payout must lie within -1000000..1000000")


def test_a_payout_of_a_million_to_one_is_taken(capsys, tmp_path) -> None:
    path = bet_file(tmp_path, "big.toml", pays("1000000"))
    code, out, err = run(capsys, "edge", "--bet-file", path, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["huge_pay"]["expected_value"] > 0


@pytest.mark.parametrize(
    "args",
    [
        ["edge", "--shoe", "3_2," + SHOE_10.split(",", 1)[1]],
        ["eor", "--shoe", "3_2," + SHOE_10.split(",", 1)[1]],
        ["ca", "--bet", "lucky6", "--shoe", "3_2," + SHOE_10.split(",", 1)[1]],
        ["ca", "--bet", "lucky6", "--shoe", ",".join(["1_0"] + ["8"] * 51)],
        ["edge", "--shoe", "\u0663\u0662," + SHOE_10.split(",", 1)[1]],
    ],
    ids=["edge", "eor", "ca by value", "ca by card", "other digits"],
)
def test_counts_are_written_in_digits_only(capsys, args) -> None:
    refused(capsys, args, "written in digits")


def test_tags_are_written_in_digits_only_and_bounded(capsys) -> None:
    base = ["count", "--shoes", "2", "--seed", "1", "--workers", "1", "--no-progress", "--bet", "tie", "-t", "1"]
    refused(capsys, [*base, "--tags", "0,0,0,0,0,0,0,0,1,1_0"], "tag 10 is not an integer: '1_0'")
    refused(capsys, [*base, "--tags", "0,0,0,0,0,0,0,0,1," + str(2**63)], "tag 10 must lie within -1000..1000")
    refused(capsys, [*base, "--tags", "0,0,0,0,0,0,0,0,1,-1001"], "must lie within -1000..1000")


def test_cut_cards_beyond_the_shoe_are_named(capsys, tmp_path) -> None:
    args = ["assess", "--bet", "lucky6", "--out", str(tmp_path / "a"), *ASSESS, "--decks", "1"]
    line = refused(capsys, [*args, "--cut-cards", "14,52,1000"], "--cut-cards 52, 1000")
    assert "0..51" in line
    refused(capsys, [*args, "--cut-cards", "1_4"], "--cut-cards takes comma-separated integers")
    refused(capsys, [*args, "--coups", "10", "--cut-cards", "14"], "--cut-cards is not used with --coups")


@pytest.mark.parametrize(
    "name", [r"a\nb", r"a\u001b[2Jb", r"a\tb", r"left\u202eright"], ids=["newline", "escape", "tab", "bidi"]
)
def test_control_characters_in_a_bet_name_are_refused(capsys, tmp_path, name) -> None:
    path = bet_file(tmp_path, "c.toml", f'name = "{name}"\n[[pays]]\nwhen = "winner = \'tie\'"\npays = 8\n')
    line = refused(capsys, ["edge", "--bet-file", path], "'name' must not hold control characters")
    assert path in line


def test_a_bet_file_with_a_byte_order_mark_is_read(capsys, tmp_path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + LUCKY.encode())
    code, out, err = run(capsys, "edge", "--bet-file", str(path), "--format", "json")
    assert code == 0, err
    assert "lucky" in json.loads(out)


def test_a_bet_file_not_in_utf8_is_named(capsys, tmp_path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(LUCKY.replace('"lucky"', '"caf\u00e9"').encode("latin-1"))
    line = refused(capsys, ["edge", "--bet-file", str(path)], "not UTF-8 text")
    assert str(path) in line
    assert "0xe9" in line


def test_errors_speak_of_the_options_not_the_library_inside(capsys) -> None:
    # once: "Rules.commission must be in [0, 1), got Fraction(5, 1)" and "unknown card 'eight'"
    code, _, err = run(capsys, "edge", "--commission", "5")
    assert code == 2
    assert err.startswith("baccarat: error: --commission ")
    assert "0.05 for 5%" in err
    assert "Fraction" not in err
    assert "Rules." not in err
    code, _, err = run(capsys, "edge", "--shoe", "eight decks")
    assert code == 2
    assert "--decks N" in err
    assert "unknown card" not in err
    assert err.count("\n") == 1
