#include "siglab/lab_reverse.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>

namespace siglab {
namespace {

constexpr int kWarp = 32;
constexpr int kSectorBytes = 32;
constexpr std::int64_t kSharedTile = 256;  // gpu-shared's block size, as in the seed

// Requested and moved bytes over warp instructions.
struct SectorCount {
  double requested = 0.0;
  double moved = 0.0;

  // One warp instruction: each active lane reads or writes `width` bytes at addresses[lane].
  void add(const std::array<std::int64_t, kWarp>& addresses, const std::array<bool, kWarp>& active, int width) {
    std::array<std::int64_t, kWarp * 2> sectors{};
    int count = 0;
    for (int lane = 0; lane < kWarp; ++lane) {
      if (!active[lane]) continue;
      requested += width;
      sectors[count++] = addresses[lane] / kSectorBytes;
      const std::int64_t last = (addresses[lane] + width - 1) / kSectorBytes;
      if (last != sectors[count - 1]) sectors[count++] = last;
    }
    std::sort(sectors.begin(), sectors.begin() + count);
    moved += static_cast<double>(std::unique(sectors.begin(), sectors.begin() + count) - sectors.begin()) * kSectorBytes;
  }
  double efficiency() const { return moved > 0.0 ? requested / moved : 1.0; }
};

}  // namespace

std::vector<std::int32_t> randomReversalInput(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> values(count);
  for (auto& v : values) v = static_cast<std::int32_t>(rng() % 0x7fffffffu);
  return values;
}

double reversalBytes(std::size_t count) { return 2.0 * static_cast<double>(count) * sizeof(std::int32_t); }

LadderRung reverseOnCpu(std::span<const std::int32_t> in, std::span<std::int32_t> out, const MeasureOptions& options) {
  LadderRung rung;
  rung.name = "cpu-reverse-copy";
  rung.description = "std::reverse_copy on one CPU core: the reference";
  rung.work = reversalBytes(in.size());
  std::fill(out.begin(), out.end(), -1);
  rung.time = measure([&] { return timeOnHost([&] { std::reverse_copy(in.begin(), in.end(), out.begin()); }); },
                      options).total;
  checkReversal(in, out, rung);
  return rung;
}

void checkReversal(std::span<const std::int32_t> in, std::span<const std::int32_t> out, LadderRung& rung) {
  const std::size_t n = in.size();
  rung.correct = out.size() == n;
  for (std::size_t i = 0; rung.correct && i < n; ++i) {
    if (out[i] != in[n - 1 - i]) {
      rung.correct = false;
      rung.result = "WRONG at index " + std::to_string(i) + ": " + std::to_string(out[i]) + ", expected " +
                    std::to_string(in[n - 1 - i]);
      return;
    }
  }
  rung.result = rung.correct ? "exact" : "WRONG: output size " + std::to_string(out.size());
}

AccessEfficiency reversalAccessEfficiency(ReversePattern pattern, std::int64_t n) {
  SectorCount loads, stores;
  std::array<std::int64_t, kWarp> address{};
  std::array<bool, kWarp> active{};
  const std::int64_t span = std::min<std::int64_t>(n, std::int64_t{1} << 22);
  constexpr std::int64_t kInt = sizeof(std::int32_t);
  if (pattern == ReversePattern::Vector16) {
    // Consecutive lanes store consecutive 16-byte chunks m (out[4m..4m+3]), one instruction per chunk.
    const std::int64_t chunks = n / 4;
    const std::int64_t spanChunks = std::max<std::int64_t>(span / 4, 1);
    for (std::int64_t first = 0; first < std::min(chunks, spanChunks); first += kWarp) {
      for (int lane = 0; lane < kWarp; ++lane) {
        const std::int64_t m = first + lane;
        active[lane] = m < chunks;
        address[lane] = 16 * m;
      }
      stores.add(address, active, 16);
      if (n % 4 == 0) {
        for (int lane = 0; lane < kWarp; ++lane) address[lane] = kInt * (n - 4 - 4 * (first + lane));
        loads.add(address, active, 16);
      } else {
        for (int c = 0; c < 4; ++c) {  // four 4-byte loads a chunk
          for (int lane = 0; lane < kWarp; ++lane) address[lane] = kInt * (n - 1 - 4 * (first + lane) - c);
          loads.add(address, active, 4);
        }
      }
    }
  } else {
    for (std::int64_t first = 0; first < span; first += kWarp) {
      for (int lane = 0; lane < kWarp; ++lane) {
        const std::int64_t i = first + lane;
        active[lane] = i < n;
        address[lane] = kInt * i;
      }
      loads.add(address, active, 4);
      for (int lane = 0; lane < kWarp; ++lane) {
        const std::int64_t i = first + lane;
        if (pattern == ReversePattern::OneElementPerThread) {
          address[lane] = kInt * (n - 1 - i);
        } else {
          const std::int64_t block = i / kSharedTile, t = i % kSharedTile;
          const std::int64_t o = n - kSharedTile * (block + 1) + t;
          active[lane] = o >= 0;
          address[lane] = kInt * o;
        }
      }
      stores.add(address, active, 4);
    }
  }
  return {loads.efficiency(), stores.efficiency()};
}

std::string accessText(const AccessEfficiency& efficiency) {
  char text[64];
  std::snprintf(text, sizeof text, "load %.0f%% / store %.0f%%", 100.0 * efficiency.load, 100.0 * efficiency.store);
  return text;
}

}  // namespace siglab
