#!/usr/bin/env bash
# CI compiles multi-file targets a batch of files at a time (cmake/UnityBuilds.cmake, issue 30: CI
# on two cores): .ci/run turns SIGLAB_UNITY on, scripts/build.sh hands it to CMake, and a build
# configured with it compiles the CLI and each test binary of more than two files from unity batches.
# Usage: unity_build_check.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1 build_dir=$2
fail() { echo "unity_build_check: $*" >&2; exit 1; }

grep -qxF 'export SIGLAB_UNITY=${SIGLAB_UNITY:-ON}' "$source_dir/.ci/run" || fail ".ci/run does not turn SIGLAB_UNITY on"

# scripts/build.sh with a stand-in cmake (in this test's own folder) that records its arguments.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '#!/usr/bin/env bash\necho "$*" >> "%s/cmake-args"\n' "$scratch" > "$scratch/cmake"
chmod +x "$scratch/cmake"
PATH="$scratch:$PATH" SIGLAB_UNITY=ON SIGLAB_BUILD_DIR="$scratch/build" bash "$source_dir/scripts/build.sh" > /dev/null
grep -q -- '-DSIGLAB_UNITY=ON' "$scratch/cmake-args" || fail "scripts/build.sh does not pass SIGLAB_UNITY on: $(head -1 "$scratch/cmake-args")"

# This build's targets, where it was configured with SIGLAB_UNITY=ON (CI's builds are).
grep -qx 'SIGLAB_UNITY:BOOL=ON' "$build_dir/CMakeCache.txt" || { echo "unity_build_check: ok (this build is not a unity build)"; exit 0; }
ninja_file=$build_dir/build.ninja
separate=()
targets=$(grep -oE '^build tests/CMakeFiles/[A-Za-z0-9_-]+-tests\.dir/' "$ninja_file" | sort -u | cut -d' ' -f2)
for dir in $targets app/cli/CMakeFiles/siglab-cli.dir/; do
  [[ $dir =~ ^tests/CMakeFiles/siglab-(core|gui)-tests\.dir/$ ]] && continue  # SIGLAB_UNITY_NOT_YET (cmake/TestBinaries.cmake)
  files=$(grep -cE "^build ${dir}[^:]*\.cpp\.o:" "$ninja_file" || true)
  batches=$(grep -cE "^build ${dir}Unity/unity_[0-9]+_cxx\.cxx\.o:" "$ninja_file" || true)
  ((files + batches > 2 && files > 0)) && separate+=("${dir} (${files} files compiled one by one)")
done
((${#separate[@]} == 0)) || fail "not compiled in unity batches: ${separate[*]}"
echo "unity_build_check: ok"
