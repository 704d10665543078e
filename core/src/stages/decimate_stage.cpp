// decimate: scipy.signal.decimate(x, q, n=None, ftype='iir', zero_phase=True). ftype iir: a
// Chebyshev type I low-pass cheby1(n or 8, 0.05, 0.8 / q) as sections, run forward (sosfilt) or
// forward and back (sosfiltfilt), every q-th output kept; ftype fir: firwin(n + 1, 1 / q, hamming)
// with n = 20 q by default, as resample_poly(x, 1, q, window=b) where zero phase, else upfirdn(b, x,
// 1, q) cut to ceil(n / q) outputs; --decimate Q.
#include <cmath>
#include <cstdint>

#include "../rate_streams.hpp"
#include "../kept_sections.hpp"
#include "../sections_stream.hpp"
#include "kind_values.hpp"
#include "polyphase_stage.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/iir_design.hpp"
#include "siglab/job.hpp"
#include "siglab/large_page_resource.hpp"
#include "siglab/rate_designs.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::stages {
namespace {

constexpr std::uint64_t kMostFactor = std::uint64_t{1} << 16;
constexpr std::int64_t kMostFirOrder = std::int64_t{1} << 20;
constexpr int kMostIirOrder = 32;

std::uint64_t keptOf(std::uint64_t n, std::uint64_t q) { return n / q + (n % q != 0); }

// cheby1(n, 0.05, 0.8 / q, output='sos'); order 0 is its gain alone, as cheb1ap gives it.
Sections decimateSections(int order, double q) {
  constexpr double kRippleDb = 0.05;
  if (order == 0) return {Section{std::pow(10.0, -kRippleDb / 20), 0, 0, 1, 0, 0}};
  ButterworthSpec band;
  band.order = order;
  band.cutoff = 0.8 / q;
  band.type = BandType::Lowpass;
  return cheby1Sections(band, kRippleDb);
}

// The IIR form: the sections run by the filter engines (verified as butter's are), then every q-th.
class IirDecimateStage final : public BoundStage {
 public:
  IirDecimateStage(FilterSpec spec, std::uint64_t q, std::string description)
      : spec_(spec), filter_(makeFilterStage(std::move(spec))), q_(q), description_(std::move(description)) {}

  std::string describe() const override { return description_; }
  std::optional<std::size_t> historyBefore() const override { return std::nullopt; }
  std::optional<std::size_t> historyAfter() const override { return std::nullopt; }
  std::pair<std::size_t, std::size_t> rateChange() const override { return {1, static_cast<std::size_t>(q_)}; }
  std::uint64_t outputSamples(std::uint64_t inputs) const override { return keptOf(inputs, q_); }
  // The sections stream as SectionsStream runs them (causal: state carried block by block; zero
  // phase: forward into a spool file, then back), every q-th output kept; under auto, where auto
  // takes cpu-parallel's block scan for them, the scan: the in-memory run's bits either way.
  bool streamsItself() const override { return true; }
  bool readsWholeInputFirst() const override { return spec_.sos.zeroPhase; }
  std::unique_ptr<SampleStream> streamFrom(SampleStream& upstream, const StageRunOptions& options,
                                           const Progress& progress) const override {
    auto sections = std::make_unique<detail::SectionsStream>(upstream, spec_, options.sampleType, options.pathForMessages,
                                                             std::size_t{1} << 16, progress,
                                                             options.engine == "auto" && streamsBlockScan());
    return std::make_unique<detail::KeepEveryStream>(std::move(sections), q_);
  }
  bool streamsBlockScan() const override { return autoScansSections(spec_); }
  std::vector<std::string> engineNames(const BackendList& engines) const override { return filter_->engineNames(engines); }

  AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override {
    if (out.size() != keptOf(in.size(), q_)) throw std::invalid_argument("the output's size is not the stage's");
    if (AppliedJob kept; keptAsScanned(engines, in, out, options, progress, kept)) return kept;
    SampleVector filtered(ForOverwrite{}, in.size(), resultMemory());
    AppliedJob applied = filter_->applyInto(engines, in, filtered, options, progress);
    for (std::size_t j = 0; j < out.size(); ++j) out[j] = filtered[j * q_];
    return applied;
  }

