"""The README's shell lines and Python block run as written.

Every ``baccarat`` line of the README's ``bash`` blocks is run in-process from a scratch folder
holding the project's ``data/``: the options and files exactly as written, the numbers of shoes
(and trials, paths, permutations, the range of cards left) cut to a few so that the whole README
runs in the default suite, a line that leaves such a number at its default given the few too
(``SMALL_DEFAULTS``), and one worker (no pool to start for a few shoes); the lines of the long
studies (thorp, reproduce, assess) are marked slow.  A line whose comment says it "exits 1" must
exit 1; every other line must exit 0.  The Python block runs, as written, in the slow suite.
"""

from __future__ import annotations

import functools
import glob
import io
import re
import shlex
from pathlib import Path

import pytest
from cli_helpers import run

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: Lines of the README that are not the toolkit's commands: installing, the tests, the docs build.
NOT_OURS = ("pip install", "python -m pytest", "python -m sphinx")
#: Options whose number is cut to a few shoes for the default suite, and the most each keeps.
SMALL = {
    "--shoes": 6,
    "-n": 6,
    "--trials": 20,
    "--study-shoes": 4,
    "--count-shoes": 0,
    "--paths": 20,
    "--permutations": 99,
    "--reference": 50,
}
#: What a command's line gets when it leaves a number of ``SMALL`` at its default (10,000 shoes, 9,999
#: permutations): the few, as if written.
SMALL_DEFAULTS = {
    "count": ("--shoes",),
    "detect": ("--permutations", "--reference"),
}
#: The most cards left that a ``--cards-left A-B`` range keeps (``6-16`` runs as ``6-8``).
SMALL_CARDS_LEFT = 8
SLOW = ("baccarat thorp", "baccarat reproduce", "baccarat assess")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def _shell_lines() -> list[tuple[str, str]]:
    """(command, comment) for every README shell line that runs a toolkit command."""
    lines = []
    for block in _blocks("bash"):
        for raw in block.splitlines():
            command, _, comment = raw.partition("#")
            command = command.strip()
            if command and not command.startswith(NOT_OURS):
                lines.append((command, comment))
    return lines


def _small(argv: list[str]) -> list[str]:
    out = list(argv)
    for i, arg in enumerate(out[:-1]):
        if arg in SMALL and out[i + 1].isdigit():
            out[i + 1] = str(min(int(out[i + 1]), SMALL[arg]))
        elif arg == "--cards-left" and re.fullmatch(r"\d+-\d+", out[i + 1]):
            low, high = map(int, out[i + 1].split("-"))
            out[i + 1] = f"{low}-{max(low, min(high, SMALL_CARDS_LEFT))}"
    for option in SMALL_DEFAULTS.get(out[0], ()):
        if option not in out:
            out += [option, str(SMALL[option])]
    # a few shoes need no pool of processes (``simulate --players`` deals in this process and takes no workers)
    if "--workers" in _options(out[0]) and not {"--workers", "-w", "--players"} & set(out):
        out += ["--workers", "1"]
    return out


@functools.cache
def _options(name: str) -> frozenset[str]:
    """The options ``baccarat NAME`` takes (none for a group of subcommands)."""
    import typer

    from toolkit.cli.app import app

    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    return frozenset(opt for param in command.params for opt in param.opts)


def test_the_lines_are_cut_to_a_few_shoes_and_one_worker() -> None:
    assert _small(["count", "--bet", "dragon7"]) == ["count", "--bet", "dragon7", "--shoes", "6", "--workers", "1"]
    assert _small(["count", "--shoes", "20000", "--workers", "2"]) == ["count", "--shoes", "6", "--workers", "2"]
    assert _small(["last-cards", "--cards-left", "6-16"])[:3] == ["last-cards", "--cards-left", "6-8"]
    assert _small(["last-cards", "--cards-left", "10-16"])[:3] == ["last-cards", "--cards-left", "10-10"]
    assert _small(["detect", "t.jsonl"]) == ["detect", "t.jsonl", "--permutations", "99", "--reference", "50"]
    assert _small(["edge", "--decks", "8"]) == ["edge", "--decks", "8"]


def test_the_readme_names_files_that_exist() -> None:
    for command, _ in _shell_lines():
        for word in shlex.split(command):
            if word.startswith("data/"):
                assert glob.glob(str(ROOT / word)), f"{command}: no {word}"


def test_the_readme_has_its_shell_lines() -> None:
    assert len(_shell_lines()) > 25


def _run_lines(lines: list[tuple[str, str]], capsys, monkeypatch, folder: Path) -> None:
    """Run the lines in order in ``folder`` (a line may read what an earlier one wrote); each must exit as said."""
    (folder / "data").symlink_to(ROOT / "data")
    monkeypatch.chdir(folder)
    failed = []
    for command, comment in lines:
        code = 1 if "exits 1" in comment else 0
        for part in command.split("&&"):
            words = shlex.split(part)
            assert words[0] == "baccarat", command
            argv = [m for w in words[1:] for m in (sorted(glob.glob(w)) if "*" in w else [w])]
            if words[1] == "track":  # a live session reads its keys from stdin: none here, so it ends at once
                monkeypatch.setattr("sys.stdin", io.StringIO(""))
            got, _, err = run(capsys, *_small(argv))
            if got != code:
                failed.append(f"{part}: exit {got}: {err.strip()[-500:]}")
                break
    assert not failed, "\n".join(failed)


def test_the_readme_shell_lines_run_as_written(capsys, monkeypatch, tmp_path) -> None:
    _run_lines([(c, m) for c, m in _shell_lines() if not c.startswith(SLOW)], capsys, monkeypatch, tmp_path)


@pytest.mark.slow
def test_the_readme_long_studies_run_as_written(capsys, monkeypatch, tmp_path) -> None:
    _run_lines([(c, m) for c, m in _shell_lines() if c.startswith(SLOW)], capsys, monkeypatch, tmp_path)


@pytest.mark.slow
def test_the_readme_python_block_runs_as_written(monkeypatch, tmp_path) -> None:
    (tmp_path / "data").symlink_to(ROOT / "data")
    monkeypatch.chdir(tmp_path)
    (block,) = _blocks("python")
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_the_docs_quick_start_says_what_the_readme_says() -> None:
    """The documentation's quick start gives the README's two lines: the same install and main job, the same tests."""
    index = (ROOT / "notebooks" / "index.md").read_text(encoding="utf-8")
    quick = re.search(r"## Quick start\n\n```bash\n(.*?)```", README, flags=re.DOTALL)
    assert quick is not None
    assert f"```bash\n{quick.group(1)}```" in index
    assert "python -m pytest" in quick.group(1)
