#!/usr/bin/env bash
# Configures and builds SigLab into build/ (executables in build/bin/). Extra CMake arguments
# can be passed as arguments, e.g. -DCMAKE_CUDA_ARCHITECTURES=90.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${CUDACXX:-}" ]] && ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
build_dir=${SIGLAB_BUILD_DIR:-build}
extra=()
# SIGLAB_CUDA_ARCHITECTURES=90 (CI) compiles the GPU code for one architecture instead of five.
[[ -n "${SIGLAB_CUDA_ARCHITECTURES:-}" ]] && extra+=("-DCMAKE_CUDA_ARCHITECTURES=${SIGLAB_CUDA_ARCHITECTURES}")
# SIGLAB_UNITY=ON (CI) compiles multi-file targets in batches (cmake/UnityBuilds.cmake).
[[ -n "${SIGLAB_UNITY:-}" ]] && extra+=("-DSIGLAB_UNITY=${SIGLAB_UNITY}")
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${extra[@]}" "$@"
cmake --build "$build_dir" --parallel "$(nproc)"
