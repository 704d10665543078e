"""siglab.signal and siglab.ndimage against SciPy on the same arguments: results, shapes, dtypes,
axis, awkward sizes, non-contiguous input, signatures, and the refusals (a keyword SigLab does not
run is a NotImplementedError naming it; core's refusals are the CLI's)."""
import ast
import inspect
import pathlib
import pydoc

import numpy as np
import pytest
import scipy.ndimage
import scipy.signal

import siglab
from siglab import ndimage, signal

SOS = scipy.signal.butter(4, [0.1, 0.3], "bandpass", output="sos")
B, A = scipy.signal.butter(3, 0.2)

# name: (call(module, x), the shortest signal it takes). Each call gets the same arguments in SciPy.
FILTERS = {
    "sosfilt": (lambda m, x: m.sosfilt(SOS, x), 1),
    "sosfiltfilt": (lambda m, x: m.sosfiltfilt(SOS, x), 28),
    "lfilter": (lambda m, x: m.lfilter(B, A, x), 1),
    "lfilter-fir": (lambda m, x: m.lfilter([0.5, 0.25, 0.25, -0.1], [1.0], x), 1),
    "filtfilt": (lambda m, x: m.filtfilt(B, A, x), 13),
    "savgol_filter": (lambda m, x: m.savgol_filter(x, 11, 3), 11),
    "savgol_filter-deriv": (lambda m, x: m.savgol_filter(x, 7, 2, deriv=1, mode="nearest"), 7),
    "medfilt": (lambda m, x: m.medfilt(x, 5), 1),
    "detrend": (lambda m, x: m.detrend(x), 1),
    "detrend-constant": (lambda m, x: m.detrend(x, type="constant"), 1),
    "resample_poly": (lambda m, x: m.resample_poly(x, 3, 2, axis=-1), 1),
    "resample_poly-hamming": (lambda m, x: m.resample_poly(x, 6, 4, axis=-1, window="hamming"), 1),
    "upfirdn": (lambda m, x: m.upfirdn([1.0, 2.0, 0.5], x, 2, 3), 2),  # core refuses 1 sample at 2/3
    "decimate": (lambda m, x: m.decimate(x, 4), 28),
    "decimate-fir": (lambda m, x: m.decimate(x, 3, ftype="fir", zero_phase=False), 3),  # core: 1/3 of 1 sample
    "correlate1d": (lambda m, x: m.correlate1d(x, [0.2, -1.0, 3.0]), 1),
    "uniform_filter1d": (lambda m, x: m.uniform_filter1d(x, 7, mode="nearest"), 1),
    "gaussian_filter1d": (lambda m, x: m.gaussian_filter1d(x, 1.5, mode="wrap", truncate=3.0), 1),
    "median_filter": (lambda m, x: m.median_filter(x, 5, mode="mirror"), 3),
}
NDIMAGE = {"correlate1d", "uniform_filter1d", "gaussian_filter1d", "median_filter"}
ONE_D_ONLY = {"medfilt", "median_filter"}  # SciPy's are N-D medians there


def modules(name):
    return (ndimage, scipy.ndimage) if name in NDIMAGE else (signal, scipy.signal)


def assert_like_scipy(got, expected, rtol=1e-9):
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got.shape, got.dtype, expected.shape,
                                                                         expected.dtype)
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * scale)


@pytest.mark.parametrize("name", FILTERS)
def test_each_filter_matches_scipy_at_awkward_sizes(rng, name):
    call, shortest = FILTERS[name]
    ours, theirs = modules(name)
    for n in sorted({shortest, shortest + 1, 97, 4099}):
        x = rng.uniform(-10, 10, n)
        assert_like_scipy(call(ours, x), call(theirs, x))


@pytest.mark.parametrize("name", sorted(set(FILTERS) - ONE_D_ONLY))
def test_each_filter_runs_along_either_axis_of_a_2d_array(rng, name):
    call, _ = FILTERS[name]
    ours, theirs = modules(name)
    x = rng.uniform(-1, 1, (3, 301))
    assert_like_scipy(call(ours, x), call(theirs, x))
    columns = np.asfortranarray(x.T)  # the channels on the last axis, each column filtered along axis 0
    axis0 = {"axis": 0}
    assert_like_scipy(call(_with(ours, axis0), columns), call(_with(theirs, axis0), columns))


