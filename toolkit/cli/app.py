"""The ``baccarat`` command.  Thin typer commands over the library; bad input gets one line and exit 2."""

from __future__ import annotations

import importlib
import sys
from functools import cache
from typing import cast

import typer
import typer.core

__all__ = ["app", "main"]

app = typer.Typer(
    name="baccarat",
    help="Exact baccarat odds, effects of removal, shoe simulation, counting and end-of-shoe studies.",
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from toolkit import __version__

        typer.echo(f"baccarat {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Exact baccarat odds, effects of removal, shoe simulation, counting and end-of-shoe studies."""


#: Modules that add commands to the app, each through ``register(app)``.
COMMAND_MODULES = (
    "engine",
    "ca",
    "shoes",
    "records",
    "thorp",
    "chemin",
    "track",
    "bankroll",
    "assess",
    "detect",
    "shuffle",
    "sort",
    "shuffle_track",
    "cut_card",
    "listing",
    "last_cards",
)

for _name in COMMAND_MODULES:
    importlib.import_module(f"toolkit.cli.{_name}").register(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, turning usage errors and bad values into one line on stderr."""
    from toolkit.cli._common import ARGS, printable

    ARGS[:] = list(sys.argv[1:] if argv is None else argv)
    command = _command()
    try:
        code = command.main(args=argv, prog_name="baccarat", standalone_mode=False)
    except typer.Exit as stop:
        sys.exit(stop.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("baccarat: interrupted", err=True)
        sys.exit(130)
    except Exception as err:
        # click's usage errors (typer may vendor its own copy of click, so match by shape)
        if hasattr(err, "format_message") and hasattr(err, "exit_code"):
            message = err.format_message()
            if message:  # empty when the help was printed for a bare command
                typer.echo(f"baccarat: error: {printable(message)}", err=True)
            sys.exit(2)
        if isinstance(err, (ValueError, TypeError, OSError, ArithmeticError)):
            lines = str(err).strip().splitlines() or [type(err).__name__]
            typer.echo(f"baccarat: error: {printable(lines[0])}", err=True)
            sys.exit(2)
        raise
    sys.exit(code if isinstance(code, int) else 0)


@cache
def _command() -> typer.core.TyperGroup:
    """The click command of the app, built once a process: typer builds it afresh from every command's signature
    on each call (about 25 ms, most of what a refused value costs when the command runs in-process)."""
    command = cast(typer.core.TyperGroup, typer.main.get_command(app))  # a group: the app has several commands
    _finite_floats(command)
    _metavars(command)
    return command


def _metavars(command: object) -> None:
    """Every option's help names its value in words (N, X, TEXT, FILE, [a|b]), never as a Python type."""
    for sub in getattr(command, "commands", {}).values():
        _metavars(sub)
    for param in getattr(command, "params", ()):
        if param.metavar is not None or getattr(param, "is_flag", False):
            continue
        desc = getattr(param, "type_descriptor", None)
        if desc is None:
            continue
        if getattr(desc, "is_choice", False) and desc.choices:
            words = [getattr(c, "value", c) for c in desc.choices]
            name = "[" + "|".join(str(w) for w in words) + "]"
        elif getattr(desc, "is_path", False):
            name = "PATH"
        else:
            annotation = desc.annotation
            inner = getattr(annotation, "__args__", None) if getattr(desc, "is_list", False) else None
            kind = inner[0] if inner else annotation
            name = {int: "N", float: "X", str: "TEXT"}.get(kind, "PATH" if "Path" in str(kind) else "VALUE")
        if param.param_type_name == "argument":
            name = param.name.upper()
            param.display_type_rich = lambda ctx: None  # the name says it; no type beside it
        param.metavar = name


def _finite_floats(command: object) -> None:
    """Every float option of every command refuses NaN and the infinities (one rule for commands to come)."""
    import math

    for sub in getattr(command, "commands", {}).values():
        _finite_floats(sub)
    for param in getattr(command, "params", ()):
        annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
        if annotation is not float or getattr(param, "_finite", False):
            continue
        original = param.callback

        def check(ctx, par, value, original=original):
            values = value if isinstance(value, (list, tuple)) else [value]
            for v in values:
                if isinstance(v, float) and not math.isfinite(v):
                    raise ValueError(f"{par.opts[0]} must be a finite number, got {v}")
            return original(ctx, par, value) if original is not None else value

        param.callback = check
        param._finite = True


if __name__ == "__main__":  # pragma: no cover
    main()
