#include "loaded_signal.hpp"

#include <algorithm>
#include <cmath>

#include "siglab/mapped_reading.hpp"

namespace siglab::gui {

LoadedSignal::LoadedSignal(std::string source, SampleVector samples, const Progress& progress,
                           std::optional<double> sampleRate)
    : source_(std::move(source)), owned_(std::move(samples)), samples_(owned_), pyramid_(samples_, progress),
      statistics_(statisticsParallel(samples_)), sampleRate_(sampleRate), indexed_(true) {}

LoadedSignal::LoadedSignal(std::string source, std::shared_ptr<const MappedSignal> mapping)
    : source_(std::move(source)), mapping_(std::move(mapping)), samples_(mapping_->samples()),
      sampleRate_(mapping_->sampleRate()) {}

LoadedSignal::LoadedSignal(const LoadedSignal& preview, MinMaxPyramid pyramid, const Statistics& statistics)
    : source_(preview.source_), mapping_(preview.mapping_), samples_(preview.samples_), pyramid_(std::move(pyramid)),
      statistics_(statistics), sampleRate_(preview.sampleRate_), indexed_(true) {}

PlotPoints LoadedSignal::pointsFor(double firstKey, double lastKey, std::size_t columns) const {
  SamplesDone doneWith;
  if (mapping_) doneWith = [this](std::size_t first, std::size_t count) { mapping_->release(first, count); };
  PlotPoints points = indexed_ ? pointsForPlot(pyramid_, firstKey, lastKey, columns, doneWith)
                               : previewPointsForPlot(samples_, firstKey, lastKey, columns, doneWith);
  if (mapping_) {  // an exact view's samples (and the neighbour past each end) let go
    const double last = static_cast<double>(samples_.size());
    const auto first = static_cast<std::size_t>(std::clamp(std::floor(firstKey) - 1.0, 0.0, last));
    const auto end = static_cast<std::size_t>(std::clamp(std::ceil(lastKey) + 2.0, 0.0, last));
    if (end > first) mapping_->release(first, end - first);
  }
  return points;
}

double LoadedSignal::sampleAt(std::size_t index) const {
  const double value = samples_[index];
  if (mapping_) mapping_->release(index, 1);
  return value;
}

Statistics LoadedSignal::statisticsOf(SampleRange range) const {
  return mapping_ ? mappedStatistics(*mapping_, range) : statisticsParallel(samples_, range);
}

LoadedSignal::LoadedSignal(std::string source, const std::vector<double>& samples, const Progress& progress,
                           std::optional<double> sampleRate)
    : LoadedSignal(std::move(source), SampleVector(samples), progress, sampleRate) {}

}  // namespace siglab::gui