def _with(module, keywords):
    """module whose functions get `keywords` added to every call."""
    class Bound:
        def __getattr__(self, attr):
            return lambda *a, **k: getattr(module, attr)(*a, **{**k, **keywords})
    return Bound()


@pytest.mark.parametrize("name", FILTERS)
def test_float32_and_integer_input_follow_scipys_dtype_rules(rng, name):
    call, _ = FILTERS[name]
    ours, theirs = modules(name)
    x = rng.uniform(-1, 1, 500)
    x32 = x.astype(np.float32)
    assert_like_scipy(call(ours, x32), call(theirs, x32), rtol=2e-5)
    whole = rng.integers(-50, 50, 500)
    if name in NDIMAGE or name == "medfilt":  # SciPy returns integers: refused, not rounded behind one's back
        with pytest.raises(NotImplementedError, match="int64"):
            call(ours, whole)
    else:  # float64, as SciPy's result (compared with SciPy on floats: its resample_poly zeroes integers)
        assert_like_scipy(call(ours, whole), call(theirs, whole.astype(np.float64)))


@pytest.mark.parametrize("name", FILTERS)
def test_non_contiguous_input_gives_scipys_answer(rng, name):
    call, _ = FILTERS[name]
    ours, theirs = modules(name)
    x = rng.uniform(-1, 1, 2001)[::3]
    assert not x.flags.c_contiguous
    assert_like_scipy(call(ours, x), call(theirs, x))


def test_a_contiguous_float64_signal_is_not_copied():
    x = np.zeros(1 << 20)
    before = x.__array_interface__["data"][0]
    y = signal.sosfilt(SOS, x)
    assert not np.may_share_memory(x, y) and x.__array_interface__["data"][0] == before
    np.testing.assert_array_equal(signal.lfilter([1.0], [1.0], x[:1000] + 1.0), np.ones(1000))


ANALYSES = [
    lambda m, x: m.welch(x),
    lambda m, x: m.welch(x, fs=100.0, window="hamming", nperseg=50, noverlap=10, scaling="spectrum", detrend=False),
    lambda m, x: m.spectrogram(x),
    lambda m, x: m.spectrogram(x, fs=100.0, window="hann", nperseg=50, noverlap=10, nfft=64, detrend="linear",
                               scaling="spectrum"),
    lambda m, x: m.spectrogram(x, window=("tukey", 0.5), detrend=False, mode="magnitude"),
    lambda m, x: m.spectrogram(x, nperseg=40, mode="complex"),
    lambda m, x: m.stft(x),
    lambda m, x: m.stft(x, fs=10.0, window="hamming", nperseg=64, noverlap=16, boundary=None, padded=False,
                        scaling="psd"),
]


@pytest.mark.parametrize("analysis", range(len(ANALYSES)))
def test_welch_spectrogram_and_stft_return_what_scipy_returns(rng, analysis):
    call = ANALYSES[analysis]
    for x in (rng.uniform(-1, 1, 1001), rng.uniform(-1, 1, 77), rng.uniform(-1, 1, (2, 300)).astype(np.float32)):
        got, expected = call(signal, x), call(scipy.signal, x)
        for g, e in zip(got, expected):
            assert_like_scipy(g, e, rtol=2e-5 if x.dtype == np.float32 else 1e-9)
    columns = rng.uniform(-1, 1, (300, 2))  # channels on the last axis: axis=0
    got, expected = ANALYSES[analysis](_with(signal, {"axis": 0}), columns), \
        ANALYSES[analysis](_with(scipy.signal, {"axis": 0}), columns)
    for g, e in zip(got, expected):
        assert_like_scipy(g, e)


@pytest.mark.parametrize("conditions", [{}, {"height": 0.5}, {"threshold": 0.1, "distance": 3},
                                        {"prominence": 0.5, "wlen": 21}, {"width": 2, "rel_height": 0.7},
                                        {"height": 2.5}, {"height": (0.2, 1.5), "threshold": (None, 0.8)},
                                        {"prominence": (0.3, 2.0), "width": (1, 4), "wlen": 31},
                                        {"threshold": (0.05, None), "prominence": (None, 1.0)}])
def test_find_peaks_returns_scipys_peaks_and_properties(rng, conditions):
    x = rng.standard_normal(2000)
    peaks, properties = signal.find_peaks(x, **conditions)
    expected_peaks, expected_properties = scipy.signal.find_peaks(x, **conditions)
    assert peaks.dtype == expected_peaks.dtype and np.array_equal(peaks, expected_peaks)
    assert sorted(properties) == sorted(expected_properties)
    for key, values in expected_properties.items():
        assert_like_scipy(properties[key], values, rtol=1e-12)


