"""Command ``baccarat track``: follow a live shoe at the table, one key per card.

The state machine is :class:`toolkit.live.Tracker` (keys to cards to coups by
the tableau, undo); this module is its terminal: a key loop (raw keys on a
terminal, characters from a pipe) and a screen drawn with rich.  On a terminal
the screen is redrawn after every key; from a pipe every key that does
something prints one line (``--jsonl``: one JSON object), so that a recorded
shoe can be fed through and checked.  On leaving (``x``, Ctrl-D, end of input,
Ctrl-C) the session is saved with ``--out`` as a card-level shoe record that
``baccarat validate`` and ``baccarat replay`` read.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import typer

from toolkit.cli._common import fail

if TYPE_CHECKING:
    from toolkit.live.autosave import SessionFile
    from toolkit.live.keys import StopSignals

__all__ = ["read_keys", "register", "track"]

BETS_OPTION = typer.Option(
    None, "--bets", help="Bets to show, comma-separated (default: every standard bet): 'banker,player,tie,dragon7'."
)
SYSTEMS_OPTION = typer.Option(None, "--systems", help="Count systems, comma-separated: 'dragon7,panda8'.")


# ---------------------------------------------------------------------------- keys
@contextmanager
def _raw(stream: IO[str]) -> Iterator[None]:
    """Keys one at a time (cbreak mode: no echo, no line buffering; Ctrl-C still sends SIGINT)."""
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        with suppress(termios.error):  # a terminal hung up (SIGHUP) cannot be set back
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_keys(stream: IO[str], stop: StopSignals, terminal: bool) -> Iterator[str]:
    """The keys typed (see :func:`toolkit.live.keys.read_keys`); a stream without a file descriptor is read whole.

    From a pipe a carriage return is skipped (a CRLF line end: the line feed ends the coup).
    """
    from toolkit.live.keys import SEPARATORS, split_keys
    from toolkit.live.keys import read_keys as live_keys

    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        keys, _ = split_keys(stream.read(), final=True)
        yield from (k for k in keys if k not in SEPARATORS and (terminal or k != "\r"))
        return
    yield from live_keys(fd, stop, crlf=not terminal)


# ---------------------------------------------------------------------------- screen
#: The keys line, always the screen's last.
KEYS_LINE = "keys: a 2-9 t j q k = card · ? burn unseen · u undo · Enter end coup · x quit"
#: How the screen shows money (one convention for the whole command).
MONEY = "per unit staked (-0.0106 = -1.06% of the bet)"


def _fold(text: str, width: int, most: int) -> list[str]:
    """``text`` folded at words to ``width``, at most ``most`` lines (the last cut with an ellipsis)."""
    lines = textwrap.wrap(text, width=max(width, 1), break_on_hyphens=False) or [""]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: max(width - 1, 0)].rstrip() + "…"
    return lines


def _bet_cells(snap: Any, width: int, rows: int) -> list[Any]:
    """The bets in columns, the player's edges first, within ``rows`` lines of ``width`` (a "+N more" cell)."""
    from rich.text import Text

    items = list(snap.expected_value.items())
    items.sort(key=lambda kv: not (kv[1] is not None and kv[1] > 0))  # stable: the edges first, then panel order
    name_width = min(max(len(name) for name, _ in items), max(width - 10, 1))
    cell = name_width + 10  # a marker, the name, a space, the value (8)
    cols = max(1, (width + 2) // (cell + 2))
    shown = items if len(items) <= rows * cols else items[: max(rows * cols - 1, 0)]
    cells = []
    for name, ev in shown:
        edge = ev is not None and ev > 0
        value = "-" if ev is None else f"{ev:+.5f}"
        style = "bold black on green" if edge else ""
        cells.append(Text(f"{'>' if edge else ' '}{name[:name_width]:<{name_width}} {value:>8}", style=style))
    if len(shown) < len(items):
        cells.append(Text(f" +{len(items) - len(shown)} more"[:cell].ljust(cell), style="dim"))
    height = -(-len(cells) // cols)
    lines = []
    for r in range(height):
        line = Text()
        for c in range(cols):
            if r + c * height < len(cells):
                line.append("  " if c else "")
                line.append_text(cells[r + c * height])
        lines.append(line)
    return lines


def _screen(tracker: Any, last: Any, saving: SessionFile | None, size: tuple[int, int] = (80, 24)) -> Any:
    """The screen: what the last key did, the coup being dealt, recent coups, unseen cards, counts and the bets.

    Every line fits ``size`` (columns, lines); the keys line is always the last.  The
    bets are shown in columns, the edges first.  On a short terminal lines are given
    up, recent coups first, then the unseen cards, then bets (a "+N more" cell stands
    for those that do not fit), the counts last.
    """
    from rich.console import Group
    from rich.text import Text

    from toolkit.coup.cards import RANKS

    width, height = max(size[0], 20), max(size[1], 4)
    snap = tracker.snapshot()
    coups = tracker.coups
    head = f"baccarat track · {tracker.decks} decks · {len(coups)} coup(s) · {tracker.left()} cards left"
    title = [Text(line, style="bold") for line in _fold(f"{head} · next: {tracker.next_slot()}", width, 2)]
    style = {"error": "bold red", "tableau": "bold white on red", "coup": "green", "undo": "yellow"}
    message = [] if last is None else [Text(t, style.get(last.kind, "")) for t in _fold(last.text, width, 3)]
    status: list[Any] = []
    if saving is not None and saving.error is not None:
        text = f"autosave failed: {saving.error}; the session goes on (tried again at the next key, and on exit)"
        status = [Text(t, "bold red") for t in _fold(text, width, 2)]
    elif saving is not None and saving.saved_coups is not None:
        status = [Text(_fold(f"saved: {saving.saved_coups} coup(s) in {saving.path}", width, 1)[0], "dim")]
    current = []
    if tracker.current:
        current = [Text(_fold("this coup: " + " ".join(RANKS[c] for c in tracker.current), width, 1)[0], "cyan")]
    recent = [c.describe() for c in (coups[:-1] if last is not None and last.kind == "coup" else coups)[-3:]]
    comp = snap.composition
    unseen = " ".join(f"{r}:{n}" for r, n in zip(RANKS, comp.by_rank, strict=True))
    unseen_lines = [Text(t) for t in _fold(f"unseen {comp.total}: {unseen}", width, 2)]
    counts = " · ".join(f"{name} {rc:+d} / {snap.true[name]:+.3f}" for name, rc in snap.running.items())
    count_lines = [Text(t) for t in _fold(f"counts (running / true): {counts}", width, 2)] if counts else []
    bets_head = [Text(_fold(f"expected value before coup {len(coups) + 1}, {MONEY}", width, 1)[0], "italic")]
    keys = [Text(_fold(KEYS_LINE, width, 1)[0], "dim")]
    # the lines each part gets, in order of importance: what is left after the others goes to the bets, then coups
    room = height - sum(map(len, (title, keys, message, status, current, bets_head))) - 1
    count_lines = count_lines[: max(room, 0)]
    room -= len(count_lines)
    bets = _bet_cells(snap, width, max(room + 1, 1))
    room -= len(bets) - 1
    unseen_lines = unseen_lines[: max(room, 0)]
    room -= len(unseen_lines)
    recent_lines = [Text(_fold(t, width, 1)[0], "dim") for t in (recent[-room:] if room > 0 else [])]
    lines = [*title, *recent_lines, *message, *current, *status, *unseen_lines, *count_lines, *bets_head, *bets]
    return Group(*lines[: height - 1], *keys)


def _line(tracker: Any, fb: Any, as_json: bool) -> str:
    """One line for a key fed from a pipe: the feedback, and after a coup the numbers before the next one.

    Lines are wrapped at words to the terminal's width (``--jsonl``: one object a line, never wrapped).
    The expected values are per unit staked, as on the screen and everywhere in the toolkit.
    """
    from toolkit.cli._output import wrap

    if not as_json:
        text = wrap(f"[{fb.kind}] {fb.text}")
        if fb.kind == "coup":
            snap = tracker.snapshot()
            evs = " ".join(f"{b}={v:+.6f}" for b, v in snap.expected_value.items() if v is not None)
            counts = " ".join(f"{s}={rc:+d}/{snap.true[s]:+.3f}" for s, rc in snap.running.items())
            text += "\n" + wrap(f"  expected value before coup {len(tracker.coups) + 1}, {MONEY}: {evs}")
            if counts:
                text += "\n" + wrap(f"  counts (running/true): {counts}")
        return text
    payload: dict[str, object] = {"kind": fb.kind, "text": fb.text}
    if fb.kind == "coup":
        coup = tracker.coups[-1]
        snap = tracker.snapshot()
        payload.update(
            coup=coup.number,
            winner=coup.winner,
            positive=list(fb.positive),
            next={
                "cards_unseen": snap.composition.total,
                "expected_value": dict(snap.expected_value),
                "running": dict(snap.running),
                "true": dict(snap.true),
            },
        )
    return json.dumps(payload)


# ---------------------------------------------------------------------------- command
def track(
    decks: int = typer.Option(8, "--decks", "-d", help="Decks in the shoe."),
    bets: str | None = BETS_OPTION,
    systems: str | None = SYSTEMS_OPTION,
    burn: str = typer.Option(
        "standard", "--burn", help="Burn rule: standard (turn one up, burn its value), fixed, none."
    ),
    burn_ace: int = typer.Option(
        1, "--burn-ace", help="Cards burned face down when the exposed card is an ace (1 or 11)."
    ),
    burn_cards: int = typer.Option(0, "--burn-cards", help="Cards burned face down with --burn fixed."),
    header: str | None = typer.Option(
        None, "--header", help="More shoe header settings as key=value words: 'commission=0.04 tie_pays=9'."
    ),
    confirm: bool = typer.Option(False, "--confirm", help="Close every coup with Enter (flags an extra third card)."),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Save the session here as a shoe record (.csv, .jsonl, .parquet)."
    ),
    shoe: int = typer.Option(1, "--shoe", help="The shoe's id in the saved record."),
    jsonl: bool = typer.Option(
        False, "--jsonl", help="From a pipe: one JSON object per key instead of a line of text."
    ),
) -> None:
    """Follow a live shoe: type each card as it comes out; see the coups, the unseen cards, counts and every edge."""
    from toolkit.live import Panel, Tracker
    from toolkit.live.autosave import SessionFile, check_output
    from toolkit.records import ShoeHeader

    if not 1 <= shoe <= 10**9:
        fail(f"--shoe must be a shoe id from 1 to 1,000,000,000, got {shoe}")
    settings: dict[str, object] = {"decks": decks, "burn": burn, "burn_ace": burn_ace, "burn_cards": burn_cards}
    for word in (header or "").split():
        if "=" not in word:
            fail(f"--header takes key=value words, got {word!r}")
        key, value = word.split("=", 1)
        settings[key] = value
    try:
        shoe_header = ShoeHeader().updated(settings)
        panel = Panel.of(bets, systems, shoe_header.rules)
        tracker = Tracker(shoe_header, panel, confirm=confirm, shoe=shoe)
    except (ValueError, TypeError) as err:
        fail(str(err))
    saving = None
    if out is not None:
        try:
            saving = SessionFile(check_output(out))
        except ValueError as err:
            fail(str(err))
    try:
        if sys.stdin.isatty() and sys.stdout.isatty():
            _run_terminal(tracker, saving)
        else:
            _run_pipe(tracker, saving, jsonl)
    finally:
        _save(tracker, saving)


def _run_pipe(tracker: Any, saving: SessionFile | None, jsonl: bool) -> None:
    from toolkit.live.keys import StopSignals

    with StopSignals() as stop:
        for key in read_keys(sys.stdin, stop, terminal=False):
            fb = tracker.press(key)
            if fb.kind == "quit":
                break
            sys.stdout.write(_line(tracker, fb, jsonl) + "\n")
            sys.stdout.flush()
            if saving is not None and saving.save_if_changed(tracker) and saving.error is not None:
                typer.echo(f"baccarat track: autosave failed: {saving.error}; the session goes on", err=True)


def _run_terminal(tracker: Any, saving: SessionFile | None) -> None:
    from rich.console import Console
    from rich.live import Live

    from toolkit.live.keys import StopSignals

    console = Console()
    last = None
    with (
        StopSignals() as stop,
        _raw(sys.stdin),
        Live(_screen(tracker, None, saving, console.size), console=console, auto_refresh=False, screen=True) as live,
    ):
        for key in read_keys(sys.stdin, stop, terminal=True):
            fb = tracker.press(key)
            if fb.kind == "quit":
                break
            if fb.kind == "coup" and fb.positive:
                console.bell()  # a bet has the player's edge for the next coup
            last = fb
            if saving is not None:
                saving.save_if_changed(tracker)
            live.update(_screen(tracker, last, saving, console.size), refresh=True)
    with suppress(OSError):  # the terminal may be gone (SIGHUP): the session is saved all the same
        console.print(_screen(tracker, last, saving, console.size))


def _save(tracker: Any, saving: SessionFile | None) -> None:
    """The final save (it retries a failed autosave); when it fails too, the keys typed are printed to type again."""
    coups = len(tracker.coups)
    if saving is None:
        typer.echo(f"baccarat track: {coups} coup(s); not saved (give --out FILE to save the session)", err=True)
        return
    if not tracker.keys:
        typer.echo("baccarat track: nothing to record yet: no card was typed; nothing saved", err=True)
        return
    if saving.save(tracker):
        path = saving.path
        typer.echo(
            f"baccarat track: {coups} coup(s) saved to {path} (check it with: baccarat validate {path})",
            err=True,
        )
        return
    from toolkit.live.tracker import END_KEYS

    keys = "".join("." if k in END_KEYS else k for k in tracker.keys)
    typer.echo(f"baccarat track: the keys typed, to feed again through a pipe: {keys}", err=True)
    fail(f"--out: {saving.error}")


def register(app: typer.Typer) -> None:
    """Add this module's command to the ``baccarat`` app."""
    app.command("track")(track)
