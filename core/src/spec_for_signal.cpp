#include "siglab/spec_for_signal.hpp"

#include "siglab/filter_kinds.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

std::string croppedNote(std::uint64_t requested, std::size_t kept) {
  if (requested == kept) return {};
  return "the window's " + std::to_string(requested) + " taps were cropped to the " + std::to_string(kept) +
         " that can meet a sample (zero mode: the same result, work bounded by the signal)";
}

}  // namespace

std::string fitSpecToSignal(FilterSpec& spec, std::size_t samples, const std::string& option) {
  if (spec.kind != FilterKind::Correlation) {
    // Other kinds keep their window (no cropping): only what the signal's size cannot take is refused.
    if (spec.kind == FilterKind::Median || (spec.kind == FilterKind::SavitzkyGolay && !spec.savgol.interp)) {
      checkWindowFits(spec.window(), spec.mode, samples, option + " W");
    }
    checkSignalLength(spec, samples, option);
    return {};
  }
  const std::uint64_t requested = spec.window();
  checkWindowFits(requested, spec.mode, samples, option);
  spec = cropToSignal(std::move(spec), samples);
  return croppedNote(requested, spec.window());
}

FilterSpec meanFilterFitted(std::uint64_t window, BoundaryMode mode, std::size_t samples, const std::string& option,
                            std::string& note) {
  FilterSpec spec = meanFilterForSignal(window, mode, samples, option);
  note = croppedNote(window, spec.window());
  return spec;
}

}  // namespace siglab
