#include "spectrogram_tasks.hpp"

#include "siglab/cuda_stages.hpp"

namespace siglab::gui {
namespace {

std::atomic<int> workersRunning{0};

// The spectrogram stage's GPU engine where a GPU runs it (its frames packed end to end: a layout
// whose step is nperseg), else the CPU's; `engine` names the one that ran.
TileFrameEngine stageEngine(const SpectrogramLayout& layout, QString& engine) {
  auto packed = std::make_shared<SpectrogramLayout>(layout);
  packed->step = packed->nperseg;
  packed->noverlap = 0;
  auto gpu = std::make_shared<bool>(true);
  engine = QObject::tr("FFTW");
  return [packed, gpu, cpu = cpuTileEngine(layout), &engine](std::span<const double> segments, std::size_t frames,
                                                             std::span<double> out) {
    if (*gpu) {
      if (spectrogramCuda(segments, *packed, frames, out).status == GpuStatus::Ok) {
        engine = QObject::tr("cuFFT");
        return;
      }
      *gpu = false;  // no GPU here (or it failed): the CPU for the rest
    }
    cpu(segments, frames, out);
  };
}

}  // namespace

int tileWorkersRunning() { return workersRunning.load(); }

void computeTiles(QPromise<TilesOutcome>& promise, const TilesRequest& request,
                  std::shared_ptr<const std::atomic<bool>> cancel) {
  ++workersRunning;
  const std::unique_ptr<std::atomic<int>, void (*)(std::atomic<int>*)> running(&workersRunning,
                                                                                [](std::atomic<int>* n) { --*n; });
  TilesOutcome outcome;
  Progress progress;
  progress.cancelFlag = cancel.get();
  const SignalPtr signal = request.signal;
  const SampleReader read = [signal](std::size_t first, std::span<double> out) { signal->read(first, out); };
  const TileFrameEngine engine = stageEngine(request.tiles->layout(), outcome.engine);
  promise.setProgressRange(0, 1000);
  try {
    for (const TileKey& key : request.keys) {
      if (request.tiles->cache().contains(key)) continue;  // computed meanwhile by a request it replaced
      request.tiles->cache().insert(
          std::make_shared<const SpectrogramTile>(computeTile(*request.tiles, key, read, engine, progress)));
      ++outcome.computed;
      promise.setProgressValue(static_cast<int>(1000 * outcome.computed / request.keys.size()));
    }
  } catch (const Cancelled&) {
    return;  // nothing to deliver: the tiles made so far stay in the cache
  } catch (const std::exception& e) {
    outcome.error = QString::fromStdString(e.what());
  }
  promise.addResult(outcome);
}

}  // namespace siglab::gui
