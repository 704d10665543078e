#include "siglab/filter_kinds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "cpu_engine.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/work_bounds.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {
namespace {

std::string_view bandName(BandType type) {
  switch (type) {
    case BandType::Lowpass: return "lowpass";
    case BandType::Highpass: return "highpass";
    case BandType::Bandpass: return "bandpass";
    case BandType::Bandstop: return "bandstop";
  }
  return "lowpass";
}

bool twoEdges(BandType type) { return type == BandType::Bandpass || type == BandType::Bandstop; }

void sosReference(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const Progress& progress) {
  if (spec.sos.zeroPhase) {
    sosfiltfilt(spec.sos.sections, in, out, progress);
  } else {
    SosState state;
    sosfilt(spec.sos.sections, in, out, state, progress);
  }
}

void sosParallel(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const Progress& progress) {
  if (spec.sos.zeroPhase) {
    sosfiltfiltParallel(spec.sos.sections, in, out, progress);
  } else {
    sosfiltParallel(spec.sos.sections, in, out, {}, progress);
  }
}

// float32 sections run in float64, rounded once at the end (scipy's sosfilt promotes to float64),
// in place in one uninitialised buffer: no pass over the signal that Cancel cannot interrupt.
template <typename Run>
void sosInFloat64(std::span<const float> in, std::span<float> out, const Progress& progress, Run&& run) {
  const std::size_t n = in.size();
  const std::unique_ptr<double[]> wide(new double[n]);
  inCancellableStretches(n, progress, [&](std::size_t a, std::size_t b) { std::copy(in.data() + a, in.data() + b, wide.get() + a); });
  run(std::span<const double>(wide.get(), n), std::span<double>(wide.get(), n), progress);
  inCancellableStretches(n, progress, [&](std::size_t a, std::size_t b) {
    std::transform(wide.get() + a, wide.get() + b, out.data() + a, [](double v) { return static_cast<float>(v); });
  });
}

// Where medianFilterParallel cuts its runs of outputs (its piece size), for --verify.
std::vector<std::size_t> medianPieceStarts(std::size_t n, std::size_t window) {
  const auto pieceSize = std::max<std::int64_t>(detail::kPieceSize, 16 * static_cast<std::int64_t>(window));
  return detail::pieceStarts(static_cast<std::int64_t>(n), detail::piecesOf(static_cast<std::int64_t>(n), pieceSize));
}

template <typename T>
void checkSizes(std::span<const T> in, std::span<T> out) {
  if (in.size() != out.size()) throw std::invalid_argument("filter: input and output sizes differ");
}

}  // namespace

FilterSpec makeMedianFilter(std::size_t window, BoundaryMode mode) {
  validateMedianWindow(window);
  FilterSpec spec;
  spec.kind = FilterKind::Median;
  spec.medianWindow = window;
  spec.mode = mode;
  return spec;
}

FilterSpec makeSavgolFilter(std::size_t window, std::size_t order, std::size_t deriv, bool interp, BoundaryMode mode) {
  SavgolSpec savgol;
  savgol.window = window;
  savgol.order = order;
  savgol.deriv = deriv;
  savgol.interp = interp;
  savgol.mode = mode;
  FilterSpec spec = savgolFilterSpec(savgol);  // validates
  spec.kind = FilterKind::SavitzkyGolay;
  spec.savgol = {order, deriv, interp};
  spec.accumulator = Accumulator::Float64;
  return spec;
}

FilterSpec makeButterworthFilter(const ButterworthSpec& design, bool zeroPhase) {
  FilterSpec spec;
  spec.kind = FilterKind::Sos;
  spec.sos = {design, butterworthSections(design), zeroPhase, {}};  // validates
  return spec;
}

FilterSpec makeSectionsFilter(Sections sections, bool zeroPhase, std::string designText) {
  FilterSpec spec;
  spec.kind = FilterKind::Sos;
  spec.sos.sections = std::move(sections);
  spec.sos.zeroPhase = zeroPhase;
  spec.sos.designText = std::move(designText);
  validate(spec);
  return spec;
}

