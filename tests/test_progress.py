"""The package's one progress bar (:mod:`toolkit._progress`): drawn on a terminal, never into a pipe or a file."""

from __future__ import annotations

import io
import sys

from toolkit._progress import progress_bar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _drawn(monkeypatch, stream: io.StringIO, show: bool) -> str:
    monkeypatch.setattr(sys, "stderr", stream)
    assert list(progress_bar(range(5), desc="shoes", unit="shoe", show=show)) == [0, 1, 2, 3, 4]
    return stream.getvalue()


def test_the_bar_is_drawn_on_a_terminal_only(monkeypatch) -> None:
    assert "shoes" in _drawn(monkeypatch, _Terminal(), show=True)  # a terminal: the bar, with its label
    assert _drawn(monkeypatch, io.StringIO(), show=True) == ""  # a pipe or a log file: nothing, no carriage return
    assert _drawn(monkeypatch, _Terminal(), show=False) == ""  # --no-progress: nothing even on a terminal


def test_a_bar_counted_by_hand_keeps_its_total(monkeypatch) -> None:
    monkeypatch.setattr(sys, "stderr", _Terminal())
    with progress_bar(total=4, desc="count search", unit="count") as bar:
        bar.update(4)
        assert bar.total == 4
        assert bar.n == 4
