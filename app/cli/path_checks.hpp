#pragma once
#include <vector>

#include "siglab/io/output_checks.hpp"

namespace siglab::cli {

// The one check of a command's files before any work (checkOutputsBeforeWork): every output
// writable, not empty, not one of the `inputs` (INPUT, --taps, ...) and not another output. Every
// command that writes calls it first. Prints the problem and returns the exit code (usage for a
// clash or an empty name, input/output for an unwritable path); kExitOk when they are fine.
int checkPathsBeforeWork(const char* command, const std::vector<NamedPath>& outputs,
                         const std::vector<NamedPath>& inputs);

}  // namespace siglab::cli
