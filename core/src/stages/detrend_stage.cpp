// detrend: the signal less its least-squares line (type linear) or its mean (constant), as
// scipy.signal.detrend. Every output depends on the whole signal through the line's two
// coefficients, so the stage has no finite history and does not stream block by block.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/job.hpp"
#include "siglab/neumaier_sum.hpp"
#include "siglab/work_progress.hpp"
#include "../parallel_range.hpp"

namespace siglab::stages {
namespace {

// The sums run over fixed blocks, each compensated (Neumaier), then over the blocks in order: the
// same bits whichever engine or thread count computes them, and within a few units in the last
// place of the exact sums (so within about 1e-15 of max |x| of scipy's lstsq).
constexpr std::int64_t kBlock = std::int64_t{1} << 16;
constexpr std::string_view kSerial = "cpu-serial";
constexpr std::string_view kParallel = "cpu-parallel";

// out[i] = x[i] - (level + slope (i - centre)); the centred abscissa keeps the two sums apart.
struct Line {
  double level = 0.0;
  double slope = 0.0;
  double centre = 0.0;
  double at(std::size_t i) const { return level + slope * (static_cast<double>(i) - centre); }
};

struct Sums {
  NeumaierSum values;   // sum x[i]
  NeumaierSum moments;  // sum (i - centre) x[i]
};

void addPartial(NeumaierSum& total, const NeumaierSum& part) {
  total.add(part.sum);
  if (std::isfinite(part.sum)) total.add(part.compensation);
}

// One block's sums over [begin, end): kLanes compensated sums side by side (sample i in lane
// i % kLanes), added up in lane order. The lanes are independent, so the compiler keeps them in one
// vector and the branch of each addition becomes a blend: several times the speed of one sum, as exact.
constexpr std::int64_t kLanes = 4;

template <typename Sample>
Sums blockSums(std::span<const Sample> x, std::int64_t begin, std::int64_t end, bool linear, double centre) {
  double values[kLanes] = {}, valuesLost[kLanes] = {}, moments[kLanes] = {}, momentsLost[kLanes] = {};
  const auto add = [](double& sum, double& lost, double v) {
    const double t = sum + v;
    lost += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  };
  const std::int64_t whole = begin + (end - begin) / kLanes * kLanes;
  for (std::int64_t i = begin; i < whole; i += kLanes) {
    for (std::int64_t l = 0; l < kLanes; ++l) {
      const auto v = static_cast<double>(x[static_cast<std::size_t>(i + l)]);
      add(values[l], valuesLost[l], v);
      if (linear) add(moments[l], momentsLost[l], (static_cast<double>(i + l) - centre) * v);
    }
  }
  for (std::int64_t i = whole; i < end; ++i) {
    const auto v = static_cast<double>(x[static_cast<std::size_t>(i)]);
    add(values[0], valuesLost[0], v);
    if (linear) add(moments[0], momentsLost[0], (static_cast<double>(i) - centre) * v);
  }
  Sums s;
  for (std::int64_t l = 0; l < kLanes; ++l) {
    addPartial(s.values, {values[l], valuesLost[l]});
    addPartial(s.moments, {moments[l], momentsLost[l]});
  }
  return s;
}

template <typename Sample>
Line fitLine(std::span<const Sample> x, bool linear, bool parallel, const Progress& progress) {
  const auto n = static_cast<std::int64_t>(x.size());
  Line line;
  if (n == 0) return line;
  line.centre = static_cast<double>(n - 1) / 2.0;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<Sums> sums(static_cast<std::size_t>(blocks));
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
  progress.throwIfCancelled();
#pragma omp parallel for schedule(dynamic, 1) if (parallel && blocks > 2)
  for (std::int64_t b = 0; b < blocks; ++b) {
    if (work.cancelled()) continue;  // no break out of an OpenMP loop
    const std::int64_t end = std::min(n, (b + 1) * kBlock);
    sums[static_cast<std::size_t>(b)] = blockSums(x, b * kBlock, end, linear, line.centre);
    work.add(static_cast<std::uint64_t>(end - b * kBlock));
  }
  work.throwIfCancelled();
  Sums total;
  for (const Sums& s : sums) {
    addPartial(total.values, s.values);
    addPartial(total.moments, s.moments);
  }
  line.level = total.values.value() / static_cast<double>(n);
  if (linear && n > 1) {
    const auto count = static_cast<long double>(n);
    const auto spread = static_cast<double>(count * (count * count - 1) / 12);  // sum (i - centre)^2
    line.slope = total.moments.value() / spread;
  }
  return line;
}

template <typename Sample>
void subtractLine(std::span<const Sample> x, const Line& line, std::span<Sample> out, bool parallel,
                  const Progress& progress) {
  const auto n = static_cast<std::int64_t>(x.size());
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
#pragma omp parallel for schedule(dynamic, 1) if (parallel && blocks > 2)
  for (std::int64_t b = 0; b < blocks; ++b) {
    if (work.cancelled()) continue;
    const std::int64_t end = std::min(n, (b + 1) * kBlock);
    for (std::int64_t i = b * kBlock; i < end; ++i) {
      const auto k = static_cast<std::size_t>(i);
      out[k] = static_cast<Sample>(static_cast<double>(x[k]) - line.at(k));
    }
    work.add(static_cast<std::uint64_t>(end - b * kBlock));
  }
  work.throwIfCancelled();
}

// The check: the line is fitted again by the reference (one serial pass of sums, no output
// written) and the outputs at `positions` are recomputed from it. Both engines sum the same blocks
// in the same order, so they must agree bit for bit (two NaNs agree).
template <typename Sample>
Verification verifyDetrend(std::span<const Sample> x, std::span<const Sample> out, bool linear,
                           std::span<const std::size_t> positions, const Progress& progress) {
  const Line line = fitLine(x, linear, false, progress);
  Verification v;
  for (const std::size_t p : positions) {
    const auto expected = static_cast<Sample>(static_cast<double>(x[p]) - line.at(p));
    const bool same = expected == out[p] || (std::isnan(expected) && std::isnan(out[p]));
    ++v.checked;
    if (same) continue;
    if (v.mismatches++ == 0) v.firstMismatch = p;
    const double diff = std::fabs(static_cast<double>(expected) - static_cast<double>(out[p]));
    v.maxAbsDiff = std::max(v.maxAbsDiff, std::isnan(diff) ? INFINITY : diff);
  }
  return v;
}

class DetrendStage final : public BoundStage {
 public:
  explicit DetrendStage(bool linear) : linear_(linear) {}

