"""Keys from a terminal or a pipe: a burst of input split into keys, and the signals that stop a session.

A terminal sends an arrow or a function key as an escape sequence of several
characters, and several keys typed quickly arrive in one read.
:func:`split_keys` cuts a buffer into keys by the grammar of ECMA-48 (a
control sequence is ``ESC [``, parameter bytes ``0-?``, intermediate bytes
``space-/``, one final byte ``@-~``; ``ESC O`` and ``ESC N`` take one more
character; ``ESC`` and any other character is an Alt key), so that every
sequence, known or not, is one key and the keys around it are kept.  A key
table (as in prompt_toolkit) would split a sequence it does not know into
characters, and some of those are card keys.

:func:`read_keys` reads a file descriptor with :func:`select.select`, so that
an escape at the end of a read waits a moment for the rest of its sequence,
and so that a signal stops the keys even in a process whose other threads
(numba's, polars') receive it: :class:`StopSignals` catches SIGINT, SIGTERM
and SIGHUP, and :func:`signal.set_wakeup_fd` wakes the reader, which then
ends; the caller saves the session as on a quit key.

>>> split_keys("\\x1b[A5 3")
(['\\x1b[A', '5', ' ', '3'], '')
>>> split_keys("4\\x1b[1;")  # a sequence cut by the end of the read waits for the rest
(['4'], '\\x1b[1;')
>>> split_keys("\\x1b", final=True)
(['\\x1b'], '')
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import select
import signal
from collections.abc import Iterator
from types import FrameType, TracebackType

__all__ = ["ESCAPE_WAIT", "SEPARATORS", "StopSignals", "read_keys", "split_keys"]

#: A whole escape sequence (ECMA-48): a control sequence, a single shift and its character, or an Alt key.
_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|[NO][\s\S]|[\s\S])")
#: The start of an escape sequence that the end of the buffer cut short.
_CUT = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|[NO])?\Z")
#: Seconds an escape at the end of a read waits for the rest of its sequence.
ESCAPE_WAIT = 0.05
#: Characters that separate keys and are no key.
SEPARATORS = (" ", "\t")
_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


def split_keys(buffer: str, final: bool = False) -> tuple[list[str], str]:
    """Cut ``buffer`` into keys: each escape sequence is one key, any other character is one key.

    Parameters
    ----------
    buffer
        Characters read so far.
    final
        No more characters are coming for now: a cut sequence at the end is one key.

    Returns
    -------
    tuple of (list of str, str)
        The keys, and the start of a sequence cut by the end of ``buffer`` (empty when ``final``).

    Examples
    --------
    >>> split_keys("k\\x1bOP9\\x1ba")  # F1 (ESC O P) and Alt-a are one key each
    (['k', '\\x1bOP', '9', '\\x1ba'], '')
    """
    keys: list[str] = []
    i = 0
    while i < len(buffer):
        if buffer[i] != "\x1b":
            keys.append(buffer[i])
            i += 1
            continue
        if _CUT.match(buffer, i):
            if not final:
                return keys, buffer[i:]
            keys.append(buffer[i:])
            return keys, ""
        match = _SEQUENCE.match(buffer, i)
        assert match is not None  # an escape that is not cut short starts a sequence
        keys.append(match.group())
        i = match.end()
    return keys, ""


class StopSignals:
    """SIGINT, SIGTERM and SIGHUP, while in a ``with`` block: remembered instead of raised, and they wake a reader.

    Outside the main thread (where no handler can be set) it does nothing.

    Attributes
    ----------
    received
        The signals received, in order.
    fd
        The file descriptor that becomes readable when a signal arrives (``None`` outside a ``with`` block).
    """

    def __init__(self) -> None:
        self.received: list[signal.Signals] = []
        self.fd: int | None = None
        self._write: int | None = None
        self._saved: dict[signal.Signals, object] = {}
        self._wakeup = -1

    @property
    def stopped(self) -> bool:
        """Whether a signal asked the session to stop."""
        return bool(self.received)

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if signal.Signals(signum) not in self.received:
            self.received.append(signal.Signals(signum))

    def drain(self) -> None:
        """Read the wake-up bytes (one per signal) and note their signals."""
        if self.fd is None:
            return
        with contextlib.suppress(BlockingIOError, InterruptedError):
            for byte in os.read(self.fd, 64):
                self._handler(byte, None)

    def __enter__(self) -> StopSignals:
        """Catch the signals and open the wake-up pipe."""
        try:
            for name in _SIGNALS:
                if hasattr(signal, name):
                    sig = getattr(signal, name)
                    self._saved[sig] = signal.signal(sig, self._handler)
        except ValueError:  # not the main thread
            self._restore()
            return self
        self.fd, self._write = os.pipe()
        os.set_blocking(self.fd, False)
        os.set_blocking(self._write, False)
        self._wakeup = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        """Put the handlers and the wake-up descriptor back."""
        if self.fd is not None:
            signal.set_wakeup_fd(self._wakeup)
            self.drain()
            for fd in (self.fd, self._write):
                if fd is not None:
                    os.close(fd)
            self.fd = self._write = None
        self._restore()

    def _restore(self) -> None:
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]
        self._saved.clear()


def read_keys(fd: int, stop: StopSignals, crlf: bool = False) -> Iterator[str]:
    """The keys read from ``fd`` until its end, or until ``stop`` has a signal; spaces and tabs are skipped.

    Parameters
    ----------
    fd
        The file descriptor (a terminal in cbreak mode, a pipe, a file).
    stop
        The signals that end the keys (entered, so that its wake-up descriptor is open).
    crlf
        Skip carriage returns (a pipe's CRLF line ends: the line feed is the key).
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    watched = [fd] if stop.fd is None else [fd, stop.fd]
    ended = False
    while not (ended or stop.stopped):
        ready = select.select(watched, [], [], ESCAPE_WAIT if pending else None)[0]
        if stop.fd is not None and stop.fd in ready:
            stop.drain()
            continue
        if fd in ready:
            data = os.read(fd, 4096)
            ended = not data
            keys, pending = split_keys(pending + decoder.decode(data, final=ended), final=ended)
        else:  # the rest of a cut sequence did not come: what came is one key
            keys, pending = split_keys(pending, final=True)
        for key in keys:
            if stop.stopped:
                return
            if key not in SEPARATORS and not (crlf and key == "\r"):
                yield key
