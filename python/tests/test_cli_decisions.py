"""siglab makes the CLI's decisions through the same core code: the window bounded by the signal,
auto's choice and fallback, and the same arguments refused."""
import resource

import numpy as np
import pytest

import siglab

GPU = any(e["name"] == "gpu-global" and not e["unavailable_reason"] for e in siglab.engines())


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_a_window_far_longer_than_the_signal_is_cropped_to_it_as_the_cli_does(rng):
    x = rng.uniform(-1, 1, 1000)
    window = 40_000_001  # 320 MB of taps if built whole
    before = peak_rss_mib()
    y = siglab.filter(x, window)
    assert peak_rss_mib() - before < 100, "the window's taps were built whole"
    cropped = siglab.filter(x, taps=np.full(2 * x.size - 1, 1.0 / window), engine="cpu-serial")
    assert np.array_equal(y, cropped)  # the taps that never meet a sample dropped: the same bits
    with pytest.raises(ValueError, match="W 40000001 is too long for 1000 samples in reflect mode"):
        siglab.filter(x, window, "reflect")


def test_auto_on_nan_samples_runs_an_exact_engine_as_the_cli_does(rng):
    x = rng.uniform(-1, 1, 5000)
    x[1234] = np.nan
    y, used = siglab.filter(x, 51, return_engine=True)
    expected = siglab.filter(x, 51, engine="cpu-serial")
    assert used in ("cpu-parallel", "gpu-tuned"), used
    assert np.array_equal(y, expected, equal_nan=True)


def test_auto_is_bit_identical_to_the_reference_for_a_wide_mean(rng):
    x = rng.uniform(-100, 100, 10000)
    y, used = siglab.filter(x, 51, return_engine=True)
    assert used != "cpu-running"
    assert np.array_equal(y.view(np.uint64), siglab.filter(x, 51, engine="cpu-serial").view(np.uint64))


@pytest.mark.parametrize("window", [True, False, 5.0, "5", np.bool_(True)])
def test_a_window_that_is_not_a_whole_number_is_refused(window):
    with pytest.raises(ValueError, match="window must be a whole number"):
        siglab.filter(np.ones(10), window)
    with pytest.raises(ValueError, match="window must be a whole number"):
        siglab.compare(np.ones(10), window, repeat=1)


@pytest.mark.parametrize("repeat", [-1, 0, 100001])
def test_compare_refuses_a_repeat_count_the_cli_refuses(repeat):
    with pytest.raises(ValueError, match="repeat must be from 1 to 100000"):
        siglab.compare(np.ones(10), 3, repeat=repeat)


@pytest.mark.skipif(GPU, reason="checks a machine without a GPU")
def test_a_gpu_that_cannot_exist_is_refused_without_a_gpu():
    with pytest.raises(ValueError, match="names GPU 5, which does not exist; this machine has no usable GPU"):
        siglab.filter(np.ones(10), 3, devices=[5])
    siglab.filter(np.ones(10), 3, devices=[0, 0])  # device 0, the default, whose GPU engines say why
