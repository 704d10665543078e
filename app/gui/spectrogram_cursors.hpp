#pragma once
#include <QObject>
#include <QPointer>

#include "signal_session.hpp"

class QCPItemStraightLine;
class QCPLayer;
class QMouseEvent;

namespace siglab::gui {

class SpectrogramView;

// Cursors A and B on a SpectrogramView: vertical lines at their sample indices, drawn on a buffered
// layer of the view's plot (they follow its zoom and pan as the signal's do), dragged with the
// mouse as on the signal. They show what set() gave them (the session's cursors, spectrogram_dock.cpp
// links the two) and a drag says so through moved().
class SpectrogramCursors : public QObject {
  Q_OBJECT
 public:
  explicit SpectrogramCursors(SpectrogramView* view);

  void set(const TimeCursors& cursors);
  const TimeCursors& cursors() const { return cursors_; }
  QCPItemStraightLine* line(int which) const { return lines_[which]; }  // 0: A, 1: B

 signals:
  void moved(const TimeCursors& cursors);  // by a drag on this view

 private:
  void place();
  bool onMousePress(QMouseEvent* event);
  void dragTo(double pixelX);

  SpectrogramView* view_;
  QCPLayer* layer_ = nullptr;
  QPointer<QCPItemStraightLine> lines_[2];
  TimeCursors cursors_;
  int dragging_ = -1;  // 0: A, 1: B
};

}  // namespace siglab::gui
