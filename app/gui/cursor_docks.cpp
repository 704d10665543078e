#include "cursor_docks.hpp"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

#include "cursor_readout_view.hpp"
#include "markers_view.hpp"
#include "signal_cursors.hpp"
#include "spectrum_cursor.hpp"

namespace siglab::gui {
namespace {

QDockWidget* addDock(QMainWindow* window, const QString& title, const QString& name, QWidget* content) {
  auto* dock = new QDockWidget(title, window);
  dock->setObjectName(name);
  dock->setWidget(content);
  window->addDockWidget(Qt::RightDockWidgetArea, dock);
  dock->hide();  // the signal keeps its room until asked for (View menu or the cursors' action)
  return dock;
}

}  // namespace

CursorDocks::CursorDocks(QMainWindow* window, SignalPlot* plot, SpectrumView* spectrum)
    : QObject(window),
      cursors_(new SignalCursors(plot)),
      spectrumCursor_(new SpectrumCursor(spectrum)),
      readout_(new CursorReadoutView(cursors_, spectrumCursor_)),
      markers_(new MarkersView(cursors_)),
      readoutDock_(addDock(window, tr("Cursors"), "cursorsDock", readout_)),
      markersDock_(addDock(window, tr("Markers"), "markersDock", markers_)) {
  window->tabifyDockWidget(readoutDock_, markersDock_);
  readoutDock_->toggleViewAction()->setToolTip(tr("Cursors A and B on the signal, a frequency cursor on the spectrum"));
  markersDock_->toggleViewAction()->setToolTip(tr("Markers, labelled regions and peaks: listed, saved, CSV"));
}

CursorDocks* CursorDocks::of(const QMainWindow* window) { return window->findChild<CursorDocks*>(); }

}  // namespace siglab::gui