SavgolSpec savgolSpecOf(const FilterSpec& spec) {
  SavgolSpec savgol;
  savgol.window = spec.taps.size();
  savgol.order = spec.savgol.order;
  savgol.deriv = spec.savgol.deriv;
  savgol.interp = spec.savgol.interp;
  savgol.mode = spec.mode;
  return savgol;
}

std::string describeFilter(const FilterSpec& spec) {
  const std::string w = std::to_string(spec.window());
  switch (spec.kind) {
    case FilterKind::Correlation:
      return "correlation W=" + w + (spec.isUniform() ? " (mean), " : ", ") + std::string(toString(spec.mode));
    case FilterKind::Median:
      return "median W=" + w + ", " + std::string(toString(spec.mode));
    case FilterKind::SavitzkyGolay:
      return "savgol W=" + w + " order=" + std::to_string(spec.savgol.order) + " deriv=" +
             std::to_string(spec.savgol.deriv) + ", " + (spec.savgol.interp ? "interp" : std::string(toString(spec.mode)));
    case FilterKind::Sos: {
      if (!spec.sos.designText.empty()) {
        return spec.sos.designText + ", " + std::to_string(spec.sos.sections.size()) + " sections, " +
               (spec.sos.zeroPhase ? "zero phase (sosfiltfilt)" : "causal (sosfilt)");
      }
      const ButterworthSpec& d = spec.sos.design;
      const std::string unit = d.sampleRate > 0 ? " Hz" : " x Nyquist";
      return "butterworth order " + std::to_string(d.order) + " " + std::string(bandName(d.type)) + " " +
             shortNumber(d.cutoff) + (twoEdges(d.type) ? "-" + shortNumber(d.cutoff2) : "") + unit + ", " +
             std::to_string(spec.sos.sections.size()) + " sections, " +
             (spec.sos.zeroPhase ? "zero phase (sosfiltfilt)" : "causal (sosfilt)");
    }
  }
  return {};
}

std::string_view toString(BandType type) { return bandName(type); }

std::optional<BandType> parseBandType(std::string_view text) {
  for (auto type : {BandType::Lowpass, BandType::Highpass, BandType::Bandpass, BandType::Bandstop}) {
    if (bandName(type) == text) return type;
  }
  return std::nullopt;
}

void checkSignalLength(const FilterSpec& spec, std::size_t samples, const std::string& option) {
  if (spec.kind == FilterKind::SavitzkyGolay && spec.savgol.interp && samples < spec.taps.size()) {
    throw std::invalid_argument((option.empty() ? "" : option + ": ") + "interp edges need at least W = " + std::to_string(spec.taps.size()) +
                                " samples; the signal has " + std::to_string(samples) +
                                " (use a smaller window or another --mode)");
  }
  if (spec.kind == FilterKind::Sos && spec.sos.zeroPhase) {
    const std::size_t edge = sosfiltfiltPadLength(spec.sos.sections);
    if (samples <= edge) {
      throw std::invalid_argument("--zero-phase needs more than " + std::to_string(edge) +
                                  " samples (3 x (2 x sections + 1)) for this design; the signal has " +
                                  std::to_string(samples));
    }
  }
}

void finishEdges(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const Progress& cancel) {
  if (spec.kind == FilterKind::SavitzkyGolay && spec.savgol.interp) savgolInterpEdges(in, savgolSpecOf(spec), out, cancel);
}
void finishEdges(std::span<const float> in, const FilterSpec& spec, std::span<float> out, const Progress& cancel) {
  if (spec.kind == FilterKind::SavitzkyGolay && spec.savgol.interp) savgolInterpEdges(in, savgolSpecOf(spec), out, cancel);
}

void filterKindReference(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                         const Progress& progress) {
  checkSizes(in, out);
  if (spec.kind == FilterKind::Median) return medianFilterReference(in, spec.medianWindow, spec.mode, out, progress);
  if (spec.kind == FilterKind::Sos) return sosReference(in, spec, out, progress);
  throw std::invalid_argument("filterKindReference: a " + std::string(toString(spec.kind)) + " is a correlation");
}
void filterKindReference(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                         const Progress& progress) {
  checkSizes(in, out);
  if (spec.kind == FilterKind::Median) return medianFilterReference(in, spec.medianWindow, spec.mode, out, progress);
  if (spec.kind == FilterKind::Sos) {
    return sosInFloat64(in, out, progress, [&](std::span<const double> x, std::span<double> y, const Progress& p) {
      sosReference(x, spec, y, p);
    });
  }
  throw std::invalid_argument("filterKindReference: a " + std::string(toString(spec.kind)) + " is a correlation");
}

