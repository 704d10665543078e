#include "loaded_signal.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>

#include "siglab/io/channel_io.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/mapped_reading.hpp"

namespace siglab::gui {

LoadedSignal::LoadedSignal(std::string source, SampleVector samples, const Progress& progress,
                           std::optional<double> sampleRate)
    : source_(std::move(source)), owned_(std::move(samples)), samples_(owned_), size_(samples_.size()),
      pyramid_(samples_, progress),
      statistics_(statisticsParallel(samples_)), sampleRate_(sampleRate), indexed_(true) {}

namespace {

thread_local std::size_t mappedReads = 0;

// The part [from, to) of `progress`, for one channel's pyramid of several.
Progress partOf(const Progress& progress, double from, double to) {
  Progress part = progress;
  if (progress.onProgress) part.onProgress = [report = progress.onProgress, from, to](double f) { report(from + (to - from) * f); };
  return part;
}

}  // namespace

std::size_t mappedReadsOnThisThread() { return mappedReads; }

LoadedSignal::LoadedSignal(std::string source, std::vector<SampleVector> channels, const Progress& progress,
                           std::optional<double> sampleRate, std::vector<std::string> names)
    : LoadedSignal(source, channels.empty() ? SampleVector() : std::move(channels.front()),
                   partOf(progress, 0.0, 1.0 / static_cast<double>(std::max<std::size_t>(channels.size(), 1))),
                   sampleRate) {
  const auto count = static_cast<double>(channels.size());
  for (std::size_t c = 1; c < channels.size(); ++c) {
    others_.push_back(std::make_unique<const LoadedSignal>(
        source, std::move(channels[c]), partOf(progress, static_cast<double>(c) / count, static_cast<double>(c + 1) / count),
        sampleRate));
  }
  if (names.size() == channelCount()) names_ = std::move(names);  // else the file named only some
}

const std::string& LoadedSignal::channelName(std::size_t index) const {
  static const std::string none;
  return index < names_.size() ? names_[index] : none;
}

QString channelLabel(const LoadedSignal& signal, std::size_t index) {
  const std::string& name = signal.channelName(index);
  return name.empty() ? QObject::tr("channel %1").arg(index + 1) : QString::fromStdString(name);
}

std::vector<std::span<const double>> LoadedSignal::channelSamples() const {
  std::vector<std::span<const double>> spans;
  for (std::size_t c = 0; c < channelCount(); ++c) spans.push_back(channel(c).samples());
  return spans;
}

SignalPtr channelOf(const SignalPtr& signal, std::size_t index) {
  if (!signal || index == 0) return signal;
  return SignalPtr(signal, &signal->channel(index));  // lives as long as the whole signal
}

LoadedSignal::LoadedSignal(std::string source, std::shared_ptr<const MappedSignal> mapping)
    : source_(std::move(source)), mapping_(std::move(mapping)), samples_(mapping_->samples()),
      size_(mapping_->size()), sampleRate_(mapping_->sampleRate()) {}

LoadedSignal::LoadedSignal(const LoadedSignal& preview, MinMaxPyramid pyramid, const Statistics& statistics)
    : source_(preview.source_), mapping_(preview.mapping_), samples_(preview.samples_), size_(preview.size_),
      pyramid_(std::move(pyramid)),
      statistics_(statistics), sampleRate_(preview.sampleRate_), indexed_(true) {}

PlotPoints LoadedSignal::pointsFor(double firstKey, double lastKey, std::size_t columns) const {
  SamplesDone doneWith;
  if (mapping_) ++mappedReads;
  // Float64 samples come by pread (MappedSignal::read): no page of the mapping to let go a column.
  if (converted()) doneWith = [this](std::size_t first, std::size_t count) { mapping_->release(first, count); };
  PlotPoints points;
  if (indexed_) {
    points = pointsForPlot(pyramid_, firstKey, lastKey, columns, doneWith);
  } else if (mapping_) {  // probes by MappedSignal::read (short preads), not faults on the mapping
    const SampleReader read = [this](std::size_t first, std::span<double> out) { mapping_->read(first, out); };
    points = previewPointsForPlot(size_, read, firstKey, lastKey, columns, doneWith);
  } else {
    points = previewPointsForPlot(samples_, firstKey, lastKey, columns, doneWith);
  }
  if (mapping_) {  // an exact view's samples (and the neighbour past each end) let go
    const double last = static_cast<double>(size_);
    const auto first = static_cast<std::size_t>(std::clamp(std::floor(firstKey) - 1.0, 0.0, last));
    const auto end = static_cast<std::size_t>(std::clamp(std::ceil(lastKey) + 2.0, 0.0, last));
    if (end > first) mapping_->release(first, end - first);
  }
  return points;
}

double LoadedSignal::sampleAt(std::size_t index) const {
  double value = 0.0;
  read(index, std::span(&value, 1));
  return value;
}

void LoadedSignal::read(std::size_t first, std::span<double> out) const {
  if (!mapping_) {
    const std::span<const double> part = samples_.subspan(first, out.size());
    std::copy(part.begin(), part.end(), out.begin());
    return;
  }
  ++mappedReads;
  mapping_->read(first, out);
  mapping_->release(first, out.size());
}

Statistics LoadedSignal::statisticsOf(SampleRange range, const Progress& progress) const {
  if (mapping_) ++mappedReads;
  return mapping_ ? mappedStatistics(*mapping_, range, progress) : statisticsParallel(samples_, range, progress);
}

LoadedSignal::LoadedSignal(std::string source, const std::vector<double>& samples, const Progress& progress,
                           std::optional<double> sampleRate)
    : LoadedSignal(std::move(source), SampleVector(samples), progress, sampleRate) {}

void writeLoadedSignal(const std::string& path, const LoadedSignal& signal, const WriteOptions& options,
                       const Progress& progress) {
  if (signal.channelCount() > 1) return writeChannels(path, signal.channelSamples(), options, progress);
  if (!signal.converted()) return writeSignal(path, signal.samples(), options, progress);
  const auto sink = openSampleSink(path, options, signal.size());
  std::vector<double> block(std::min<std::size_t>(signal.size(), std::size_t{1} << 20));
  for (std::size_t first = 0; first < signal.size(); first += block.size()) {
    progress.throwIfCancelled();
    const std::span<double> part = std::span(block).first(std::min(block.size(), signal.size() - first));
    signal.read(first, part);
    sink->write(part);
    progress.report(static_cast<double>(first + part.size()) / static_cast<double>(signal.size()));
  }
  sink->commit();
}

}  // namespace siglab::gui