DESIGNS = [
    lambda m: m.butter(4, 0.2),
    lambda m: m.butter(5, [10, 40], "bandstop", output="sos", fs=200),
    lambda m: m.butter(3, 0.3, "hp"),
    lambda m: m.cheby1(4, 1.0, [0.2, 0.5], "bandpass", output="sos"),
    lambda m: m.cheby2(5, 40, 0.3, "highpass", output="sos"),
    lambda m: m.ellip(4, 0.5, 60, 100, output="sos", fs=1000),
    lambda m: m.bessel(4, 0.25, norm="mag", output="sos"),
    lambda m: m.bessel(3, 0.25),
    lambda m: m.iirnotch(60, 30, fs=1000),
    lambda m: m.iirnotch(0.3, 10),
    lambda m: m.firwin(51, 0.3),
    lambda m: m.firwin(40, [0.2, 0.5], pass_zero="bandpass", window="hann"),
    lambda m: m.firwin(31, [100, 200], pass_zero=False, window=("kaiser", 6.0), fs=1000),
    lambda m: m.freqz(B, A, worN=100),
    lambda m: m.freqz([1.0, 2.0, 1.0], fs=100.0),
    lambda m: m.sosfreqz(SOS, worN=257, fs=50.0),
]


@pytest.mark.parametrize("design", range(len(DESIGNS)))
def test_designs_and_responses_return_what_scipy_returns(design):
    got, expected = DESIGNS[design](signal), DESIGNS[design](scipy.signal)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_like_scipy(g, e, rtol=1e-10)
    else:
        assert_like_scipy(got, expected, rtol=1e-10)


def _scipy_parameters(function):
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("module, scipy_module", [(signal, scipy.signal), (ndimage, scipy.ndimage)])
def test_every_function_has_scipys_signature_plus_engine_and_devices(module, scipy_module):
    for name in module.__all__:
        ours = inspect.signature(getattr(module, name)).parameters
        theirs = _scipy_parameters(getattr(scipy_module, name))
        extra = [(p.name, p.kind, p.default) for p in ours.values() if p.name in ("engine", "devices")]
        scipys = [(p.name, p.kind, p.default) for p in ours.values() if p.name not in ("engine", "devices")]
        if scipy.__version__.startswith("1.10."):  # Debian 12's SciPy, the one SigLab follows: the same signature
            assert scipys == theirs, name
        else:  # a newer SciPy adds keywords (which SigLab lacks): ours are still SciPy's, in its order
            assert [p for p in theirs if p[0] in {q[0] for q in scipys}] == scipys, name
        if extra:
            assert extra == [("engine", inspect.Parameter.KEYWORD_ONLY, "auto"),
                             ("devices", inspect.Parameter.KEYWORD_ONLY, None)], name
        assert getattr(module, name).__doc__.count("Parameters\n") == 1, name


