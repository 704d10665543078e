"""siglab.Pipeline: chains and pipeline files read by core, run by core's runPipeline on arrays
(1-D and N x C) and files, against the stages one after another, siglab-cli and SciPy."""
import os
import pickle
import signal
import threading

import numpy as np
import pytest
import scipy.ndimage
import scipy.signal

import siglab

CHAIN = "median 5; mean 3 mode reflect; savgol 7,2"  # exact engines only: the same bits any way it runs
STREAMS = "median 5; mean 3 mode reflect; savgol 7,2 mode nearest"  # interp edges stream only as a first stage
LENGTHS = [0, 1, 4, 6, 1001]  # empty, one sample, shorter than a window, awkward


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def one_after_another(chain, x, **kwargs):
    for stage in siglab.Pipeline(chain).stages:
        x = siglab.Pipeline([stage]).run(x, **kwargs)
    return x


def test_a_pipeline_is_built_from_a_chain_a_list_or_keywords_and_shows_its_chain():
    from_chain = siglab.Pipeline("butter 4,0.1,0.3,bandpass zero-phase; median 5; detrend")
    from_pairs = siglab.Pipeline([("butter", {"order": 4, "cutoff": 0.1, "cutoff2": 0.3, "type": "bandpass",
                                              "zero-phase": True}), ("median", {"window": np.int64(5)}), ("detrend",)])
    from_keywords = siglab.Pipeline([siglab.stage("butter", order=4, cutoff=0.1, cutoff2=0.3, type="bandpass",
                                                  zero_phase=True), {"kind": "median", "window": 5},
                                     siglab.stage("detrend")])
    assert from_chain == from_pairs == from_keywords
    assert from_chain.chain == "butter 4,0.1,0.3 zero-phase; median 5; detrend linear"
    assert repr(from_chain) == f"siglab.Pipeline({from_chain.chain!r})"
    assert from_chain.stages[1] == {"kind": "median", "window": 5, "mode": "zero"}
    assert siglab.Pipeline(from_chain.chain) == from_chain
    assert pickle.loads(pickle.dumps(from_chain)) == from_chain


def test_every_registered_kind_and_parameter_is_described_and_its_example_reads():
    for kind in siglab.stage_kinds():
        assert kind["name"] and kind["summary"]
        if not kind["parameters"]:  # a stage that takes nothing (envelope, hilbert) is written alone
            assert not kind["example"].strip(), kind["name"]
        for p in kind["parameters"]:
            assert p["type"] in ("whole", "number", "flag", "choice", "text") and p["help"]
        if kind["name"] != "taps":  # its example names a file
            assert siglab.Pipeline(f"{kind['name']} {kind['example']}").stages[0]["kind"] == kind["name"]


@pytest.mark.parametrize("stages, message", [
    ("median 5; mean 4", r"stage 2 \(mean\): W must be odd, got 4"),
    ("median 5; sideways 3", r'stage 2: unknown stage "sideways" \(known: mean, '),
    ("median 5;; mean 3", "stage 2 is empty"),
    ([("median", {"window": 5}), ("mean", {"size": 3})], r'stage 2 \(mean\): unknown parameter "size"'),
    ([("median", {"window": 5}), ("mean", {"window": True})], r"stage 2 \(mean\): window must be a whole number"),
    ([{"window": 5}], r'stage 1: "kind" \(a string\) is missing'),
    ([5], "a stage is a dict"),
])
def test_a_bad_chain_is_a_value_error_naming_the_stage(stages, message):
    with pytest.raises(ValueError, match=message):
        siglab.Pipeline(stages)


def test_a_stage_that_cannot_run_on_the_signal_is_refused_naming_it_before_any_work():
    pipeline = siglab.Pipeline("median 5; savgol 7,2")
    with pytest.raises(ValueError, match=r"stage 2 \(savgol\): interp edges need at least W = 7 samples; the signal has 3"):
        pipeline.run(np.ones(3))
    with pytest.raises(ValueError, match=r"stage 2 \(butter\).*needs a sample rate|stage 2 \(butter\).*rate"):
        siglab.Pipeline("median 5; butter 2,100").run(np.ones(100))
    with pytest.raises(ValueError, match="engine must be a name or one name per stage"):
        pipeline.run(np.ones(10), engine=["cpu-serial"])
    hz = siglab.Pipeline("median 5; butter 2,100")  # a cutoff in Hz: the rate given, or the signal's own
    signal_with_rate = np.ones(100).view(siglab.Signal)
    signal_with_rate.rate = 1000.0
    assert same_bits(hz.run(signal_with_rate), hz.run(np.ones(100), rate=1000.0))


