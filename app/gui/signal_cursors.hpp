#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>
#include <vector>

#include "loaded_signal.hpp"
#include "siglab/cursor_readout.hpp"
#include "siglab/markers.hpp"

class QCPAbstractItem;
class QCPItemStraightLine;
class QCPLayer;
class QMouseEvent;

namespace siglab::gui {

class SignalPlot;

// Two vertical cursors (A and B) over every lane of a SignalPlot, dragged with the mouse, and the
// markers and regions drawn beside them. Positions are sample indices, so zoom, pan and a changed
// signal keep them; the items are redrawn after every refresh of the plot on a layer of their own,
// so a drag repaints that layer only. The statistics of the span between A and B come from the
// signal's statisticsOf (mapped files too): at once for a short span in memory, in a worker for a
// long one or a mapped file's, the latest request replacing (and stopping) a running one.
class SignalCursors : public QObject {
  Q_OBJECT
 public:
  explicit SignalCursors(SignalPlot* plot);
  ~SignalCursors() override;

  // Shown for the first time: A and B at a third and two thirds of the visible range.
  void setShown(bool shown);
  bool shown() const { return shown_; }
  void setPositions(double a, double b);  // sample indices, clamped to the signal
  double a() const { return a_; }
  double b() const { return b_; }
  void setMarkers(std::vector<Marker> markers);
  const std::vector<Marker>& markers() const { return markers_; }

  SignalPlot* plot() const { return plot_; }
  SignalPtr signal() const { return signal_; }
  CursorDelta delta() const;
  SampleRange span() const;                        // samples [A, B] of the signal
  bool spanPending() const { return spanPending_; }  // the span's statistics are being computed
  const Statistics& spanStatistics() const { return spanStatistics_; }
  // The readout as text, one line each: A, B (time and every channel's values), delta, 1/delta,
  // the span's statistics. Empty while the cursors are hidden or there is no signal.
  QString readoutText() const;

  // Moves the cursor nearest `pixelX` (or the one being dragged) there, as a mouse drag does.
  void dragTo(double pixelX);

  // Spans up to this many samples are summarised on the GUI thread.
  static constexpr std::size_t kSpanOnGuiThread = std::size_t{1} << 20;

 signals:
  void changed();  // positions, the signal or the span's statistics

 private:
  void onPlotRefreshed();
  void redraw();
  void moveCursorLines();
  void requestSpanStatistics();
  bool onMousePress(QMouseEvent* event);
  double clamped(double index) const;

  SignalPlot* plot_;
  QCPLayer* layer_ = nullptr;
  std::vector<QPointer<QCPAbstractItem>> items_;
  std::vector<QPointer<QCPItemStraightLine>> cursorLines_;  // A and B in each axis rect, in turn
  SignalPtr signal_;
  SignalPtr filtered_;
  std::vector<Marker> markers_;
  bool shown_ = false;
  double a_ = 0, b_ = 0;
  int dragging_ = -1;  // 0: A, 1: B
  Statistics spanStatistics_;
  bool spanPending_ = false;
  bool spanAgain_ = false;  // asked again while the worker ran
  QFutureWatcher<Statistics>* worker_ = nullptr;
  std::shared_ptr<std::atomic<bool>> spanStop_;  // tells the running worker its span is stale
};

}  // namespace siglab::gui
