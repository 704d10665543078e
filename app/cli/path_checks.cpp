#include "path_checks.hpp"

#include <iostream>

#include "exit_codes.hpp"
#include "siglab/errors.hpp"

namespace siglab::cli {

int checkPathsBeforeWork(const char* command, const std::vector<NamedPath>& outputs,
                         const std::vector<NamedPath>& inputs) {
  try {
    checkOutputsBeforeWork(outputs, inputs);
  } catch (const OutputConflict& e) {
    std::cerr << "siglab-cli " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli " << command << ": " << e.what() << "\n";
    return kExitInputOutput;
  }
  return kExitOk;
}

}  // namespace siglab::cli