 private:
  // Causal on cpu-parallel: every q-th output kept as the scan goes, no filtered signal
  // (kept_sections.hpp); false where the run is another (the filter stage's, then every q-th).
  bool keptAsScanned(const BackendList& engines, std::span<const double> in, std::span<double> out,
                     const StageRunOptions& options, const Progress& progress, AppliedJob& applied) const {
    if (spec_.sos.zeroPhase) return false;
    const Job job = jobOfStage(spec_, options);
    const EngineChoice choice = asStageError([&] { return applyEngineOrder(engines, job, in.size()).front(); });
    if (!detail::keepsAsItScans(*choice.engine, job)) return false;
    applied.result = detail::applySectionsKeeping(*choice.engine, in, out, q_, job, progress);
    applied.why = choice.why;
    return true;
  }

  FilterSpec spec_;
  std::unique_ptr<BoundStage> filter_;
  std::uint64_t q_;
  std::string description_;
};

class DecimateKind final : public StageKind {
 public:
  std::string_view name() const override { return "decimate"; }
  std::string_view summary() const override {
    return "low-pass then keep every Q-th sample (scipy.signal.decimate)";
  }
  std::string_view valueSyntax() const override { return "Q"; }
  std::string_view exampleValue() const override { return "4"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo q = describedParameter("q", ParameterType::Whole, "the downsampling factor", std::nullopt, true);
    q.min = 1;
    q.max = static_cast<double>(kMostFactor);
    ParameterInfo n = describedParameter("n", ParameterType::Whole,
                                         "the filter's order; 0: scipy's default (8 for iir, 20 Q for fir)", "0");
    n.max = static_cast<double>(kMostFirOrder);
    ParameterInfo ftype = describedParameter("ftype", ParameterType::Choice,
                                             "iir: Chebyshev type I (cheby1); fir: a Hamming-window firwin", "iir");
    ftype.choices = {"iir", "fir"};
    ParameterInfo zeroPhase = describedParameter("zero-phase", ParameterType::Flag,
                                                 "filter forward and back (no delay); off: forward only", "");  // on
    return {q, n, ftype, zeroPhase};
  }

  StageParameters parseValue(std::string_view value) const override {
    return {{"q", static_cast<std::int64_t>(wholeIn(std::string(value), 1, kMostFactor, "Q"))}};
  }
  std::string formatValue(const StageParameters& values) const override { return std::to_string(wholeOf(values, "q")); }

  void check(const StageParameters& values) const override {
    if (textOf(values, "ftype") == "iir" && wholeOf(values, "n") > kMostIirOrder) {
      throw StageError("n must be a whole number from 0 to " + std::to_string(kMostIirOrder) +
                       " for ftype iir (an order past that is not stable), got " + std::to_string(wholeOf(values, "n")));
    }
  }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    const std::int64_t q = wholeOf(values, "q");
    const bool zeroPhase = flagOf(values, "zero-phase");
    const bool fir = textOf(values, "ftype") == "fir";
    const std::int64_t n = wholeOf(values, "n") != 0 ? wholeOf(values, "n") : fir ? 20 * q : 8;
    const std::string description = "decimate q " + std::to_string(q) + ", " + (fir ? "fir" : "iir") + " order " +
                                    std::to_string(n) + (zeroPhase ? ", zero phase" : "");
    const auto outputs = [q](std::uint64_t samples) { return keptOf(samples, static_cast<std::uint64_t>(q)); };
    if (fir) {
      std::vector<double> taps = asStageError([&] {
        if (q == 1) throw StageError("Q must be at least 2 for ftype fir (firwin's cutoff 1/Q must be below 1)");
        return firwinLowpass(static_cast<std::size_t>(n + 1), 1.0 / static_cast<double>(q), {FirWindow::Shape::Hamming});
      });
      return makePolyphaseStage(Polyphase(std::move(taps), 1, q, zeroPhase ? n / 2 : 0), outputs,
                                {1, static_cast<std::size_t>(q)}, description);
    }
    FilterSpec spec = asStageError([&] {
      return makeSectionsFilter(decimateSections(static_cast<int>(n), static_cast<double>(q)), zeroPhase,
                                "cheby1 order " + std::to_string(n) + " lowpass " + shortNumber(0.8 / static_cast<double>(q)) +
                                    " x Nyquist rp 0.05 dB");
    });
    spec.accumulator = context.accumulator;
    if (context.samples && zeroPhase) asStageError([&] { checkSignalLength(spec, *context.samples, ""); });
    return std::make_unique<IirDecimateStage>(std::move(spec), static_cast<std::uint64_t>(q), description);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& decimateKind() {
  static const stages::DecimateKind kind;
  return kind;
}
}  // namespace siglab
