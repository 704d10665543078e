#include "spectrogram_dock.hpp"

#include <QDockWidget>
#include <QMainWindow>

#include "dock_layout.hpp"
#include "sample_rate_field.hpp"
#include "signal_plot.hpp"
#include "signal_session.hpp"
#include "spectrogram_cursors.hpp"
#include "spectrogram_view.hpp"

namespace siglab::gui {

QDockWidget* addSpectrogramDock(QMainWindow& window, SignalPlot* plot, SignalSession* session, QMenu* viewsMenu) {
  auto* view = new SpectrogramView;
  view->setObjectName("spectrogramView");
  QDockWidget* dock = addViewDock(window, view, QObject::tr("Spectrogram"), "spectrogramDock", viewsMenu);
  // The plot's signal, its preview included: a mapped file's spectrogram starts before its index.
  QObject::connect(plot, &SignalPlot::originalChanged, view, [view, plot, session](const SignalPtr& signal) {
    view->setSampleRate(plot->sampleRate());
    const std::size_t channel = signal && session->channel() < signal->channelCount() ? session->channel() : 0;
    view->setSignal(channelOf(signal, channel));
  });
  QObject::connect(session, &SignalSession::channelChanged, view,
                   [view, session] { view->setSignal(session->channelShown(session->signal())); });
  // The two time axes follow each other; each ignores its own range coming back.
  QObject::connect(plot, &SignalPlot::visibleRangeChanged, view, [view](std::size_t first, std::size_t last) {
    view->setVisibleRange(static_cast<double>(first), static_cast<double>(last));
  });
  QObject::connect(view, &SpectrogramView::visibleRangeChanged, plot,
                   [plot](double first, double last) { plot->setVisibleRange(first, last); });
  // A and B are the session's, as on the signal and the spectrum: shown here, dragged here too.
  auto* cursors = new SpectrogramCursors(view);
  cursors->set(session->timeCursors());
  QObject::connect(session, &SignalSession::timeCursorsChanged, cursors, &SpectrogramCursors::set);
  QObject::connect(cursors, &SpectrogramCursors::moved, session, &SignalSession::setTimeCursors);
  if (auto* rate = window.findChild<SampleRateField*>()) {
    QObject::connect(rate, &SampleRateField::rateChanged, view, &SpectrogramView::setSampleRate);
  }
  return dock;
}

}  // namespace siglab::gui
