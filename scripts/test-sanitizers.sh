#!/usr/bin/env bash
# Builds core, CLI, GUI and their tests with AddressSanitizer + UndefinedBehaviorSanitizer (no CUDA:
# its runtime and ASan's shadow memory do not mix) into build-asan/ and runs every test there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/phase-time.sh
phase "test-sanitizers.sh: set-up" bash scripts/setup.sh
# -O1 -g1, as the sanitizers' authors advise: reports keep their file:line stacks (line tables),
# and a file compiles in half the CPU time of -O2 -g (issue 30: CI on two cores).
phase "test-sanitizers.sh: build" env SIGLAB_BUILD_DIR=build-asan bash scripts/build.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DSIGLAB_SANITIZE=ON -DSIGLAB_CUDA=OFF \
  -DSIGLAB_BENCHMARKS=OFF  # benchmarks are not tests: the Release build compiles them
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
phase "test-sanitizers.sh: tests" ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)"