UNSUPPORTED = [
    (lambda: signal.sosfilt(SOS, np.ones(10), zi=np.zeros((4, 2))), "zi"),
    (lambda: signal.sosfiltfilt(SOS, np.ones(100), padtype="even"), "padtype"),
    (lambda: signal.sosfiltfilt(SOS, np.ones(100), padlen=5), "padlen"),
    (lambda: signal.lfilter(B, A, np.ones(10), zi=np.zeros(3)), "zi"),
    (lambda: signal.filtfilt(B, A, np.ones(100), method="gust"), "method"),
    (lambda: signal.savgol_filter(np.ones(20), 5, 2, deriv=1, delta=0.5), "delta"),
    (lambda: signal.savgol_filter(np.ones(20), 5, 2, mode="constant", cval=1.0), "cval"),
    (lambda: signal.medfilt(np.ones((4, 4)), 3), "volume of shape"),
    (lambda: signal.detrend(np.ones(20), bp=[5]), "bp"),
    (lambda: signal.resample_poly(np.ones(20), 2, 1, window=("tukey", 0.5)), "window"),
    (lambda: signal.resample_poly(np.ones(20), 2, 1, padtype="mean"), "padtype"),
    (lambda: signal.upfirdn([1.0], np.ones(20), mode="wrap"), "mode"),
    (lambda: signal.butter(4, 0.2, analog=True), "analog"),
    (lambda: signal.butter(4, 0.2, output="zpk"), "output"),
    (lambda: signal.firwin(11, 0.2, width=0.1), "width"),
    (lambda: signal.freqz(B, A, whole=True), "whole"),
    (lambda: signal.freqz(B, A, worN=np.linspace(0, 1, 5)), "worN"),
    (lambda: ndimage.uniform_filter1d(np.ones(20), 4), "size"),
    (lambda: ndimage.correlate1d(np.ones(20), [1.0, 2.0]), "weights of length"),
    (lambda: ndimage.uniform_filter1d(np.ones(20), 3, origin=1), "origin"),
    (lambda: ndimage.uniform_filter1d(np.ones(20), 3, output=np.empty(20)), "output"),
    (lambda: ndimage.uniform_filter1d(np.ones(20), 3, mode="constant", cval=2.0), "cval"),
    (lambda: ndimage.gaussian_filter1d(np.ones(20), 2.0, order=1), "order"),
    (lambda: ndimage.median_filter(np.ones(20), footprint=np.ones(3)), "footprint"),
    (lambda: ndimage.uniform_filter1d(np.ones(20, dtype=np.complex128), 3), "complex128"),
    (lambda: signal.spectrogram(np.ones(500), window=np.ones(256)), "window"),
    (lambda: signal.spectrogram(np.ones(500), mode="angle"), "mode"),
    (lambda: signal.spectrogram(np.ones(500), return_onesided=False), "return_onesided"),
    (lambda: signal.stft(np.ones(500), boundary="even"), "boundary"),
    (lambda: signal.find_peaks(np.ones(50), height=np.full(50, 0.5)), "height"),
    (lambda: signal.find_peaks(np.ones(50), width=(np.ones(50), None)), "width"),
    (lambda: signal.find_peaks(np.ones(50), plateau_size=2), "plateau_size"),
    (lambda: signal.welch(np.ones(500), detrend="linear"), "detrend"),
    (lambda: signal.welch(np.ones(500), nfft=512), "nfft"),
    (lambda: signal.welch(np.ones(500), average="median"), "average"),
]


@pytest.mark.parametrize("case", range(len(UNSUPPORTED)))
def test_a_keyword_siglab_does_not_run_is_refused_by_name_never_ignored(case):
    call, keyword = UNSUPPORTED[case]
    with pytest.raises(NotImplementedError, match=keyword):
        call()


def test_bad_arguments_are_refused_as_scipy_refuses_them():
    with pytest.raises(ValueError, match=r"shape \(n_sections, 6\)"):
        signal.sosfilt(np.ones((2, 5)), np.ones(10))
    with pytest.raises(ValueError, match="invalid bandtype"):
        signal.butter(4, 0.2, "sideways")
    with pytest.raises(ValueError):
        signal.butter(4, 1.5)  # past Nyquist: core's check
    with pytest.raises(ValueError):
        signal.sosfilt(SOS, np.ones((3, 10)), axis=2)
    with pytest.raises(ValueError, match="sos"):  # a0 other than 1, named as the argument, not a file
        signal.sosfilt(np.array([[1.0, 0, 0, 2.0, 0, 0]]), np.ones(10))


def test_a_window_too_long_for_the_signal_is_refused_as_the_cli_refuses_it(cli, tmp_path):
    x = np.linspace(-1, 1, 1000)
    with pytest.raises(ValueError) as raised:
        ndimage.uniform_filter1d(x, 40_000_001, mode="reflect")
    path = tmp_path / "x.txt"
    np.savetxt(path, x)
    run = cli("filter", path, "--window", 40_000_001, "--mode", "reflect", "-o", tmp_path / "y.txt")
    function, reason = str(raised.value).split(": ", 1)
    assert function == "siglab.ndimage.uniform_filter1d"
    assert run.returncode == 2 and f"--window {reason}" in run.stderr, (reason, run.stderr)
    assert not (tmp_path / "y.txt").exists()


def test_the_engine_is_core_choice_and_a_named_one_is_honoured(rng):
    x = rng.uniform(-1, 1, 5000)
    auto = ndimage.uniform_filter1d(x, 51, mode="constant")
    _, used = siglab.filter(x, 51, "zero", return_engine=True)
    assert np.array_equal(auto, siglab.filter(x, 51, "zero", engine=used))  # the same request, the same answer
    serial = ndimage.uniform_filter1d(x, 51, mode="constant", engine="cpu-serial")
    np.testing.assert_allclose(serial, auto, rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="no-such-engine"):
        ndimage.uniform_filter1d(x, 51, engine="no-such-engine")