@pytest.mark.parametrize("n", LENGTHS)
def test_run_is_the_stages_one_after_another_bit_for_bit_on_1d_and_n_by_c(rng, n):
    x = rng.uniform(-100, 100, (n, 3))
    pipeline = siglab.Pipeline(CHAIN)
    if n < 7:  # savgol's interp edges fit 7 samples
        with pytest.raises(ValueError, match=r"stage 3 \(savgol\)"):
            pipeline.run(x)
        return
    y, report = pipeline.run(x, report=True)
    assert y.shape == x.shape and y.dtype == np.float64
    assert same_bits(y, one_after_another(CHAIN, x))
    for c in range(3):
        assert same_bits(np.ascontiguousarray(y[:, c]), pipeline.run(np.ascontiguousarray(x[:, c])))
    assert len(report["channels"]) == 3 and [s["kind"] for s in report["channels"][0]] == ["median", "mean", "savgol"]
    for stage in report["channels"][2]:
        assert stage["engine"] and stage["why"] and stage["passed"] and stage["total_ms"] >= 0


def test_float32_runs_in_float32_and_float64_on_request(rng):
    x = rng.uniform(-1, 1, (1001, 2)).astype(np.float32)
    pipeline = siglab.Pipeline("median 5; mean 3")
    y = pipeline.run(x)
    assert y.dtype == np.float32 and same_bits(y, one_after_another("median 5; mean 3", x))
    wide = pipeline.run(x, dtype=np.float64)
    assert wide.dtype == np.float64 and same_bits(wide, pipeline.run(x.astype(np.float64)))
    with pytest.raises(ValueError, match="float64 or float32"):
        pipeline.run(np.ones(5, dtype=np.int32))
    with pytest.raises(ValueError, match="channels on the last axis"):
        pipeline.run(np.ones((2, 2, 2)))


def test_run_matches_scipy_where_scipy_has_the_stage(rng):
    x = rng.uniform(-1, 1, (2001, 2))
    median = siglab.Pipeline("median 5 mode reflect").run(x)
    assert np.array_equal(median, scipy.ndimage.median_filter(x, size=(5, 1), mode="reflect"))
    sos = scipy.signal.butter(4, [0.1, 0.3], "bandpass", output="sos")
    np.testing.assert_allclose(siglab.Pipeline("butter 4,0.1,0.3,bandpass zero-phase").run(x),
                               scipy.signal.sosfiltfilt(sos, x, axis=0), atol=1e-12)
    for kind in ("linear", "constant"):
        np.testing.assert_allclose(siglab.Pipeline(f"detrend {kind}").run(x),
                                   scipy.signal.detrend(x, axis=0, type=kind), atol=1e-12)
    chain = siglab.Pipeline("butter 4,0.1,0.3,bandpass zero-phase; median 5; detrend").run(x[:, 0])
    expected = scipy.signal.detrend(scipy.ndimage.median_filter(scipy.signal.sosfiltfilt(sos, x[:, 0]), 5,
                                                                 mode="constant"))
    np.testing.assert_allclose(chain, expected, atol=1e-12)


def test_a_million_samples_give_siglab_clis_bytes(tmp_path, rng, cli):
    x = rng.uniform(-1, 1, 1_000_003)
    x.tofile(tmp_path / "in.f64")
    result = cli("filter", tmp_path / "in.f64", "--raw", "f64", "-o", tmp_path / "out.raw", "--chain", CHAIN)
    assert result.returncode == 0, result.stderr
    assert siglab.Pipeline(CHAIN).run(x).tobytes() == (tmp_path / "out.raw").read_bytes()


