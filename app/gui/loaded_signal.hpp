#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "siglab/io/signal.hpp"
#include "siglab/minmax_pyramid.hpp"
#include "siglab/statistics.hpp"

namespace siglab::gui {

// A signal the GUI shows: its samples, the min/max pyramid the plots draw from and the statistics
// of all of it. Built once in a worker, then shared read-only; it never moves, because the
// pyramid points into `samples`.
class LoadedSignal {
 public:
  // Builds the pyramid and the statistics; throws Cancelled when `progress` asks for it.
  LoadedSignal(std::string source, SampleVector samples, const Progress& progress = {},
               std::optional<double> sampleRate = std::nullopt);
  // The same with the samples copied into ordinary memory.
  LoadedSignal(std::string source, const std::vector<double>& samples, const Progress& progress = {},
               std::optional<double> sampleRate = std::nullopt);
  LoadedSignal(const LoadedSignal&) = delete;
  LoadedSignal& operator=(const LoadedSignal&) = delete;

  const std::string& source() const { return source_; }  // the file it came from, or what made it
  const SampleVector& samples() const { return samples_; }  // page-locked where a GPU will copy them
  const MinMaxPyramid& pyramid() const { return pyramid_; }
  const Statistics& statistics() const { return statistics_; }
  std::size_t size() const { return samples_.size(); }
  std::optional<double> sampleRate() const { return sampleRate_; }  // the file's own (WAV), in Hz

 private:
  std::string source_;
  SampleVector samples_;
  MinMaxPyramid pyramid_;
  Statistics statistics_;
  std::optional<double> sampleRate_;
};

using SignalPtr = std::shared_ptr<const LoadedSignal>;

}  // namespace siglab::gui