@pytest.mark.parametrize("module", [signal, ndimage])
def test_the_type_stubs_declare_every_function_with_its_signature(module):
    stubs = ast.parse(pathlib.Path(module.__file__).with_suffix(".pyi").read_text())
    declared = {node.name: node.args for node in stubs.body if isinstance(node, ast.FunctionDef)}
    assert sorted(declared) == sorted(module.__all__)
    for name, args in declared.items():
        parameters = inspect.signature(getattr(module, name)).parameters.values()
        positional = [p.name for p in parameters if p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD]
        keyword_only = [p.name for p in parameters if p.kind == inspect.Parameter.KEYWORD_ONLY]
        assert [a.arg for a in args.args] == positional, name
        assert [a.arg for a in args.kwonlyargs] == keyword_only, name
        with_default = [p.name for p in parameters if p.default is not inspect.Parameter.empty
                        and p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD]
        assert len(args.defaults) == len(with_default), name


def test_help_shows_the_scipy_compatible_signature():
    text = pydoc.render_doc(signal.sosfiltfilt, renderer=pydoc.plaintext)
    assert "sosfiltfilt(sos, x, axis=-1, padtype='odd', padlen=None, *, engine='auto', devices=None)" in text
    assert "Parameters" in text and "scipy.signal.sosfiltfilt" in text


@pytest.mark.parametrize("call, chain", [
    (lambda x: signal.sosfiltfilt(SOS, x), "sosfiltfilt {sos}"),
    (lambda x: ndimage.median_filter(x, 7), "median 7 mode reflect"),
    (lambda x: signal.resample_poly(x, 3, 2), "resample-poly 3,2"),
])
def test_the_same_request_gives_the_cli_s_bits(rng, cli, tmp_path, call, chain):
    x = rng.uniform(-1, 1, 5000)
    np.save(tmp_path / "x.npy", x)
    np.savetxt(tmp_path / "sos.txt", SOS, fmt="%.17g")
    run = cli("filter", tmp_path / "x.npy", "--chain", chain.format(sos=tmp_path / "sos.txt"), "-o", tmp_path / "y.npy")
    assert run.returncode == 0, run.stderr
    assert np.array_equal(call(x).view(np.uint64), np.load(tmp_path / "y.npy").view(np.uint64))


def test_welch_takes_the_cli_spectrum_engines_and_refuses_a_gpu_where_none_can_run(rng):
    x = rng.standard_normal(4096)
    assert_like_scipy(signal.welch(x, engine="cpu")[1], scipy.signal.welch(x)[1])
    with pytest.raises(ValueError, match="engine must be auto, cpu or gpu"):
        signal.welch(x, engine="cpu-parallel")
    if not any(e["name"].startswith("gpu") and not e["unavailable_reason"] for e in siglab.engines()):
        with pytest.raises(ValueError, match="engine gpu: no GPU can run it here"):
            signal.welch(x, engine="gpu")


def kept_by_distance_later_first(x, peaks, distance):
    """SciPy's _select_by_peak_distance visiting peaks by a stable sort of their heights: of equal
    heights the later peak goes first (SciPy's own order for ties follows NumPy's unstable argsort)."""
    keep = np.ones(len(peaks), dtype=bool)
    for j in np.argsort(x[peaks], kind="stable")[::-1]:
        if not keep[j]:
            continue
        near = np.abs(peaks - peaks[j]) < np.ceil(distance)
        near[j] = False
        keep[near] = False
    return peaks[keep]


def test_find_peaks_distance_lets_the_later_of_equal_peaks_go_first(rng):
    few = np.array([0.0, 1, 0, 1, 0, 2, 0, 2, 0])  # NumPy sorts so few stably: SciPy's answer is the same
    assert np.array_equal(signal.find_peaks(few, distance=3)[0], scipy.signal.find_peaks(few, distance=3)[0])
    assert np.array_equal(signal.find_peaks(few, distance=3)[0], [3, 7])
    quantized = rng.integers(0, 4, 20_000).astype(np.float64)  # thousands of equal heights
    local_maxima = scipy.signal.find_peaks(quantized)[0]
    for distance in (2, 3, 7.5):
        assert np.array_equal(signal.find_peaks(quantized, distance=distance)[0],
                              kept_by_distance_later_first(quantized, local_maxima, distance))
