#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "audio_output.hpp"
#include "loaded_signal.hpp"
#include "siglab/filter_backend.hpp"
#include "siglab/playback.hpp"

namespace siglab::gui {

// Plays a span of a signal: preparePlayback in the background (resample-poly through core's
// pipeline, the device's format), then the bytes to an AudioOutput, with the play position
// reported as a sample index of the signal. A new play() replaces the one before; it stops when
// asked, at the end, when the output fails, when `stillCurrent` says the signal is no longer the
// one shown, and when destroyed.
class PlaybackController : public QObject {
  Q_OBJECT
 public:
  PlaybackController(std::unique_ptr<AudioOutput> output, std::shared_ptr<const BackendList> engines,
                     QObject* parent = nullptr);
  ~PlaybackController() override;

  // Samples [first, last) of `signal` (every channel) at `rate`; says why in message() when it cannot.
  void play(SignalPtr signal, std::optional<double> rate, std::uint64_t first, std::uint64_t last);
  void stop(const QString& why = {});
  bool active() const { return signal_ != nullptr; }  // preparing or playing
  const SignalPtr& signal() const { return signal_; }
  AudioOutput& output() const { return *output_; }
  // Asked every position tick: false stops playback ("the signal changed").
  void setStillCurrent(std::function<bool(const SignalPtr&)> stillCurrent) { stillCurrent_ = std::move(stillCurrent); }
  QTimer& positionTimer() { return ticks_; }

 signals:
  void activeChanged(bool active);
  void positionChanged(std::optional<double> sampleIndex);  // nullopt: nothing plays
  void message(const QString& text);                        // for the status bar

 private:
  struct Prepared {
    std::optional<PlaybackClip> clip;
    QString error;
  };
  void onPrepared(const Prepared& prepared);
  void onTick();
  void finish(const QString& why);

  std::unique_ptr<AudioOutput> output_;
  std::shared_ptr<const BackendList> engines_;
  std::function<bool(const SignalPtr&)> stillCurrent_;
  SignalPtr signal_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  QFutureWatcher<Prepared>* preparing_ = nullptr;
  std::uint64_t first_ = 0, last_ = 0, frames_ = 0;
  QTimer ticks_;
};

}  // namespace siglab::gui
