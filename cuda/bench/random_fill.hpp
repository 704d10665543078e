#pragma once
// Random non-zero benchmark samples, filled on every core (splitmix64 per sample: no shared state,
// the same values whatever the thread count).
#include <algorithm>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

namespace siglab::bench {

// Samples in (0.5, 1.5): never zero, so a timing never runs on zeros.
inline void fillRandom(std::span<double> values, std::uint64_t seed) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::jthread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([=] {
      for (std::size_t i = values.size() * t / threads; i < values.size() * (t + 1) / threads; ++i) {
        std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        values[i] = 0.5 + static_cast<double>(z >> 11) * 0x1.0p-53;
      }
    });
  }
}

}  // namespace siglab::bench
