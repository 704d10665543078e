#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "siglab/io/binary_formats.hpp"

namespace siglab {

// `count` little-endian samples of `type` from `data` (which holds exactly that many) as doubles.
// Rejects a non-finite float sample, naming its 1-based index, unless allowNonFinite.
std::vector<double> convertSamples(Bytes data, SampleType type, std::uint64_t count, const std::string& path,
                                   bool allowNonFinite, const Progress& progress);

// Throws InputError naming the first non-finite sample (1-based) of `samples`, if any.
void requireFinite(const std::vector<double>& samples, const std::string& path);

}  // namespace siglab
