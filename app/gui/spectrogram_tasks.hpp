#pragma once
#include <QPromise>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

#include "loaded_signal.hpp"
#include "siglab/spectrogram_tiles.hpp"

namespace siglab::gui {

// A view's missing tiles, computed in a worker (TaskRunner) into the pyramid's cache, coarse first,
// each read from `signal` (its mapped pages let go behind). The latest request replaces the one
// running; Esc sets `cancel`, checked before each read and every few frames.
struct TilesRequest {
  std::shared_ptr<SpectrogramTiles> tiles;
  std::vector<TileKey> keys;
  SignalPtr signal;
};

struct TilesOutcome {
  std::size_t computed = 0;
  QString engine;  // what transformed the frames: "cuFFT" (the GPU engine) or "FFTW" (the CPU's)
  QString error;   // a read that failed (a file cut short while viewed), in the reader's words
};

void computeTiles(QPromise<TilesOutcome>& promise, const TilesRequest& request,
                  std::shared_ptr<const std::atomic<bool>> cancel);

// computeTiles workers still running, those abandoned included (a read in flight ends first).
int tileWorkersRunning();

}  // namespace siglab::gui
