"""The wheel's native part: _siglab built by CMake (the build tree's own target, siglab_python),
or the module SIGLAB_PYTHON_MODULE names, copied into the wheel beside siglab's Python files.
Everything else is in pyproject.toml."""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# setuptools' own work folders, in the ignored build tree (or SIGLAB_WHEEL_WORK), not beside the sources.
BUILD_BASE = os.environ.get("SIGLAB_WHEEL_WORK") or os.path.join("build", "wheel")
os.makedirs(BUILD_BASE, exist_ok=True)


class CMakeModule(build_ext):
    """Builds siglab._siglab with CMake (SIGLAB_WHEEL_CMAKE_ARGS adds arguments, such as
    -DSIGLAB_CUDA=OFF), or copies the module SIGLAB_PYTHON_MODULE names."""

    def build_extension(self, ext):
        module = os.environ.get("SIGLAB_PYTHON_MODULE") or self._cmake_module()
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(module, target)

    def _cmake_module(self):
        build_dir = os.path.join(BUILD_BASE, "cmake")
        configure = ["cmake", "-S", ".", "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                     "-DSIGLAB_TESTS=OFF", "-DSIGLAB_BENCHMARKS=OFF", f"-DPython3_EXECUTABLE={sys.executable}",
                     *os.environ.get("SIGLAB_WHEEL_CMAKE_ARGS", "").split()]
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", build_dir, "--target", "siglab_python"], check=True)
        built = glob.glob(os.path.join(build_dir, "python", "siglab", "_siglab*.so"))
        if not built:
            raise RuntimeError(f"CMake built no _siglab module in {build_dir} (needs python3-dev and pybind11-dev)")
        return built[0]


setup(ext_modules=[Extension("siglab._siglab", sources=[])],
      cmdclass={"build_ext": CMakeModule},
      options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}})
