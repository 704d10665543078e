// filtfilt(h, 1, x) for an FIR h: forward and backward is the correlation with h's autocorrelation
// (2M - 1 taps, symmetric), and with filtfilt's odd padding of padlen >= 3M samples, an output
// reads the odd extension at most M - 1 samples past each end (never the constant state before it).
// So the signal is extended oddly by M - 1 samples and the correlation engines run on that.
#include <algorithm>

#include "given_filters.hpp"
#include "kind_values.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"

namespace siglab::stages {
namespace {

std::vector<double> autocorrelation(const std::vector<double>& h) {
  const std::size_t m = h.size();
  std::vector<double> c(2 * m - 1, 0.0);
  for (std::size_t j = 0; j < c.size(); ++j) {
    // c[j] = sum_k h[k] h[k + d], d = j - (M - 1)
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t other = k + j;
      if (other >= m - 1 && other - (m - 1) < m) c[j] += h[k] * h[other - (m - 1)];
    }
  }
  return c;
}

class ZeroPhaseFirStage final : public BoundStage {
 public:
  ZeroPhaseFirStage(std::vector<double> h, std::size_t padLength, std::optional<double> sampleRate)
      : taps_(h.size()), padLength_(padLength),
        inner_(makeFilterStage(FilterSpec{autocorrelation(h), BoundaryMode::Zero}, {}, sampleRate)) {}

  std::string describe() const override {
    return "filtfilt of an FIR of " + std::to_string(taps_) + " taps, odd padding " + std::to_string(padLength_) +
           " (as " + inner_->describe() + ")";
  }
  std::optional<std::size_t> historyBefore() const override { return std::nullopt; }
  std::optional<std::size_t> historyAfter() const override { return std::nullopt; }
  std::vector<std::string> engineNames(const BackendList& engines) const override { return inner_->engineNames(engines); }

  AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override {
    const std::size_t n = in.size(), edge = taps_ - 1;
    if (n <= padLength_) {
      throw StageError("filtfilt needs more than padlen = " + std::to_string(padLength_) +
                       " samples (3 x the coefficients); the signal has " + std::to_string(n));
    }
    std::vector<double> extended(n + 2 * edge), result(n + 2 * edge);
    for (std::size_t j = 0; j < edge; ++j) {
      extended[j] = 2 * in[0] - in[edge - j];
      extended[edge + n + j] = 2 * in[n - 1] - in[n - 2 - j];
    }
    std::copy(in.begin(), in.end(), extended.begin() + static_cast<std::ptrdiff_t>(edge));
    AppliedJob job = inner_->applyInto(engines, extended, result, options, progress);
    std::copy_n(result.begin() + static_cast<std::ptrdiff_t>(edge), n, out.begin());
    return job;
  }

  std::optional<FrequencyResponse> response(std::size_t points) const override { return inner_->response(points); }

 private:
  std::size_t taps_, padLength_;
  std::unique_ptr<BoundStage> inner_;
};

}  // namespace

std::unique_ptr<BoundStage> bindZeroPhaseFir(std::vector<double> h, std::size_t padLength, const StageContext& context) {
  if (context.samples && *context.samples <= padLength) {
    throw StageError("filtfilt needs more than padlen = " + std::to_string(padLength) +
                     " samples (3 x the coefficients); the signal has " + std::to_string(*context.samples));
  }
  return std::make_unique<ZeroPhaseFirStage>(std::move(h), padLength, context.sampleRate);
}

}  // namespace siglab::stages
