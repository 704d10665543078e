"""siglab's Python module against SciPy's definitions and against SigLab's own reference engine."""
import warnings

import numpy as np
import pytest
import scipy.ndimage

import siglab

MODES = ["zero", "reflect", "mirror", "nearest", "wrap"]
SCIPY_MODE = {"zero": "constant", "reflect": "reflect", "mirror": "mirror", "nearest": "nearest", "wrap": "wrap"}
SIZES = [1, 2, 4, 7, 1000, 4099]


def available_engines():
    return [e["name"] for e in siglab.engines() if not e["unavailable_reason"]]


def test_engines_lists_every_engine_with_its_reason():
    names = [e["name"] for e in siglab.engines()]
    assert names[:3] == ["cpu-serial", "cpu-parallel", "cpu-running"]
    assert {"gpu-global", "gpu-constant", "gpu-shared", "gpu-tuned"} <= set(names)
    for engine in siglab.engines():
        assert engine["description"]
        if engine["name"].startswith("cpu-"):
            assert engine["unavailable_reason"] == ""


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", SIZES)
def test_filter_matches_scipy_correlate1d_and_every_engine_matches_cpu_serial(rng, mode, n):
    x = rng.uniform(-100, 100, n)
    taps = rng.uniform(-1, 1, 5)
    expected = scipy.ndimage.correlate1d(x, taps, mode=SCIPY_MODE[mode], cval=0.0)
    reference = siglab.filter(x, taps=taps, mode=mode, engine="cpu-serial")
    np.testing.assert_allclose(reference, expected, rtol=1e-12, atol=1e-12 * np.abs(x).max())
    for engine in available_engines():
        if engine == "cpu-running" or engine.endswith("-fft"):
            continue  # within a stated tolerance, not bit-identical: checked against SciPy above
        result = siglab.filter(x, taps=taps, mode=mode, engine=engine)
        assert result.dtype == np.float64 and result.shape == x.shape
        assert np.array_equal(result.view(np.uint64), reference.view(np.uint64)), engine


