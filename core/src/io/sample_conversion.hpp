#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "siglab/io/binary_formats.hpp"

namespace siglab {

// `count` little-endian samples of `type` from `data` (which holds exactly that many) as doubles.
// Rejects a non-finite float sample, naming its 1-based index, unless allowNonFinite.
// The samples go to `memory` (nullptr: ordinary memory).
SampleVector convertSamples(Bytes data, SampleType type, std::uint64_t count, const std::string& path,
                            bool allowNonFinite, const Progress& progress, std::pmr::memory_resource* memory = nullptr);

// The same into `out` (out.size() samples from `data`), for a window of a larger file whose first
// sample is sample `firstIndex` (0-based) of the file: a non-finite one is named by its file index.
void convertSamplesInto(Bytes data, SampleType type, std::span<double> out, std::uint64_t firstIndex,
                        const std::string& path, bool allowNonFinite);

// `count` little-endian samples of `type`, each `stride` samples after the one before from `in`
// (1: packed; the data need not be aligned), as doubles into `out`. No checks.
void convertStrided(SampleType type, const std::byte* in, std::size_t stride, double* out, std::size_t count);

// Throws InputError naming the first non-finite sample (1-based) of `samples`, if any.
void requireFinite(std::span<const double> samples, const std::string& path, std::uint64_t firstIndex = 0);

}  // namespace siglab
