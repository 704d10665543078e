#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "siglab/filter_backend.hpp"

namespace siglab::cuda {

inline std::string mebibytes(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace siglab::cuda