def test_run_file_round_trips_streamed_in_any_blocks_or_not_and_saves_the_clis_pipeline(tmp_path, rng, cli):
    x = rng.uniform(-1, 1, 5003)
    np.save(tmp_path / "in.npy", x)
    pipeline = siglab.Pipeline(STREAMS)
    whole = pipeline.run_file(tmp_path / "in.npy", tmp_path / "whole.npy", stream="never")
    assert not whole["stream"] and whole["written"]
    assert same_bits(np.load(tmp_path / "whole.npy"), pipeline.run(x))
    for block_samples in (1, 7, None):
        report = pipeline.run_file(tmp_path / "in.npy", tmp_path / "streamed.npy", stream="always",
                                   block_samples=block_samples)
        assert report["stream"] and report["blocks"] >= (5003 // 7 if block_samples == 7 else 1)
        assert (tmp_path / "streamed.npy").read_bytes() == (tmp_path / "whole.npy").read_bytes(), block_samples
    pipeline.save(tmp_path / "chain.json")
    assert siglab.Pipeline.load(tmp_path / "chain.json") == pipeline
    result = cli("filter", tmp_path / "in.npy", "-o", tmp_path / "cli.npy", "--pipeline", tmp_path / "chain.json")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "cli.npy").read_bytes() == (tmp_path / "whole.npy").read_bytes()


def test_run_file_leaves_no_output_when_a_stage_cannot_run_and_never_writes_over_its_input(tmp_path):
    np.save(tmp_path / "in.npy", np.arange(3.0))
    (tmp_path / "old.npy").write_bytes(b"old")
    for stream in ("auto", "never"):
        with pytest.raises(ValueError, match=r"stage 2 \(savgol\)"):
            siglab.Pipeline("median 5; savgol 7,2").run_file(tmp_path / "in.npy", tmp_path / "new.npy", stream=stream)
        with pytest.raises(ValueError, match=r"stage 2 \(savgol\)"):
            siglab.Pipeline("median 5; savgol 7,2").run_file(tmp_path / "in.npy", tmp_path / "old.npy", stream=stream)
    with pytest.raises(ValueError, match="is the input"):
        siglab.Pipeline("median 5").run_file(tmp_path / "in.npy", tmp_path / "in.npy")
    assert sorted(os.listdir(tmp_path)) == ["in.npy", "old.npy"]
    assert (tmp_path / "old.npy").read_bytes() == b"old"
    assert np.array_equal(np.load(tmp_path / "in.npy"), np.arange(3.0))
    with pytest.raises(siglab.InputError, match="cannot open"):
        siglab.Pipeline("median 5").run_file(tmp_path / "missing.npy", tmp_path / "new.npy")


