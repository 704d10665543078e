#include "siglab/cursor_readout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace siglab {

CursorDelta cursorDelta(double a, double b, std::optional<double> sampleRate) {
  CursorDelta delta;
  delta.samples = b - a;
  const bool rated = sampleRate && *sampleRate > 0;
  if (rated) delta.seconds = delta.samples / *sampleRate;
  const double span = std::abs(rated ? *delta.seconds : delta.samples);
  if (span > 0 && std::isfinite(span)) delta.reciprocal = 1.0 / span;
  return delta;
}

std::string withSiPrefix(double value, const std::string& unit, int digits) {
  struct Prefix { double scale; const char* name; };
  static constexpr std::array<Prefix, 9> kPrefixes{{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1.0, ""}, {1e-3, "m"},
                                                     {1e-6, "µ"}, {1e-9, "n"}, {1e-12, "p"}, {1e-15, "f"}}};
  Prefix chosen{1.0, ""};
  const double magnitude = std::abs(value);
  if (magnitude > 0 && std::isfinite(magnitude)) {
    chosen = kPrefixes.back();
    for (const Prefix& prefix : kPrefixes) {
      if (magnitude >= prefix.scale) {
        chosen = prefix;
        break;
      }
    }
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.*g %s%s", digits, value / chosen.scale, chosen.name, unit.c_str());
  return text;
}

}  // namespace siglab

namespace siglab {

std::size_t nearestIndex(std::span<const double> keys, double key) {
  if (keys.empty()) return 0;
  const auto after = std::lower_bound(keys.begin(), keys.end(), key);
  if (after == keys.begin()) return 0;
  if (after == keys.end()) return keys.size() - 1;
  const auto before = std::prev(after);
  return static_cast<std::size_t>((key - *before <= *after - key ? before : after) - keys.begin());
}

}  // namespace siglab
