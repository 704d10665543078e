#!/usr/bin/env bash
# scripts/phase-time.sh's `phase`, which splits .ci/run's steps: it prints the command's wall and
# CPU seconds, counts the CPU of the command's children, and a failing command still fails the step.
set -uo pipefail
source "$1/scripts/phase-time.sh"
fail() { echo "phase_time_check: $*" >&2; exit 1; }

# A child that burns CPU for about 0.3 s (bash counting), inside a grandchild.
line=$(phase "busy" bash -c 'bash -c "for ((i = 0; i < 300000; ++i)); do :; done"')
[[ $line =~ ^busy\ took\ [0-9]+\ s,\ ([0-9]+\.[0-9])\ CPU-s$ ]] || fail "unexpected line: '$line'"
[[ ${BASH_REMATCH[1]} != 0.0 ]] || fail "the children's CPU time was not counted: '$line'"

# Under set -e (as in scripts/test.sh) a failing command ends the script with its status.
output=$(bash -c 'set -e; source "$1/scripts/phase-time.sh"; phase "failing" bash -c "exit 3"; echo "went on"' check "$1")
status=$?
[[ $output != *"went on"* ]] || fail "the script went on after a failing command"
[[ $status == 3 ]] || fail "a failing command gave status $status, not 3"
echo "phase_time_check: ok"
