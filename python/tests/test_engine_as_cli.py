"""siglab.signal's filters run the engine siglab-cli runs for the same request, with the same bits:
the choice is core's auto rule (the sections' block scan where the poles fade quickly), never one
made on the Python side."""
import re

import numpy as np
import pytest
import scipy.signal

import siglab
from siglab import signal

SOS = scipy.signal.butter(4, [0.1, 0.3], "bandpass", output="sos")
B, A = scipy.signal.butter(3, 0.2)

# name: (siglab.signal's call, the CLI's chain; {sos}, {b}, {a} are coefficient files).
SECTIONS = {
    "sosfilt": (lambda x: signal.sosfilt(SOS, x), "sosfilt {sos}"),
    "sosfiltfilt": (lambda x: signal.sosfiltfilt(SOS, x), "sosfiltfilt {sos}"),
    "lfilter": (lambda x: signal.lfilter(B, A, x), "lfilter {b},{a}"),
    "filtfilt": (lambda x: signal.filtfilt(B, A, x), "filtfilt {b},{a}"),
}


@pytest.mark.parametrize("name", SECTIONS)
def test_python_runs_the_cli_engine_with_its_bits(name, tmp_path, rng, cli):
    call, chain = SECTIONS[name]
    x = rng.standard_normal(300_000)
    files = {}
    for key, values in {"sos": SOS, "b": B, "a": A}.items():
        files[key] = tmp_path / f"{key}.txt"
        np.savetxt(files[key], np.atleast_1d(values), fmt="%.17g")
    stage = chain.format(**files)
    x.tofile(tmp_path / "x.f64")
    ran = cli("filter", tmp_path / "x.f64", "--raw", "f64", "--chain", stage, "-o", tmp_path / "y.npy")
    assert ran.returncode == 0, ran.stderr
    cli_engine = re.search(r"^engine: (\S+)", ran.stdout + ran.stderr, re.M).group(1)
    _, report = siglab.Pipeline(stage).run(x, report=True)
    assert report["channels"][0][0]["engine"] == cli_engine == "cpu-parallel"  # the block scan, as the CLI's auto
    y = call(x)
    assert np.array_equal(y.view(np.uint64), np.load(tmp_path / "y.npy").view(np.uint64))
    expected = getattr(scipy.signal, name)(*((SOS,) if name.startswith("sos") else (B, A)), x)
    np.testing.assert_allclose(y, expected, rtol=0, atol=1e-9 * np.abs(expected).max())
