"""``ThorpStudy(device=...)``: checked, left out of the fingerprint, and the GPU tallies equal the CPU's.

The GPU path runs under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, set before numba is
imported, hence a subprocess, as in ``tests/test_gpu.py``) on a study of a few shoes and a few coups
each: the simulator interprets every GPU thread in Python.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from thorp_cases import SMALL

from toolkit.studies import ThorpStudy

ROOT = Path(__file__).resolve().parents[2]

SIMULATED = """
import json
import numpy as np
from toolkit.dealing.dealer import Dealing
from toolkit.exact._gpu import _compiled
from toolkit.studies import ThorpStudy, run_study

design = dict(
    n_shoes=3, seed=5, block_size=2, bets=("banker", "tie"), dealing=Dealing(coups=3),
    jacobson_depths=(18, 26), observers=("unseen", "remaining"),
)
cpu = run_study(ThorpStudy(**design), workers=1, progress=False)
kernels_before = _compiled.cache_info().currsize
gpu = run_study(ThorpStudy(**design, device="gpu"), workers=1, progress=False)
a, b = cpu.tally.arrays, gpu.tally.arrays
print(json.dumps({
    "used_gpu": kernels_before == 0 and _compiled.cache_info().currsize > 0,
    "keys": sorted(a) == sorted(b),
    "hands": int(a["hands"].sum()),
    "exact": [k for k in a if a[k].dtype.kind == "i" and not np.array_equal(a[k], b[k])],
    "close": [k for k in a if a[k].dtype.kind == "f" and not np.allclose(a[k], b[k], rtol=1e-12, atol=1e-13)],
    "same_claims": cpu.claims().select("bet", "positive_hands").equals(gpu.claims().select("bet", "positive_hands")),
    "fingerprint": cpu.study.fingerprint() == gpu.study.fingerprint(),
}))
"""


def test_device_is_checked_and_not_part_of_the_fingerprint() -> None:
    with pytest.raises(ValueError, match=r"ThorpStudy\.device must be one of cpu, gpu, got 'tpu'"):
        ThorpStudy(device="tpu")
    cpu, gpu = ThorpStudy(**SMALL), ThorpStudy(**SMALL, device="gpu")
    assert cpu.device == "cpu"
    assert gpu.device == "gpu"
    assert cpu.fingerprint() == gpu.fingerprint()  # a checkpoint written on one device resumes on the other


def test_gpu_study_tallies_equal_the_cpu_ones_in_the_cuda_simulator() -> None:
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", SIMULATED], check=False, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["used_gpu"]  # the GPU kernel ran (simulated) for the GPU study only
    assert result["keys"]
    assert result["hands"] == 2 * 3 * 3  # two observers, three shoes, three coups each
    assert result["exact"] == []  # counts of hands and of positive expectations: identical
    assert result["close"] == []  # sums of EVs: equal up to rounding
    assert result["same_claims"]
    assert result["fingerprint"]
