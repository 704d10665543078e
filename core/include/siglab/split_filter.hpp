#pragma once
// Filtering one signal in contiguous parts, each part on an engine of its own (one per GPU of the
// host, or two on one GPU so a one-GPU machine exercises the same logic), all parts at once. Each
// part reads its neighbours' samples as its halo, so every output sums the same samples in the
// same order as one engine over the whole signal: the same bits.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab {

// Outputs [begin, end) of a signal.
struct SignalPart {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
  bool operator==(const SignalPart&) const = default;
};

// n outputs as at most `parts` contiguous parts of nearly equal size, every cut at a multiple of
// `align` (so GPU tiles are not cut); fewer parts where n has fewer than `parts` aligned pieces,
// none for n == 0. Throws std::invalid_argument for parts == 0 or align == 0.
std::vector<SignalPart> splitIntoParts(std::size_t n, std::size_t parts, std::size_t align = 1);

// The part's samples with `radius` samples each side, in[part.begin - radius, part.end + radius),
// positions outside the signal taking the boundary rule's values; `padded` holds part.size() +
// 2 radius samples. Throws std::invalid_argument when the sizes do not fit.
template <class T>
void gatherWithHalo(std::span<const T> in, SignalPart part, std::size_t radius, BoundaryMode mode,
                    std::span<T> padded);

// One part's engine. filterPart writes out[part.begin, part.end) reading `in`, the whole signal.
// The default gathers the part and its halo into a buffer of its own, filters it with engine()
// and keeps the middle; an engine that can read a range of the signal in place (gpu-tuned)
// overrides it.
class PartEngine {
 public:
  explicit PartEngine(std::unique_ptr<FilterBackend> engine);
  virtual ~PartEngine() = default;
  PartEngine(const PartEngine&) = delete;
  PartEngine& operator=(const PartEngine&) = delete;

  FilterBackend& engine() const { return *engine_; }
  virtual FilterPass filterPart(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                SignalPart part, const RunOptions& options, const Progress& progress);
  virtual FilterPass filterPart(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                SignalPart part, const RunOptions& options, const Progress& progress);

 private:
  template <class T>
  FilterPass filterPadded(std::span<const T> in, const FilterSpec& spec, std::span<T> out, SignalPart part,
                          const RunOptions& options, const Progress& progress);

  std::unique_ptr<FilterBackend> engine_;
};

// An engine over several PartEngines: each signal is split into one part per engine (cuts at
// multiples of `align`) and the parts run at once, each on its own thread. Name, description,
// whyNot and tolerance are the parts' engine's; `placement` ("devices 0,1") is added to the
// description and the pass's note. Phases: the wall clock as total, the slowest part's kernel and
// transfer times. A failing part stops the others and its error is thrown; cancelling stops all.
class SplitFilterBackend final : public FilterBackend {
 public:
  SplitFilterBackend(std::vector<std::unique_ptr<PartEngine>> parts, std::string placement, std::size_t align = 4096);

  std::string_view name() const override;
  std::string_view description() const override { return description_; }
  bool usesGpu() const override;
  std::string whyNot(const FilterSpec& spec, SampleType type) const override;
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override;
  double toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const override;
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& options, const Progress& progress = {}) override;
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                    const RunOptions& options, const Progress& progress = {}) override;

  std::size_t partCount() const { return parts_.size(); }

 private:
  template <class T>
  FilterPass filterParts(std::span<const T> in, const FilterSpec& spec, std::span<T> out, const RunOptions& options,
                         const Progress& progress);

  std::vector<std::unique_ptr<PartEngine>> parts_;
  std::string placement_;
  std::string description_;
  std::size_t align_;
};

}  // namespace siglab
