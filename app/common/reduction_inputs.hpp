#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace siglab {

// The seed's reduction benchmark input: rand() & 0xFF as int32, so the sum of 2^28 values needs
// 64 bits. The same count and seed give the same values.
std::vector<std::int32_t> randomBytesAsInts(std::size_t count, std::uint64_t seed);

}  // namespace siglab
