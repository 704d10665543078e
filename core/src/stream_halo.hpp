#pragma once
// What every block-by-block filter shares: the samples left of the signal that a boundary rule
// names, and a first read that costs the signal's size, not the block's.
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/io/sample_stream.hpp"

namespace siglab::detail {

// The sample that position k < 0 (left of the signal) reads, for a signal longer than 2r + 1
// samples, where the rule no longer depends on the length: `head` holds its first samples and
// `tail` its last r (wrap only).
double leftHaloSample(std::int64_t k, BoundaryMode mode, std::span<const double> head, std::span<const double> tail);

// Up to `count` samples of `in`, in a vector grown as they come (from 64 Ki samples, doubling), so
// that a block far longer than the signal costs the signal's size, not the block's: --stream-block
// 2^30 on 100 samples once allocated 8 GiB up front.
std::vector<double> readUpTo(SampleStream& in, std::size_t count);

}  // namespace siglab::detail