  std::string describe() const override { return linear_ ? "detrend linear" : "detrend constant"; }
  std::optional<std::size_t> historyBefore() const override { return std::nullopt; }
  std::optional<std::size_t> historyAfter() const override { return std::nullopt; }
  std::vector<std::string> engineNames(const BackendList& /*engines*/) const override {
    return {std::string(kSerial), std::string(kParallel)};
  }

  AppliedJob applyInto(const BackendList& /*engines*/, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override {
    AppliedJob applied;
    if (options.engine == "auto") {
      applied.why = "auto: cpu-parallel, the same bits as cpu-serial (its sums run over the same blocks in order)";
    } else if (options.engine != kSerial && options.engine != kParallel) {
      throw StageError("detrend runs on cpu-serial or cpu-parallel, not " + quoteExcerpt(options.engine));
    }
    const bool parallel = options.engine != kSerial;
    ApplyResult& result = applied.result;
    result.engine = parallel ? kParallel : kSerial;
    if (in.size() != out.size()) throw std::invalid_argument("input and output sizes differ");
    if (options.sampleType == SampleType::f32) {
      const std::vector<float> narrow = narrowToFloat32(in, options.pathForMessages);
      std::vector<float> narrowOut(narrow.size());
      run<float>(narrow, narrowOut, parallel, options, progress, result);
      std::copy(narrowOut.begin(), narrowOut.end(), out.begin());
    } else {
      run<double>(in, out, parallel, options, progress, result);
    }
    return applied;
  }

 private:
  template <typename Sample>
  void run(std::span<const Sample> in, std::span<Sample> out, bool parallel, const StageRunOptions& options,
           const Progress& progress, ApplyResult& result) const {
    const bool verify = options.verify;
    const double runShare = verify ? 0.9 : 1.0;
    const auto start = std::chrono::steady_clock::now();
    const Line line = fitLine(in, linear_, parallel, progressPart(progress, 0.0, runShare / 2));
    subtractLine(in, line, out, parallel, progressPart(progress, runShare / 2, runShare));
    result.pass.phases.kernelMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.pass.phases.totalMs = result.pass.phases.kernelMs;
    if (parallel) result.pass.splits.every = static_cast<std::size_t>(kBlock);
    if (!verify) return;
    const auto checking = std::chrono::steady_clock::now();
    constexpr std::uint64_t kSeed = 0x5167AB;
    std::vector<std::size_t> positions;
    if (options.verifyAll) {
      positions.resize(in.size());
      for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = i;
    } else {
      positions = verificationPositions(in.size(), kOutputsEachSideOfCut, result.pass.splits, options.verifyRandom, kSeed);
    }
    result.verification = verifyDetrend<Sample>(in, out, linear_, positions, progressPart(progress, runShare, 1.0));
    result.verifyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - checking).count();
  }

  bool linear_;
};

class DetrendKind final : public StageKind {
 public:
  std::string_view name() const override { return "detrend"; }
  std::string_view summary() const override {
    return "the signal less its least-squares line, or its mean (scipy.signal.detrend)";
  }
  std::string_view valueSyntax() const override { return "[linear|constant]"; }
  std::string_view exampleValue() const override { return "constant"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo type = describedParameter("type", ParameterType::Choice,
                                            "linear: less the least-squares line; constant: less the mean", "linear", true);
    type.choices = {"linear", "constant"};
    return {type};
  }

  StageParameters parseValue(std::string_view value) const override { return {{"type", std::string(value)}}; }
  std::string formatValue(const StageParameters& values) const override { return textOf(values, "type"); }
  void check(const StageParameters& /*values*/) const override {}

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& /*context*/) const override {
    return std::make_unique<DetrendStage>(textOf(values, "type") == "linear");
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& detrendKind() {
  static const stages::DetrendKind kind;
  return kind;
}
}  // namespace siglab
