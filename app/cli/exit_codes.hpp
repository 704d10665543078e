#pragma once

namespace siglab::cli {

// The CLI's exit codes, part of its contract.
enum ExitCode : int {
  kExitOk = 0,
  kExitDisagreement = 1,  // a backend's result differs from the cpu-serial reference
  kExitUsage = 2,
  kExitInputOutput = 3,   // a file could not be read, parsed or written
};

}  // namespace siglab::cli
