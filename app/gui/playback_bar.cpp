#include "playback_bar.hpp"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QStyle>

#include "signal_plot.hpp"

namespace siglab::gui {

PlaybackBar::PlaybackBar(SignalPlot* plot, Shown shown, std::shared_ptr<const BackendList> engines,
                         std::unique_ptr<AudioOutput> output, QWidget* parent)
    : QToolBar(tr("Playback"), parent),
      plot_(plot),
      shown_(std::move(shown)),
      controller_(std::move(output), std::move(engines)),
      line_(plot->plot()) {
  setObjectName("playbackToolBar");
  play_ = addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Play"), this, &PlaybackBar::togglePlay);
  play_->setShortcut(QKeySequence(Qt::Key_Space));
  play_->setToolTip(controller_.output().device()
                        ? tr("Play the visible range (Space); Space again stops")
                        : tr("No playback: %1").arg(controller_.output().missing()));
  source_ = new QComboBox;
  source_->addItems({tr("Signal"), tr("Filtered")});
  source_->setToolTip(tr("What Play plays"));
  addWidget(source_);

  controller_.setStillCurrent([this](const SignalPtr& playing) { return playing == chosen(); });
  connect(&controller_, &PlaybackController::positionChanged, this, [this](std::optional<double> at) { line_.moveTo(at); });
  connect(&controller_, &PlaybackController::message, this, &PlaybackBar::message);
  connect(&controller_, &PlaybackController::activeChanged, this, [this](bool active) {
    play_->setText(active ? tr("Stop") : tr("Play"));
    play_->setIcon(style()->standardIcon(active ? QStyle::SP_MediaStop : QStyle::SP_MediaPlay));
  });
  if (parent) parent->installEventFilter(this);
}

bool PlaybackBar::eventFilter(QObject* watched, QEvent* event) {
  // Closed, not minimised (a minimised window hides spontaneously and plays on).
  if (watched == parent() && event->type() == QEvent::Hide && !event->spontaneous()) controller_.stop();
  return QToolBar::eventFilter(watched, event);
}

SignalPtr PlaybackBar::chosen() const {
  const auto& get = source_->currentIndex() == 1 ? shown_.filtered : shown_.original;
  return get ? get() : nullptr;
}

void PlaybackBar::setRange(std::size_t first, std::size_t last) {
  first_ = first;
  last_ = last;
}

void PlaybackBar::togglePlay() {
  if (controller_.active()) return controller_.stop(tr("Playback stopped"));
  const SignalPtr signal = chosen();
  if (!signal) {
    return emit message(source_->currentIndex() == 1 ? tr("Cannot play: there is no filtered signal (Apply first)")
                                                     : tr("Cannot play: no signal is open"));
  }
  const bool haveRange = first_ < last_ && first_ < signal->size();
  controller_.play(signal, plot_->sampleRate(), haveRange ? first_ : 0, haveRange ? last_ : signal->size());
}

}  // namespace siglab::gui
