"""Running the ``baccarat`` command in-process, for the CLI tests."""

from __future__ import annotations

import pytest

from toolkit.cli.app import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``baccarat ARGS`` run in-process."""
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out, err = capsys.readouterr()
    code = stop.value.code
    return (0 if code is None else int(code)), out, err
