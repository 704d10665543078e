"""The wheel: python3 -m build --wheel --no-isolation builds it (with the build tree's module, which
SIGLAB_PYTHON_MODULE names, so CI compiles nothing twice), pip installs it into a fresh virtual
environment (--system-site-packages for NumPy), and `import siglab` works there with no build tree.
Takes a few seconds (setuptools and pip): ctest runs it as its own test, python-wheel."""
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def missing():
    if not os.environ.get("SIGLAB_PYTHON_MODULE"):
        return "SIGLAB_PYTHON_MODULE is not set (ctest's python-wheel sets it)"
    for module in ("build", "venv", "pip", "setuptools", "wheel"):
        if importlib.util.find_spec(module) is None:
            return f"python3's {module} is not installed"
    if sys.prefix != sys.base_prefix:  # a venv made from a venv sees the base's packages, not NumPy here
        return "python3 runs in a virtual environment: a fresh one made from it would not see its NumPy"
    return None


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
def test_the_wheel_installs_into_a_fresh_environment_and_imports_without_the_build_tree(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["SIGLAB_WHEEL_WORK"] = str(tmp_path / "work")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", tmp_path / "dist", ROOT],
                   env=env, check=True, capture_output=True)
    wheel, = (tmp_path / "dist").glob("siglab-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", venv], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--no-index", "--no-deps", "--quiet",
                    wheel], env=env, check=True, capture_output=True)
    check = ("import siglab, numpy as np\n"
             "print(siglab.__file__)\n"
             "sos = siglab.signal.butter(2, 0.2, output='sos')\n"
             "assert np.allclose(siglab.signal.sosfiltfilt(sos, np.ones(64)), 1.0)\n"
             "assert siglab.ndimage.median_filter(np.arange(5.0), 3).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]\n")
    run = subprocess.run([python, "-c", check], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    installed = pathlib.Path(run.stdout.strip())
    assert venv in installed.parents, installed  # the venv's copy, not the build tree's or the sources'
    assert (installed.parent / "signal.pyi").is_file() and (installed.parent / "py.typed").is_file()
