import os
import subprocess

import numpy as np
import pytest


@pytest.fixture
def rng():
    """Fresh random data every run; the seed is printed on failure (replay with SIGLAB_TEST_SEED)."""
    seed = int(os.environ.get("SIGLAB_TEST_SEED", np.random.SeedSequence().entropy % (1 << 63)))
    print(f"seed {seed} (replay with SIGLAB_TEST_SEED)")
    return np.random.default_rng(seed)


@pytest.fixture
def cli():
    """Runs siglab-cli (the build's, from SIGLAB_CLI)."""
    path = os.environ.get("SIGLAB_CLI")
    if not path:
        pytest.skip("SIGLAB_CLI is not set (ctest sets it)")
    return lambda *args: subprocess.run([path, *map(str, args)], capture_output=True, text=True, check=False)
