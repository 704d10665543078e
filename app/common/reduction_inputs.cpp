#include "reduction_inputs.hpp"

#include <random>

namespace siglab {

std::vector<std::int32_t> randomBytesAsInts(std::size_t count, std::uint64_t seed) {
  std::mt19937 rng(static_cast<std::mt19937::result_type>(seed));
  std::vector<std::int32_t> values(count);
  for (auto& v : values) v = static_cast<std::int32_t>(rng() & 0xFF);
  return values;
}

}  // namespace siglab
