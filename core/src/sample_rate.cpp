#include "siglab/sample_rate.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace siglab {

bool isValidSampleRate(double hz) { return std::isfinite(hz) && hz > 0.0; }

void checkSampleRate(double hz, std::string_view what) {
  if (isValidSampleRate(hz)) return;
  char value[64];
  std::snprintf(value, sizeof value, "%g", hz);
  throw std::invalid_argument(std::string(what) + " must be a finite number of Hz greater than 0, got " + value);
}

std::string withSiPrefix(double value, std::string_view unit, int digits) {
  static constexpr std::array<const char*, 7> kPrefixes = {"p", "n", "\u00b5", "m", "", "k", "M"};
  int power = 0;  // of 1000, from -4 (p) to 3 (G)
  if (std::isfinite(value) && value != 0.0) {
    power = static_cast<int>(std::floor(std::log10(std::fabs(value)) / 3.0));
    power = power < -4 ? -4 : (power > 3 ? 3 : power);
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value / std::pow(1000.0, power));
  if (std::fabs(std::strtod(text, nullptr)) >= 1000.0 && power < 3) {  // 999.97 rounded up to "1000"
    ++power;
    std::snprintf(text, sizeof text, "%.*g", digits, value / std::pow(1000.0, power));
  }
  const char* prefix = power == 3 ? "G" : kPrefixes[static_cast<std::size_t>(power + 4)];
  return std::string(text) + " " + prefix + std::string(unit);
}

}  // namespace siglab
