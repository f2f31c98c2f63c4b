"""The GPU kernel (``expected_values(..., device="gpu")``) against the CPU path.

Without a GPU, numba's CUDA simulator runs the same kernel source on the CPU; it is switched
on by ``NUMBA_ENABLE_CUDASIM=1`` before numba is imported, so that check runs in a subprocess
on a few shoes (the simulator interprets every thread in Python).  The test marked ``gpu``
compares the devices on a real GPU and is skipped where there is none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from toolkit.bets.paytable import get_bet, standard_bets
from toolkit.bets.pricing import expected_values

ROOT = Path(__file__).resolve().parents[1]

SIMULATED = """
import json
import numpy as np
from toolkit.bets.paytable import PayTable, standard_bets
from toolkit.bets.pricing import expected_values

def both_pairs_and_tie(c):
    return 200 if c.player_pair and c.banker_pair and c.player_total == c.banker_total else -1

bets = [*standard_bets(), PayTable.from_function("both_pairs_and_tie", both_pairs_and_tie)]
shoes = np.array([
    (0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 2, 2),  # Player EV exactly 0
    (0,) * 9 + (2, 2, 1, 1),
    (1, 2, 0, 1, 1, 3, 1, 1, 2, 1, 2, 1, 0),
    (32, 32, 32, 5, 3, 2, 9, 32, 32, 32, 20, 0, 31),
])
gpu = expected_values(shoes, bets, device="gpu", exact_signs=False)
cpu = expected_values(shoes, bets, exact_signs=False)
settled = expected_values(shoes, bets, device="gpu")
settled_cpu = expected_values(shoes, bets)
print(json.dumps({
    "diff": float(np.abs(gpu - cpu).max()),
    "settled_diff": float(np.abs(settled - settled_cpu).max()),
    "same_signs": bool(np.array_equal(np.sign(settled), np.sign(settled_cpu))),
    "zero": float(settled[0, 1]),
}))
"""


def test_gpu_kernel_matches_cpu_in_the_cuda_simulator():
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", SIMULATED], check=False, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["diff"] < 1e-12
    assert result["settled_diff"] < 1e-12
    assert result["same_signs"]  # exact zeros included
    assert result["zero"] == 0.0


def test_the_gpu_check_script_runs_end_to_end_in_the_cuda_simulator():
    # tests/benchmarks/gpu.py is the one call a lent GPU machine runs: here on three coups, simulated
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    script = ROOT / "tests" / "benchmarks" / "gpu.py"
    done = subprocess.run([sys.executable, str(script), "--tiny"], check=False, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["simulated"]
    assert result["coups"] == 3
    assert result["ok"]
    assert result["within_bound"]
    assert result["same_signs"]
    assert result["max_diff"] < 1e-12


def _real_gpu() -> bool:
    from numba.core import config

    if config.ENABLE_CUDASIM:
        return False
    from toolkit.exact._gpu import available

    return available()


@pytest.mark.gpu
def test_gpu_matches_cpu_on_a_real_gpu():
    if not _real_gpu():
        pytest.skip("no CUDA GPU (numba.cuda.is_available() is False)")
    rng = np.random.default_rng(5)
    full = np.full(13, 32)
    shoes = np.array([rng.multivariate_hypergeometric(full, k) for k in rng.integers(6, 417, size=3000)])
    bets = standard_bets()
    gpu = expected_values(shoes, bets, device="gpu", exact_signs=False)
    cpu = expected_values(shoes, bets, exact_signs=False)
    assert np.abs(gpu - cpu).max() < 1e-12
    settled = expected_values(shoes, bets, device="gpu")
    assert np.array_equal(np.sign(settled), np.sign(expected_values(shoes, bets)))


def test_an_unknown_device_is_refused():
    with pytest.raises(ValueError, match="device must be one of cpu, gpu"):
        expected_values([[4] * 13], [get_bet("banker")], device="tpu")


def test_gpu_without_a_gpu_says_so():
    if _real_gpu():
        pytest.skip("a GPU is present")
    from numba.core import config

    if config.ENABLE_CUDASIM:
        pytest.skip("the CUDA simulator is on")
    with pytest.raises(RuntimeError, match="no CUDA GPU"):
        expected_values([[4] * 13], [get_bet("banker")], device="gpu")
