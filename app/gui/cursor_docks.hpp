#pragma once
#include <QObject>

class QDockWidget;
class QMainWindow;

namespace siglab::gui {

class CursorReadoutView;
class MarkersView;
class SignalCursors;
class SignalPlot;
class SpectrumCursor;
class SpectrumView;

// The cursors on the signal and the spectrum, their readout and the markers table, as two docks of
// `window` (closed at first, restored by the window's saved state): everything a window needs to add
// them in one line.
class CursorDocks : public QObject {
  Q_OBJECT
 public:
  CursorDocks(QMainWindow* window, SignalPlot* plot, SpectrumView* spectrum);
  static CursorDocks* of(const QMainWindow* window);  // the window's, or null
  SignalCursors* cursors() const { return cursors_; }
  SpectrumCursor* spectrumCursor() const { return spectrumCursor_; }
  CursorReadoutView* readout() const { return readout_; }
  MarkersView* markers() const { return markers_; }
  QDockWidget* readoutDock() const { return readoutDock_; }
  QDockWidget* markersDock() const { return markersDock_; }

 private:
  SignalCursors* cursors_;
  SpectrumCursor* spectrumCursor_;
  CursorReadoutView* readout_;
  MarkersView* markers_;
  QDockWidget* readoutDock_;
  QDockWidget* markersDock_;
};

}  // namespace siglab::gui