def test_progress_is_reported_on_this_thread_and_ctrl_c_cancels_leaving_no_output(tmp_path, rng):
    x = rng.uniform(-1, 1, 1 << 20)
    pipeline = siglab.Pipeline("median 5; mean 3")
    seen = []
    pipeline.run(x, progress=lambda phase, fraction: seen.append((phase, fraction, threading.get_ident())))
    assert seen and all(0 <= f <= 1 and thread == threading.get_ident() for _, f, thread in seen)
    assert seen[-1][1] == 1.0

    def interrupt(phase, fraction):  # as Ctrl-C would: Python's handler raises at its next check
        os.kill(os.getpid(), signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        pipeline.run(x, progress=interrupt)
    np.save(tmp_path / "in.npy", x)
    (tmp_path / "out.npy").write_bytes(b"old")
    for stream in ("always", "never"):
        with pytest.raises(KeyboardInterrupt):
            pipeline.run_file(tmp_path / "in.npy", tmp_path / "out.npy", stream=stream, progress=interrupt)
        assert sorted(os.listdir(tmp_path)) == ["in.npy", "out.npy"] and (tmp_path / "out.npy").read_bytes() == b"old"

    def fail(phase, fraction):
        raise RuntimeError("stop here")
    with pytest.raises(RuntimeError, match="stop here"):
        pipeline.run(x, progress=fail)


def test_history_is_the_sum_of_the_stages_and_names_a_stage_without_one():
    assert siglab.Pipeline("median 5; mean 3; savgol 7,2 mode nearest").history(1000) == \
        {"before": 6, "after": 6, "circular": False, "whole_only": "", "up": 1, "down": 1, "period": 1, "outputs": 1000}
    assert siglab.Pipeline("median 5 mode wrap; mean 3 mode wrap").history(1000)["circular"]
    assert "stage 2 (mean) does not" in siglab.Pipeline("median 5 mode wrap; mean 3").history(1000)["whole_only"]
    assert siglab.Pipeline("median 5; detrend").history(1000)["whole_only"] == \
        "stage 2 (detrend) depends on the whole signal (no finite history)"


def test_filter_and_compare_are_one_stage_pipelines_bound_by_core(rng):
    x = rng.uniform(-1, 1, 501)
    taps = [0.25, 0.5, 0.25]
    rows, reference = siglab.compare(x, taps=taps, mode="wrap", engines=["cpu-serial", "cpu-parallel"], repeat=1)
    assert all(r["agrees"] for r in rows)
    np.testing.assert_allclose(reference, scipy.ndimage.correlate1d(x, taps, mode="wrap"), rtol=1e-14)
    assert same_bits(siglab.filter(x, taps=taps, mode="wrap"), reference)
    assert same_bits(siglab.filter(x, 7, "reflect"), siglab.Pipeline("mean 7 mode reflect").run(x))
    with pytest.raises(ValueError, match="taps: expected an odd number of taps"):
        siglab.compare(x, taps=[0.5, 0.5], repeat=1)


def test_run_writes_out_in_place_the_bits_of_a_new_result_for_1d_n_by_c_and_float32(rng):
    pipeline = siglab.Pipeline(CHAIN)
    for x in (rng.uniform(-100, 100, 1001), rng.uniform(-100, 100, (1001, 1)), rng.uniform(-100, 100, (1001, 3)),
              rng.uniform(-1, 1, 1001).astype(np.float32)):
        out = np.full(x.shape, np.nan, dtype=x.dtype)
        address = out.ctypes.data
        result = pipeline.run(x, out=out)
        assert result is out and out.ctypes.data == address
        assert same_bits(out, pipeline.run(x)) and same_bits(out, one_after_another(CHAIN, x))
    x = rng.uniform(-1, 1, 1001)
    wide = np.full(x.shape, np.nan)
    assert pipeline.run(x.astype(np.float32), dtype=np.float64, out=wide) is wide
    assert same_bits(wide, pipeline.run(x.astype(np.float32), dtype=np.float64))


def test_an_out_that_does_not_fit_is_a_value_error_before_any_work(rng):
    x = rng.uniform(-1, 1, (1001, 2))
    pipeline = siglab.Pipeline(CHAIN)
    calls = []
    read_only = np.zeros(x.shape)
    read_only.flags.writeable = False
    for bad in (np.zeros(x.shape, dtype=np.float32), np.zeros((1001, 3)), np.zeros(2002), np.zeros((2, 1001)).T,
                read_only, list(np.zeros(x.shape))):
        with pytest.raises(ValueError, match="out must be"):
            pipeline.run(x, out=bad, progress=lambda phase, fraction: calls.append(phase))
        assert not calls
    with pytest.raises(ValueError, match="must not overlap x"):
        pipeline.run(x, out=x)
    untouched = np.full(1001, np.nan)
    with pytest.raises(ValueError, match="out must be"):
        pipeline.run(x, out=untouched)
    assert np.isnan(untouched).all()


@pytest.mark.parametrize("chain", ["stft nperseg=256", "stft nperseg=100 noverlap=30", "spectrogram nperseg=64 mode=complex"])
def test_a_streamed_stft_is_the_in_memory_bytes_whatever_the_blocks(tmp_path, rng, chain):
    """Frames that begin in held samples (stft's front padding, the last block's tail) join only
    what they read of the next block: every block size gives the in-memory file's bytes."""
    source = tmp_path / "x.f64"
    rng.standard_normal(3_001).tofile(source)
    pipeline = siglab.Pipeline(chain)
    pipeline.run_file(source, tmp_path / "memory.npy", raw="f64", stream="never")
    expected = (tmp_path / "memory.npy").read_bytes()
    for block in (99, 101, 256, 257):
        pipeline.run_file(source, tmp_path / f"{block}.npy", raw="f64", stream="always", block_samples=block)
        assert (tmp_path / f"{block}.npy").read_bytes() == expected, block
