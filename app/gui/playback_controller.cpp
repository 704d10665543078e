#include "playback_controller.hpp"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <vector>

#include "siglab/sample_rate.hpp"

namespace siglab::gui {
namespace {

QString clipNote(const PlaybackClip& clip, double rate, const PlaybackDevice& device) {
  QString text = QObject::tr("Playing %1 of audio").arg(QString::fromStdString(
      withSiPrefix(static_cast<double>(clip.last - clip.first) / rate, "s", 3)));
  if (clip.factors.up != clip.factors.down) {
    text += QObject::tr(", resampled to %1 (resample-poly %2,%3)")
                .arg(QString::fromStdString(withSiPrefix(device.sampleRate, "Hz")))
                .arg(clip.factors.up)
                .arg(clip.factors.down);
  }
  if (clip.shortened) text += QObject::tr(", its first %1 s only").arg(kLongestPlaybackSeconds);
  if (clip.clipped > 0) text += QObject::tr("; %1 samples beyond full scale clipped").arg(clip.clipped);
  return text;
}

}  // namespace

PlaybackController::PlaybackController(std::unique_ptr<AudioOutput> output, std::shared_ptr<const BackendList> engines,
                                       QObject* parent)
    : QObject(parent), output_(std::move(output)), engines_(std::move(engines)) {
  ticks_.setInterval(30);
  connect(&ticks_, &QTimer::timeout, this, &PlaybackController::onTick);
  connect(output_.get(), &AudioOutput::finished, this, [this] { finish(tr("Playback finished")); });
  connect(output_.get(), &AudioOutput::failed, this, [this](const QString& why) { finish(tr("Cannot play: %1").arg(why)); });
}

PlaybackController::~PlaybackController() {
  if (cancel_) *cancel_ = true;
  output_->stop();
}

void PlaybackController::play(SignalPtr signal, std::optional<double> rate, std::uint64_t first, std::uint64_t last) {
  stop();
  if (!signal || signal->size() == 0) return emit message(tr("Cannot play: no signal is open"));
  if (const std::string refusal = playbackRefusal(rate); !refusal.empty()) {
    return emit message(tr("Cannot play: %1").arg(QString::fromStdString(refusal)));
  }
  const std::optional<PlaybackDevice> device = output_->device();
  if (!device) return emit message(tr("Cannot play: %1").arg(output_->missing()));
  last = std::min<std::uint64_t>(last, signal->size());
  if (first >= last) return emit message(tr("Cannot play: the range to play is empty"));
  signal_ = std::move(signal);
  first_ = first;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  auto* watcher = new QFutureWatcher<Prepared>(this);
  preparing_ = watcher;
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, cancel = cancel_] {
    watcher->deleteLater();
    if (watcher != preparing_) return;  // replaced by a later play()
    preparing_ = nullptr;
    if (!cancel->load()) onPrepared(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run([signal = signal_, rate, first, last, target = *device, engines = engines_,
                                           cancel = cancel_]() -> Prepared {
    try {
      // Only the span played is read (a signal mapped from its file has no samples in memory).
      const std::uint64_t end = std::min<std::uint64_t>(last, first + static_cast<std::uint64_t>(kLongestPlaybackSeconds * *rate));
      std::vector<std::vector<double>> span(signal->channelCount(), std::vector<double>(end - first));
      std::vector<std::span<const double>> channels;
      for (std::size_t c = 0; c < span.size(); ++c) {
        signal->channel(c).read(first, span[c]);
        channels.emplace_back(span[c]);
      }
      PlaybackClip clip = preparePlayback(channels, rate, 0, end - first, target, *engines, cancel.get());
      clip.first += first;
      clip.last += first;
      clip.shortened = end < last;
      return {std::move(clip), {}};
    } catch (const std::exception& e) {
      return {std::nullopt, QString::fromStdString(e.what())};
    }
  }));
  emit activeChanged(true);
  emit message(tr("Preparing playback…"));
}

void PlaybackController::onPrepared(const Prepared& prepared) {
  if (!signal_) return;
  if (!prepared.clip) return finish(tr("Cannot play: %1").arg(prepared.error));
  const PlaybackClip& clip = *prepared.clip;
  first_ = clip.first;
  last_ = clip.last;
  frames_ = clip.frames;
  emit message(clipNote(clip, (*output_->device()).sampleRate * static_cast<double>(clip.factors.down) /
                                  static_cast<double>(clip.factors.up), *output_->device()));
  output_->start(QByteArray(reinterpret_cast<const char*>(clip.bytes.data()), static_cast<qsizetype>(clip.bytes.size())));
  if (signal_) {  // a device that failed at once has stopped it
    ticks_.start();
    onTick();
  }
}

void PlaybackController::onTick() {
  if (!signal_ || preparing_) return;
  if (stillCurrent_ && !stillCurrent_(signal_)) return finish(tr("Playback stopped: the signal changed"));
  const std::uint64_t played = std::min(output_->framesPlayed(), frames_);
  const double at = static_cast<double>(first_) +
                    static_cast<double>(last_ - first_) * static_cast<double>(played) / static_cast<double>(std::max<std::uint64_t>(frames_, 1));
  emit positionChanged(at);
}

void PlaybackController::stop(const QString& why) {
  if (!signal_) return;
  finish(why);
}

void PlaybackController::finish(const QString& why) {
  if (!signal_) return;
  if (cancel_) *cancel_ = true;  // a clip still being prepared is dropped when it comes
  signal_ = nullptr;
  ticks_.stop();
  output_->stop();
  emit positionChanged(std::nullopt);
  emit activeChanged(false);
  if (!why.isEmpty()) emit message(why);
}

}  // namespace siglab::gui
