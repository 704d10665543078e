#include "siglab/filter_spec.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace siglab {

bool FilterSpec::isUniform() const {
  return isCorrelation() && !taps.empty() && std::all_of(taps.begin(), taps.end(), [&](double t) { return t == taps[0]; });
}

FilterSpec makeMeanFilter(std::size_t window, BoundaryMode mode) {
  if (window == 0 || window % 2 == 0) {
    throw std::invalid_argument("window must be a positive odd number, got " + std::to_string(window));
  }
  return FilterSpec{std::vector<double>(window, 1.0 / static_cast<double>(window)), mode};
}

void validate(const FilterSpec& spec) {
  if (spec.kind == FilterKind::Median) {
    if (spec.medianWindow == 0 || spec.medianWindow % 2 == 0) {
      throw std::invalid_argument("median window must be a positive odd number, got " + std::to_string(spec.medianWindow));
    }
    return;
  }
  if (spec.kind == FilterKind::Sos) {
    if (spec.sos.sections.empty()) throw std::invalid_argument("a filter of second-order sections needs at least one section");
    checkStable(spec.sos.sections);
    return;
  }
  if (spec.kind == FilterKind::SavitzkyGolay && spec.savgol.order >= spec.taps.size()) {
    throw std::invalid_argument("savgol order must be below the window");
  }
  if (spec.taps.empty() || spec.taps.size() % 2 == 0) {
    throw std::invalid_argument("window must be a positive odd number, got " +
                                std::to_string(spec.taps.size()));
  }
  if (!std::all_of(spec.taps.begin(), spec.taps.end(), [](double t) { return std::isfinite(t); })) {
    throw std::invalid_argument("filter taps must be finite numbers");
  }
}

std::string_view toString(BoundaryMode mode) {
  switch (mode) {
    case BoundaryMode::Zero: return "zero";
    case BoundaryMode::Reflect: return "reflect";
    case BoundaryMode::Mirror: return "mirror";
    case BoundaryMode::Nearest: return "nearest";
    case BoundaryMode::Wrap: return "wrap";
  }
  return "zero";
}

std::string_view toString(FilterKind kind) {
  switch (kind) {
    case FilterKind::Correlation: return "correlation";
    case FilterKind::Median: return "median";
    case FilterKind::SavitzkyGolay: return "savgol";
    case FilterKind::Sos: return "butterworth";
  }
  return "correlation";
}

std::string whyNotCorrelation(const FilterSpec& spec, std::string_view engine) {
  if (spec.isCorrelation()) return {};
  return std::string(engine) + " computes correlations only, not a " + std::string(toString(spec.kind));
}

std::optional<BoundaryMode> parseBoundaryMode(std::string_view text) {
  for (auto mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror,
                    BoundaryMode::Nearest, BoundaryMode::Wrap}) {
    if (toString(mode) == text) return mode;
  }
  return std::nullopt;
}

}  // namespace siglab
