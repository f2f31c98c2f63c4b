"""Speed of a row of the riffle table: the distance to uniform in floats from logarithms against the exact sum.

Run from the repository root (not collected by pytest)::

    python tests/benchmarks/total_variation.py            # 416 and 2,000 cards, 16 to 64 riffles, about 3 minutes
    python tests/benchmarks/total_variation.py --quick    # 416 cards only, seconds

For each deck and number of riffles ``k`` it measures the CPU time of (a) the float path
(``_total_variation_float``: ``expm1`` of sums of ``log1p``, the path ``total_variation`` takes past
``EXACT_ROW_BITS``) and (b) the baseline, the Bayer-Diaconis sum in integers (``total_variation_exact``),
in the same run, and prints the ratio (b)/(a) and the relative difference of the two (the float path
is within 1e-12 of the exact fraction; the tests check that too).  The Eulerian numbers both use are
computed once beforehand, outside the timings.  CPU time: the development machine is shared.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import time

from toolkit.dealing.shuffles.exact import _total_variation_float, eulerian_numbers, total_variation_exact


def _cpu(fn) -> tuple[float, object]:
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="416 cards only")
    args = parser.parse_args()
    cases = [(416, k) for k in (16, 32, 64)] + ([] if args.quick else [(2000, k) for k in (16, 64)])
    print(f"{'cards':>6} {'riffles':>7} {'float s':>9} {'exact s':>9} {'exact/float':>12} {'rel. diff':>10}")
    for n, k in cases:
        eulerian_numbers(n)
        _total_variation_float(n, k)  # the shares' table, cached per deck
        fast, value = _cpu(lambda n=n, k=k: _total_variation_float(n, k))
        slow, exact = _cpu(lambda n=n, k=k: float(total_variation_exact(n, k)))
        diff = abs(value / exact - 1)  # type: ignore[operator]
        print(f"{n:>6} {k:>7} {fast:>9.4f} {slow:>9.2f} {slow / max(fast, 1e-9):>12,.0f} {diff:>10.1e}")


if __name__ == "__main__":
    main()
