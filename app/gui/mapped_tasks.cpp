#include "mapped_tasks.hpp"

#include <QFileInfo>

#include <exception>
#include <new>
#include <stdexcept>

#include "background_priority.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/cancel_waits.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/mapped_reading.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/stream_statistics.hpp"

namespace siglab::gui {
namespace {

template <typename T>
Progress progressBetween(QPromise<T>& promise, const std::atomic<bool>* cancel, double from, double to) {
  Progress progress;
  progress.cancelFlag = cancel;
  progress.onProgress = [&promise, from, to](double f) {
    promise.setProgressValue(static_cast<int>(1000.0 * (from + (to - from) * f)));
  };
  return progress;
}

// Runs `work`; a cancel delivers nothing more, a failure an outcome holding its message.
template <typename Outcome, typename Work>
void deliver(QPromise<Outcome>& promise, Work work) {
  promise.setProgressRange(0, 1000);
  Outcome failed{};
  try {
    work();
    return;
  } catch (const Cancelled&) {
    return;
  } catch (const std::bad_alloc&) {
    failed.error = QObject::tr("not enough memory for this signal");
  } catch (const std::exception& e) {
    failed.error = QString::fromStdString(e.what());
  }
  promise.addResult(std::move(failed));
}

// The pyramid from the mapping (its pages let go behind it) and the statistics streamed from the
// mapped file: the preview, indexed. Minutes for a large file, on every core: at background priority
// (background_priority.hpp), so a zoom step meanwhile is not slowed by it.
SignalPtr indexNow(const LoadedSignal& preview, const ReadOptions& opened, const Progress& pyramidProgress,
                const Progress& statisticsProgress) {
  const MappedSignal& mapping = *preview.mapping();
  const auto doneWith = [&mapping](std::size_t first, std::size_t count) { mapping.release(first, count); };
  // The signal outlives its pyramid; a zoom's ragged ends are read by pread (MappedSignal::read).
  const SampleReader read = [&mapping](std::size_t first, std::span<double> out) { mapping.read(first, out); };
  MinMaxPyramid pyramid =
      mapping.converted()
          ? MinMaxPyramid(mapping.size(), read, pyramidProgress, MinMaxPyramid::kMaxFirstLevelBuckets, doneWith)
          : MinMaxPyramid(mapping.samples(), pyramidProgress, MinMaxPyramid::kMaxFirstLevelBuckets, doneWith);
  pyramid.readThrough(read);
  const auto stream = openSampleStream(mapping.mappedPath(), mappedFileOptions(mapping, opened));
  const Statistics statistics = streamStatistics(*stream, {}, statisticsProgress);
  return std::make_shared<const LoadedSignal>(preview, std::move(pyramid), statistics);
}

SignalPtr index(const LoadedSignal& preview, const ReadOptions& opened, const Progress& pyramidProgress,
                const Progress& statisticsProgress) {
  return atBackgroundPriority([&] { return indexNow(preview, opened, pyramidProgress, statisticsProgress); });
}


}  // namespace

ReadOptions readOptionsForOutput(const QString& output) {
  ReadOptions options;
  if (formatForOutput(output.toStdString()) == FileFormat::raw) options.rawType = SampleType::f64;  // what writeSignal writes there
  return options;
}

void openMappedSignal(QPromise<LoadOutcome>& promise, const QString& path, const ReadOptions& options,
                      const QString& cacheFolder, std::shared_ptr<const std::atomic<bool>> cancel) {
  const CancelWaitsOnThread waits(cancel.get());  // a FIFO's writer that sends nothing
  deliver(promise, [&] {
    const std::string file = path.toStdString();
    std::shared_ptr<const MappedSignal> mapping = MappedSignal::open(
        file, options, cacheFolder.toStdString(), progressBetween(promise, cancel.get(), 0.0, 0.5));
    auto preview = std::make_shared<const LoadedSignal>(file, mapping);
    promise.addResult(LoadOutcome{preview, {}});
    promise.addResult(LoadOutcome{index(*preview, options, progressBetween(promise, cancel.get(), 0.5, 0.8),
                                        progressBetween(promise, cancel.get(), 0.8, 1.0)),
                                  {}});
  });
}

void streamApply(QPromise<ApplyOutcome>& promise, const StreamApplyRequest& request,
                 std::shared_ptr<const std::atomic<bool>> cancel) {
  const CancelWaitsOnThread waits(cancel.get());  // an output FIFO nobody reads
  deliver(promise, [&] {
    const std::unique_ptr<BoundStage> bound = request.job.bind();  // the spectrum's filter
    if (cancel->load()) throw Cancelled();
    const MappedSignal& mapping = *request.signal->mapping();
    FileSource source{mapping.mappedPath(), mappedFileOptions(mapping, request.opened)};
    source.read.sampleRate = request.job.context.sampleRate;  // the rate the form's units are in
    const std::string output = request.output.toStdString();
    PipelineObserver observer;
    observer.cancel = cancel.get();
    observer.progressFor = [&](const std::string&) { return progressBetween(promise, cancel.get(), 0.0, 0.6); };
    const PipelineReport report = runPipeline(Pipeline{{request.job.stage}}, source, FileSink{output, WriteOptions{}},
                                              *request.engines, pipelineOptionsOf(request.job), observer);
    if (!report.passed()) throw std::runtime_error(verificationFailure(report));
    auto stage = std::make_shared<const StageReport>(report.channels.front().stages.front());
    std::shared_ptr<const MappedSignal> result = MappedSignal::open(
        output, readOptionsForOutput(request.output), request.cacheFolder.toStdString(),
        progressBetween(promise, cancel.get(), 0.6, 0.7));
    const LoadedSignal preview("filtered (" + stage->engine + ")", result);
    const QString engine = QString::fromStdString(stage->engine);
    promise.addResult(ApplyOutcome{stage,
                                   index(preview, readOptionsForOutput(request.output),
                                         progressBetween(promise, cancel.get(), 0.7, 0.9),
                                         progressBetween(promise, cancel.get(), 0.9, 1.0)),
                                   {}, bound->filterSpec() ? *bound->filterSpec() : FilterSpec{}, engine});
  });
}

void runEnginesOnRange(QPromise<RunOutcome>& promise, const RunRequest& request, SampleRange range,
                       std::shared_ptr<const std::atomic<bool>> cancel) {
  std::shared_ptr<const LoadedSignal> part;
  try {
    const SampleRange checked = checkedRange(request.signal->size(), range);
    std::vector<double> samples(checked.end - checked.begin);
    request.signal->read(checked.begin, samples);
    part = std::make_shared<const LoadedSignal>(
        request.signal->source() + " [" + std::to_string(range.begin) + ", " + std::to_string(range.end) + ")",
        samples);
  } catch (const std::exception& e) {
    promise.addResult(RunOutcome{nullptr, nullptr, QString::fromStdString(e.what())});
    return;
  }
  runEngines(promise, RunRequest{part, request.job, request.engines}, std::move(cancel));
}

}  // namespace siglab::gui
