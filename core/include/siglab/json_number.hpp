#pragma once
// How every SigLab JSON writer (stats --json, comparison reports, sessions) writes a number:
// finite values as JSON numbers; NaN and the infinities, which JSON numbers cannot hold, as the
// strings "nan", "inf" and "-inf" (never null, which would read as "no value").
#include <cmath>

#include <nlohmann/json.hpp>

namespace siglab {

inline nlohmann::json jsonNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

}  // namespace siglab
