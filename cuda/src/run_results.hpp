#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "siglab/filter_backend.hpp"

namespace siglab::cuda {

// A run that produced nothing, with the reason.
inline FilterRun notRun(RunStatus status, std::string message) {
  FilterRun run;
  run.status = status;
  run.message = std::move(message);
  return run;
}

inline std::string mebibytes(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace siglab::cuda
