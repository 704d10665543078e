#!/usr/bin/env bash
# Installs what SigLab builds with on Debian 12, as root. Idempotent: installs only what is missing.
# CUDA is optional: with nvcc on PATH (or /usr/local/cuda) the GPU backends are built too.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libsndfile1-dev
  libfftw3-dev
  libhdf5-dev libmatio-dev python3-h5py
  qt6-base-dev qt6-qpa-plugins libqcustomplot-dev libgl-dev fonts-dejavu-core
  python3-dev pybind11-dev python3-numpy python3-scipy python3-pytest python3-dask python3-distributed
  qt6-svg-dev librsvg2-bin help2man man-db desktop-file-utils appstream dpkg-dev file
  xvfb xauth x11-utils x11-apps netpbm
  python3-soundfile flac  # the audio tests' independent reader, and the FLAC bench
  python3-sphinx python3-myst-parser furo  # the user guide (scripts/docs.sh)
  doxygen python3-breathe  # the guide's C++ API page (scripts/cpp-api-xml.py)
  python3-build python3-venv python3-pip python3-setuptools python3-wheel  # the wheel test (python-wheel)
  qt6-multimedia-dev  # the GUI's playback (optional: the GUI builds without it)
  python3-mne python3-pandas  # the EDF and time-stamped CSV tests' independent readers
  python3-tqdm  # Pipeline.run_file(progress="tqdm")
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all packages present"
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing packages: ${missing[*]}; run this script as root (apt-get install)" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
