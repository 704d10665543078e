#!/usr/bin/env bash
# Run here, before scripts/gpu-check.sh goes to the GPU machine: that machine has CUDA, CMake,
# GTest, CLI11, nlohmann-json and Google Benchmark but not libsndfile or FFTW3 (nor, perhaps, pkg-config).
# This downloads their Debian packages into .debs/ (ignored by git); name .debs in the device
# tool's carry, and gpu-check.sh unpacks them into a private prefix there (never into /).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .debs
cd .debs
apt-get download libsndfile1 libsndfile1-dev libflac12 libogg0 libvorbis0a libvorbisenc2 libopus0 \
  libmpg123-0 libmp3lame0 pkgconf pkgconf-bin libpkgconf3 libfftw3-dev libfftw3-double3 2> >(grep -v 'unsandboxed' >&2)
ls -1 ./*.deb
