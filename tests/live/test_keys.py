"""Keys from a burst of input: escape sequences are one key each, and the keys around them are kept."""

from __future__ import annotations

import os

import pytest

from toolkit.live.keys import StopSignals, read_keys, split_keys


@pytest.mark.parametrize(
    ("burst", "keys"),
    [
        ("\x1b[A5 3", ["\x1b[A", "5", " ", "3"]),  # an arrow key typed with cards
        ("2\x1b[1;5Ck", ["2", "\x1b[1;5C", "k"]),  # Ctrl-Right: parameters and a final byte
        ("\x1bOPq", ["\x1bOP", "q"]),  # F1 (single shift O and one character)
        ("\x1b[15~9", ["\x1b[15~", "9"]),  # F5
        ("\x1bk4", ["\x1bk", "4"]),  # Alt-K is one key, not a king
        ("\x1b\x1b[B7", ["\x1b\x1b", "[", "B", "7"]),  # Alt-Escape, then what follows is characters
        ("a?\r", ["a", "?", "\r"]),
    ],
)
def test_a_burst_is_cut_into_keys(burst, keys):
    assert split_keys(burst) == (keys, "")


@pytest.mark.parametrize("cut", ["\x1b", "\x1b[", "\x1b[1;", "\x1bO"])
def test_a_sequence_cut_by_the_end_of_a_read_waits_for_the_rest(cut):
    assert split_keys("8" + cut) == (["8"], cut)
    assert split_keys("8" + cut, final=True) == (["8", cut], "")


def test_keys_from_a_pipe_keep_everything_around_a_sequence():
    read, write = os.pipe()
    os.write(write, b"4?\x1b[A2 k\t3\x1b[Dk\r\nk")
    os.close(write)
    try:
        with StopSignals() as stop:
            keys = list(read_keys(read, stop, crlf=True))
    finally:
        os.close(read)
    assert keys == ["4", "?", "\x1b[A", "2", "k", "3", "\x1b[D", "k", "\n", "k"]
    assert not stop.stopped


def test_a_signal_before_the_read_stops_the_keys():
    import signal

    read, write = os.pipe()
    before = signal.getsignal(signal.SIGINT)  # the default handler, or SIG_IGN where the test runner set it
    try:
        with StopSignals() as stop:
            signal.raise_signal(signal.SIGINT)  # caught: remembered, not raised
            keys = list(read_keys(read, stop))
    finally:
        os.close(read)
        os.close(write)
    assert keys == []
    assert stop.received == [signal.SIGINT]
    assert signal.getsignal(signal.SIGINT) is before  # put back
