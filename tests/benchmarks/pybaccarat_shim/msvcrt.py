"""Build-time stand-in for Windows' ``msvcrt``, so that ``pybaccarat`` installs on Linux and macOS.

pybaccarat 0.18 (PyPI, MIT) is an independent exact baccarat calculator.  Its ``setup.py`` imports
``pybaccarat.baccarat`` for the version number, and that module does ``from msvcrt import getch`` (a
Windows-only keyboard call used by its interactive game), so ``pip install pybaccarat`` fails elsewhere.
The calculator itself, ``pybaccarat.compute_baccarat_odds``, never imports ``msvcrt``.

Put this folder on ``PYTHONPATH`` for the install only (see ``tests/benchmarks/README.md``)::

    python -m pip install "setuptools>=70.1"
    PYTHONPATH=tests/benchmarks/pybaccarat_shim python -m pip install --no-build-isolation --no-deps pybaccarat==0.18

The stand-in answers only imports made from pybaccarat's own files.  Everyone else (the standard
library's ``subprocess``, ``getpass``, ``asyncio``... decide "am I on Windows?" by trying
``import msvcrt``) still gets ``ModuleNotFoundError``, exactly as without it.
"""

import sys

_frame = sys._getframe(1)
while _frame is not None and _frame.f_code.co_filename.startswith("<frozen"):
    _frame = _frame.f_back
if _frame is None or "pybaccarat" not in _frame.f_code.co_filename:
    raise ModuleNotFoundError("No module named 'msvcrt'", name="msvcrt")


def getch() -> bytes:
    """Windows-only keyboard read; pybaccarat's interactive game is not usable here."""
    raise OSError("msvcrt.getch is Windows-only (stand-in used to install pybaccarat)")
