#include "siglab/work_bounds.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace siglab {
std::uint64_t availableMemoryBytes() {
  // fgets + strtoull: no iostream locale (a host process such as Python's may set a global one).
  std::FILE* meminfo = std::fopen("/proc/meminfo", "re");
  if (meminfo == nullptr) return std::numeric_limits<std::uint64_t>::max();
  std::uint64_t bytes = std::numeric_limits<std::uint64_t>::max();
  char line[256];
  while (std::fgets(line, sizeof line, meminfo)) {
    if (std::strncmp(line, "MemAvailable:", 13) != 0) continue;
    char* end = nullptr;
    const unsigned long long kib = std::strtoull(line + 13, &end, 10);
    if (end != line + 13) bytes = static_cast<std::uint64_t>(kib) * 1024;
    break;
  }
  std::fclose(meminfo);
  return bytes;
}

std::string formatBytes(double bytes) {
  char text[64];
  if (bytes >= double(1 << 30)) {
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1 << 30));
  } else if (bytes >= double(1 << 20)) {
    std::snprintf(text, sizeof text, "%.1f MiB", bytes / double(1 << 20));
  } else {
    std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  }
  return text;
}

std::string shortNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

void requireMemory(std::uint64_t count, std::uint64_t bytesEach, const std::string& what) {
  const auto available = static_cast<double>(availableMemoryBytes());
  const double bytes = static_cast<double>(count) * static_cast<double>(bytesEach);
  if (bytes > available) {
    throw NotEnoughMemory("not enough memory for " + what + ": needs " + formatBytes(bytes) + ", " +
                          formatBytes(available) + " available");
  }
}

std::uint64_t croppedWindow(std::uint64_t window, std::size_t samples) {
  const std::uint64_t reach = samples == 0 ? 1 : 2 * static_cast<std::uint64_t>(samples) - 1;
  return std::min(window, reach);
}

std::uint64_t maxWindowFor(BoundaryMode mode, std::size_t samples) {
  if (mode == BoundaryMode::Zero) return kMaxWindow;
  const std::uint64_t n = std::max<std::uint64_t>(samples, 1);
  const std::uint64_t longest = std::max(2 * n - 1, kMaxLongWindowWork / n);
  return longest % 2 == 1 ? longest : longest - 1;
}

void checkWindowFits(std::uint64_t window, BoundaryMode mode, std::size_t samples, const std::string& option) {
  const std::uint64_t longest = maxWindowFor(mode, samples);
  if (window <= longest) return;
  throw std::invalid_argument(option + " " + std::to_string(window) + " is too long for " + std::to_string(samples) +
                              " samples in " + std::string(toString(mode)) + " mode: at most " +
                              std::to_string(longest) + " taps (2N - 1, or up to " +
                              std::to_string(kMaxLongWindowWork) +
                              " multiply-adds in all); zero mode takes any window");
}

FilterSpec cropToSignal(FilterSpec spec, std::size_t samples) {
  const std::uint64_t keep = croppedWindow(spec.window(), samples);
  if (spec.mode != BoundaryMode::Zero || keep == spec.window()) return spec;
  const std::size_t drop = (spec.window() - keep) / 2;
  spec.taps.erase(spec.taps.end() - static_cast<std::ptrdiff_t>(drop), spec.taps.end());
  spec.taps.erase(spec.taps.begin(), spec.taps.begin() + static_cast<std::ptrdiff_t>(drop));
  spec.taps.shrink_to_fit();
  return spec;
}

FilterSpec meanFilterForSignal(std::uint64_t window, BoundaryMode mode, std::size_t samples, const std::string& option) {
  if (window == 0 || window % 2 == 0 || window > kMaxWindow) {
    throw std::invalid_argument(option + " must be an odd number from 1 to 2^62 - 1, got " + std::to_string(window));
  }
  checkWindowFits(window, mode, samples, option);
  const std::uint64_t keep = mode == BoundaryMode::Zero ? croppedWindow(window, samples) : window;
  requireMemory(keep, 4 * sizeof(double), std::to_string(keep) + " taps");
  return FilterSpec{std::vector<double>(keep, 1.0 / static_cast<double>(window)), mode};
}

}  // namespace siglab
