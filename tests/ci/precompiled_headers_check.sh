#!/usr/bin/env bash
# Every test binary of more than two files, the CLI and the desktop library are compiled with a
# precompiled header (cmake/PrecompiledHeaders.cmake), a test binary added later included: the
# heavy third-party headers are parsed once a target, not once a file (issue 30: CI time).
# Usage: precompiled_headers_check.sh BUILD_DIR (a Ninja build configured with SIGLAB_PCH=ON).
set -euo pipefail
ninja_file=$1/build.ninja
missing=()
targets=$(grep -oE '^build tests/CMakeFiles/[A-Za-z0-9_-]+-tests\.dir/' "$ninja_file" | sort -u | cut -d' ' -f2)
for dir in $targets app/cli/CMakeFiles/siglab-cli.dir/ app/gui/CMakeFiles/siglab_gui.dir/; do
  files=$(grep -cE "^build ${dir}[^:]*\.cpp\.o:" "$ninja_file" || true)
  batches=$(grep -cE "^build ${dir}Unity/[^:]*\.cxx\.o:" "$ninja_file" || true)  # SIGLAB_UNITY: batches of several files
  ((files > 2 || batches > 0)) || continue
  grep -qE "^build ${dir}cmake_pch\.hxx\.gch:" "$ninja_file" || missing+=("${dir} (${files} files)")
done
if ((${#missing[@]} > 0)); then
  echo "precompiled_headers_check: compiled without a precompiled header: ${missing[*]}" >&2
  exit 1
fi
echo "precompiled_headers_check: ok"
