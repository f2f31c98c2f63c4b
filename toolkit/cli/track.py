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
import os
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import typer

from toolkit.cli._common import fail

__all__ = ["read_keys", "register", "track"]

BETS_OPTION = typer.Option(
    None, "--bets", help="Bets to show, comma-separated (default: every standard bet): 'banker,player,tie,dragon7'."
)
SYSTEMS_OPTION = typer.Option(None, "--systems", help="Count systems, comma-separated: 'dragon7,panda8'.")


# ---------------------------------------------------------------------------- keys
@contextmanager
def _raw(stream: IO[str]) -> Iterator[None]:
    """Keys one at a time (cbreak mode: no echo, no line buffering; Ctrl-C still interrupts)."""
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_keys(stream: IO[str], terminal: bool) -> Iterator[str]:
    """The keys typed: one character at a time; on a terminal an escape sequence (an arrow key) is one key.

    Spaces and tabs separate nothing and are skipped; the end of the input ends the keys.
    """
    if terminal:
        fd = stream.fileno()
        while True:
            data = os.read(fd, 1)
            if not data:
                return
            key = data.decode("utf-8", "replace")
            if key == "\x1b":  # gather the rest of an escape sequence already waiting
                while select.select([fd], [], [], 0.02)[0]:
                    more = os.read(fd, 1)
                    if not more:
                        break
                    key += more.decode("utf-8", "replace")
            if key not in (" ", "\t"):
                yield key
    else:
        while True:
            ch = stream.read(1)
            if not ch:
                return
            if ch == "\r":
                continue  # a CRLF pipe: the \n ends the coup
            if ch not in (" ", "\t"):
                yield ch


# ---------------------------------------------------------------------------- screen
def _screen(tracker: Any, last: Any, log: list[Any]) -> Any:
    """The rich renderable of the tracker's state: last message, coup in progress, recent coups, numbers."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from toolkit.cards import RANKS

    snap = tracker.snapshot()
    parts: list[Any] = []
    title = Text(f"baccarat track · {tracker.decks} decks · ", style="bold")
    title.append(f"{len(tracker.coups)} coup(s) · {tracker.left()} cards left · next: {tracker.next_slot()}")
    parts.append(title)
    if last is not None:
        style = {"error": "bold red", "tableau": "bold white on red", "coup": "green", "undo": "yellow"}
        parts.append(Text(last.text, style=style.get(last.kind, "")))
    if tracker.current:
        parts.append(Text("this coup: " + " ".join(RANKS[c] for c in tracker.current), style="cyan"))
    for fb in log[-4:]:
        parts.append(Text(fb.text, style="dim"))
    comp = snap.composition
    parts.append(
        Text(f"unseen {comp.total}: " + " ".join(f"{r}:{n}" for r, n in zip(RANKS, comp.by_rank, strict=True)))
    )
    if snap.running:
        counts = Table(title=None, show_edge=False, pad_edge=False)
        counts.add_column("count")
        counts.add_column("running", justify="right")
        counts.add_column("true", justify="right")
        for name, rc in snap.running.items():
            counts.add_row(name, f"{rc:+d}", f"{snap.true[name]:+.3f}")
        parts.append(counts)
    edges = Table(show_edge=False, pad_edge=False, title="before the next coup")
    edges.add_column("bet")
    edges.add_column("expected value", justify="right")
    edges.add_column("house edge", justify="right")
    for name, ev in snap.expected_value.items():
        if ev is None:
            edges.add_row(name, "-", "-")
        elif ev > 0:
            edges.add_row(f"{name}  EDGE", f"{100 * ev:+.4f}%", f"{-100 * ev:+.4f}%", style="bold black on green")
        else:
            edges.add_row(name, f"{100 * ev:+.4f}%", f"{-100 * ev:+.4f}%")
    parts.append(edges)
    parts.append(Text("keys: a 2-9 t j q k = card · ? face-down burn unseen · u undo · Enter end coup · x quit", "dim"))
    return Group(*parts)


def _line(tracker: Any, fb: Any, as_json: bool) -> str:
    """One line for a key fed from a pipe: the feedback, and after a coup the numbers before the next one.

    Lines are wrapped at words to the terminal's width (``--jsonl``: one object a line, never wrapped).
    The expected values are in percent of the stake, as on the screen.
    """
    from toolkit.cli._output import wrap

    if not as_json:
        text = wrap(f"[{fb.kind}] {fb.text}")
        if fb.kind == "coup":
            snap = tracker.snapshot()
            evs = " ".join(f"{b}={100 * v:+.4f}%" for b, v in snap.expected_value.items() if v is not None)
            counts = " ".join(f"{s}={rc:+d}/{snap.true[s]:+.3f}" for s, rc in snap.running.items())
            text += "\n" + wrap(f"  expected value before coup {len(tracker.coups) + 1} (% of the stake): {evs}")
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
    from toolkit.records import ShoeHeader, write_records

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
    if out is not None and out.suffix.lower() not in (".csv", ".jsonl", ".ndjson", ".parquet", ".pq"):
        fail(f"--out {out}: the record's format follows the suffix: .csv, .jsonl or .parquet")
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if terminal:
        _run_terminal(tracker)
    else:
        for key in read_keys(sys.stdin, terminal=False):
            fb = tracker.press(key)
            if fb.kind == "quit":
                break
            sys.stdout.write(_line(tracker, fb, jsonl) + "\n")
            sys.stdout.flush()
    _save(tracker, out, write_records)


def _run_terminal(tracker: Any) -> None:
    from rich.console import Console
    from rich.live import Live

    console = Console()
    log: list[Any] = []
    last = None
    with _raw(sys.stdin), Live(_screen(tracker, None, log), console=console, auto_refresh=False, screen=True) as live:
        try:
            for key in read_keys(sys.stdin, terminal=True):
                fb = tracker.press(key)
                if fb.kind == "quit":
                    break
                if fb.kind == "coup":
                    log.append(fb)
                    if fb.positive:
                        console.bell()  # a bet has the player's edge for the next coup
                last = fb
                live.update(_screen(tracker, last, log), refresh=True)
        except KeyboardInterrupt:
            pass
    console.print(_screen(tracker, last, log))


def _save(tracker: Any, out: Path | None, write_records: Any) -> None:
    coups = len(tracker.coups)
    if out is None:
        typer.echo(f"baccarat track: {coups} coup(s); not saved (give --out FILE to save the session)", err=True)
        return
    try:
        records = tracker.records()
    except ValueError as err:
        typer.echo(f"baccarat track: {err}; nothing saved", err=True)
        return
    path = write_records(records, out)
    typer.echo(f"baccarat track: {coups} coup(s) saved to {path} (check it with: baccarat validate {path})", err=True)


def register(app: typer.Typer) -> None:
    """Add this module's command to the ``baccarat`` app."""
    app.command("track")(track)