std::vector<std::size_t> filterKindParallel(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                            const Progress& progress) {
  checkSizes(in, out);
  if (spec.kind == FilterKind::Median) {
    medianFilterParallel(in, spec.medianWindow, spec.mode, out, progress);
    return medianPieceStarts(in.size(), spec.medianWindow);
  }
  if (spec.kind == FilterKind::Sos) {
    sosParallel(in, spec, out, progress);
    return sosScanCuts(spec.sos.sections, in.size(), spec.sos.zeroPhase);
  }
  throw std::invalid_argument("filterKindParallel: a " + std::string(toString(spec.kind)) + " is a correlation");
}
std::vector<std::size_t> filterKindParallel(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                            const Progress& progress) {
  checkSizes(in, out);
  if (spec.kind == FilterKind::Median) {
    medianFilterParallel(in, spec.medianWindow, spec.mode, out, progress);
    return medianPieceStarts(in.size(), spec.medianWindow);
  }
  if (spec.kind == FilterKind::Sos) {
    sosInFloat64(in, out, progress, [&](std::span<const double> x, std::span<double> y, const Progress& p) {
      sosParallel(x, spec, y, p);
    });
    return sosScanCuts(spec.sos.sections, in.size(), spec.sos.zeroPhase);
  }
  throw std::invalid_argument("filterKindParallel: a " + std::string(toString(spec.kind)) + " is a correlation");
}

std::optional<FrequencyResponse> filterResponse(const FilterSpec& spec, std::size_t points,
                                                std::optional<double> sampleRate) {
  switch (spec.kind) {
    case FilterKind::Median: return std::nullopt;
    case FilterKind::Sos: return sosResponse(spec.sos.sections, points, spec.sos.zeroPhase, sampleRate);
    case FilterKind::SavitzkyGolay: {
      const std::vector<double> conv(spec.taps.rbegin(), spec.taps.rend());
      return firResponse(conv, points, sampleRate);
    }
    case FilterKind::Correlation: break;
  }
  if (spec.taps.empty()) return std::nullopt;
  return firResponse(spec.taps, points, sampleRate);
}

std::string whyNoResponse(const FilterSpec& spec) {
  if (spec.kind != FilterKind::Median) return {};
  return "a median has no frequency response: it is not a linear filter (it removes spikes and keeps edges "
         "whatever their frequency)";
}

double sosKindTolerance(const FilterSpec& spec, double maxAbsInput, bool float32) {
  if (spec.kind != FilterKind::Sos) return 0.0;
  const Sections& sections = spec.sos.sections;
  const SosGains gains = sosGains(sections);
  if (!gains.decayed) return std::numeric_limits<double>::infinity();
  const SosState zi = sosfiltZi(sections);
  double ziMax = 0;
  for (double z : zi) ziMax = std::max(ziMax, std::abs(z));
  const double extended = spec.sos.zeroPhase ? 3 * maxAbsInput : maxAbsInput;
  const double initial = spec.sos.zeroPhase ? ziMax * extended : 0.0;
  double bound = sosScanErrorBound(sections, gains, extended, initial);
  double largestOutput = gains.inputToOutput * extended + gains.stateToOutput * initial;
  if (spec.sos.zeroPhase) {
    const double backwardInitial = ziMax * largestOutput;
    bound = bound * gains.inputToOutput + sosScanErrorBound(sections, gains, largestOutput, backwardInitial);
    largestOutput = gains.inputToOutput * largestOutput + gains.stateToOutput * backwardInitial;
  }
  // Both results rounded to float: one float32 ulp of the largest output between them at most.
  return float32 ? bound + 0x1p-23 * largestOutput : bound;
}

}  // namespace siglab
