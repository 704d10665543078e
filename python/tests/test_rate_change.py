"""Rate-changing stages from Python: the result's length follows the chain (1-D and N x C), as
SciPy gives it."""
import numpy as np
import pytest
import scipy.signal

import siglab


@pytest.mark.parametrize("channels", [1, 2])
def test_a_rate_change_gives_the_chains_length_and_scipys_values(channels):
    x = np.random.default_rng(3).standard_normal((1001, channels))
    if channels == 1:
        x = x[:, 0]
    y = siglab.Pipeline("decimate 4 ftype fir; resample-poly 3,2").run(x)
    expected = scipy.signal.resample_poly(scipy.signal.decimate(x, 4, ftype="fir", axis=0), 3, 2, axis=0)
    assert y.shape == expected.shape
    np.testing.assert_allclose(y, expected, rtol=0, atol=1e-12)