def test_mean_filter_gaussian_and_float32(rng):
    x = rng.uniform(-1, 1, 1001)
    np.testing.assert_allclose(siglab.filter(x, window=5), scipy.ndimage.uniform_filter1d(x, 5, mode="constant"),
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(siglab.filter(x, gaussian=2.0, mode="reflect"),
                               scipy.ndimage.gaussian_filter1d(x, 2.0, mode="reflect"), rtol=1e-12, atol=1e-15)
    x32 = x.astype(np.float32)
    y32 = siglab.filter(x32, window=7, mode="nearest")
    assert y32.dtype == np.float32
    np.testing.assert_allclose(y32, scipy.ndimage.uniform_filter1d(x32, 7, mode="nearest"), rtol=1e-5, atol=1e-6)
    for engine in available_engines():
        if engine != "cpu-running" and not engine.endswith("-fft"):
            assert np.array_equal(siglab.filter(x32, window=7, mode="nearest", engine=engine), y32), engine


def test_auto_says_which_engine_it_used(rng):
    _, used = siglab.filter(rng.uniform(size=100), return_engine=True)
    assert used in available_engines()


def test_empty_signal_gives_an_empty_result():
    assert siglab.filter(np.zeros(0)).shape == (0,)


def test_contiguous_input_is_not_copied_and_strided_input_is_copied_with_a_note(rng):
    x = rng.uniform(size=2000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        siglab.filter(x)
    with pytest.warns(UserWarning, match="not contiguous"):
        strided = siglab.filter(x[::2])
    assert np.array_equal(strided, siglab.filter(np.ascontiguousarray(x[::2])))


def test_bad_arguments_raise_with_siglab_messages():
    x = np.zeros(10)
    with pytest.raises(ValueError, match="odd"):
        siglab.filter(x, window=4)
    with pytest.raises(ValueError, match="mode must be one of zero, reflect, mirror, nearest, wrap"):
        siglab.filter(x, mode="sideways")
    with pytest.raises(ValueError, match="float64 or float32"):
        siglab.filter(np.zeros(10, dtype=np.int32))
    with pytest.raises(ValueError, match="one-dimensional"):
        siglab.filter(np.zeros((3, 3)))
    with pytest.raises(ValueError, match='unknown engine "warp-drive"'):
        siglab.filter(x, engine="warp-drive")
    with pytest.raises(ValueError, match="taps or gaussian"):
        siglab.filter(x, taps=[1.0], gaussian=1.0)


def test_read_signal_formats_rate_and_errors(tmp_path, rng):
    x = rng.uniform(-1, 1, 100)
    np.savetxt(tmp_path / "x.txt", x, fmt="%.17g")
    read = siglab.read_signal(tmp_path / "x.txt")
    assert np.array_equal(read, x) and read.rate is None
    np.save(tmp_path / "x.npy", x.astype(np.float32))
    assert np.array_equal(siglab.read_signal(tmp_path / "x.npy"), x.astype(np.float32).astype(np.float64))
    x.astype("<i2").tofile(tmp_path / "x.raw")
    assert np.array_equal(siglab.read_signal(tmp_path / "x.raw", raw="i16"), x.astype("<i2").astype(np.float64))
    scipy_io_wav = pytest.importorskip("scipy.io.wavfile")
    scipy_io_wav.write(tmp_path / "x.wav", 44100, x.astype(np.float32))
    wav = siglab.read_signal(tmp_path / "x.wav")
    assert wav.rate == 44100.0 and np.array_equal(wav, x.astype(np.float32).astype(np.float64))
    (tmp_path / "bad.txt").write_text("1\n2\n0.1x\n")
    with pytest.raises(siglab.InputError) as error:
        siglab.read_signal(tmp_path / "bad.txt")
    assert str(error.value) == f'{tmp_path / "bad.txt"}:3:1: expected a number, found "0.1x"'
    assert isinstance(error.value, OSError)
    with pytest.raises(siglab.InputError, match="cannot open"):
        siglab.read_signal(tmp_path / "missing.txt")
    (tmp_path / "binary.f64").write_bytes(b"\x81\xcdS\x00\xc3\xa9 1\n")  # read as text: bytes that are not UTF-8
    with pytest.raises(siglab.InputError) as error:
        siglab.read_signal(tmp_path / "binary.f64")
    assert str(error.value) == f'{tmp_path / "binary.f64"}:1:1: expected a number, found "\\x81\\xcdS\\x00\u00e9 1"'


def test_stats_match_numpy(rng):
    x = rng.normal(5.0, 2.0, 10007)
    s = siglab.stats(x)
    assert s["count"] == x.size
    assert s["mean"] == pytest.approx(x.mean(), rel=1e-14)
    assert s["std"] == pytest.approx(x.std(), rel=1e-12)
    assert (s["min"], s["min_index"], s["max"], s["max_index"]) == (x.min(), x.argmin(), x.max(), x.argmax())


def test_compare_checks_every_engine_against_cpu_serial(rng):
    x = rng.uniform(-1, 1, 5001)
    rows, reference = siglab.compare(x, window=9, mode="wrap", engines=["cpu-serial", "cpu-parallel"], repeat=2)
    assert [r["engine"] for r in rows] == ["cpu-serial", "cpu-parallel"]
    assert all(r["status"] == "ok" and r["agrees"] for r in rows)
    assert np.array_equal(reference, siglab.filter(x, window=9, mode="wrap", engine="cpu-serial"))


def test_out_receives_the_result_and_bad_out_arrays_are_refused(rng):
    x = rng.uniform(-1, 1, 1003)
    out = np.full(x.size, np.nan)
    result = siglab.filter(x, window=7, mode="reflect", engine="cpu-serial", out=out)
    assert result is out or np.shares_memory(result, out)
    assert np.array_equal(out, siglab.filter(x, window=7, mode="reflect", engine="cpu-serial"))
    x32 = x.astype(np.float32)
    out32 = np.full(x.size, np.nan, dtype=np.float32)
    siglab.filter(x32, window=3, out=out32)
    assert np.array_equal(out32, siglab.filter(x32, window=3))
    for bad in (np.zeros(x.size, dtype=np.float32), np.zeros(x.size - 1), np.zeros((x.size, 2))[:, 0]):
        with pytest.raises(ValueError, match="out must be a writeable, contiguous array of the result.s dtype and shape"):
            siglab.filter(x, out=bad)
    read_only = np.zeros(x.size)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        siglab.filter(x, out=read_only)
    with pytest.raises(ValueError, match="must not overlap x"):
        siglab.filter(x, out=x)


def test_measure_times_a_python_call_with_siglabs_loop():
    calls = []
    timing = siglab.measure(lambda: calls.append(1), warmups=2, repeats=3)
    assert len(calls) == 5
    assert 0 <= timing["min_ms"] <= timing["median_ms"] <= timing["max_ms"]
    with pytest.raises(ValueError, match="repeats must be at least 1"):
        siglab.measure(lambda: None, repeats=0)


def test_a_gaussian_whose_window_cannot_be_built_is_refused():
    # Once a float-to-size_t overflow made these a 1-tap identity filter.
    x = np.arange(10.0)
    for sigma in (5e18, 1e19, 1e20, 1e300):
        with pytest.raises(ValueError, match="sigma must be a finite number from 0 to 1e"):
            siglab.filter(x, gaussian=sigma)
