#include "spectrogram_cursors.hpp"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "cursor_style.hpp"
#include "spectrogram_view.hpp"

namespace siglab::gui {

SpectrogramCursors::SpectrogramCursors(SpectrogramView* view) : QObject(view), view_(view) {
  QCustomPlot* plot = view_->plot();
  plot->addLayer("cursors", plot->layer("main"), QCustomPlot::limAbove);
  layer_ = plot->layer("cursors");
  layer_->setMode(QCPLayer::lmBuffered);  // a drag repaints this layer alone
  for (int i = 0; i < 2; ++i) {
    auto* line = new QCPItemStraightLine(plot);
    line->setLayer(layer_);
    line->setClipAxisRect(plot->axisRect());
    line->setPen(QPen(kCursorColors[i], 2.0));
    line->setSelectable(false);
    line->setVisible(false);
    lines_[i] = line;
  }
  connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { onMousePress(event); });
  connect(plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    if (dragging_ >= 0) dragTo(event->position().x());
  });
  connect(plot, &QCustomPlot::mouseRelease, this, [this] {
    if (dragging_ < 0) return;
    dragging_ = -1;
    view_->plot()->setInteraction(QCP::iRangeDrag, true);
  });
}

void SpectrogramCursors::set(const TimeCursors& cursors) {
  if (cursors == cursors_) return;
  cursors_ = cursors;
  place();
}

void SpectrogramCursors::place() {
  for (int i = 0; i < 2; ++i) {
    if (!lines_[i]) continue;
    const double at = i == 0 ? cursors_.a : cursors_.b;
    lines_[i]->point1->setCoords(at, 0.0);
    lines_[i]->point2->setCoords(at, 1.0);
    lines_[i]->setVisible(cursors_.shown);
  }
  layer_->replot();
}

bool SpectrogramCursors::onMousePress(QMouseEvent* event) {
  if (!cursors_.shown || event->button() != Qt::LeftButton) return false;
  QCPAxis* x = view_->plot()->xAxis;
  const double px = event->position().x();
  const double toA = std::abs(x->coordToPixel(cursors_.a) - px);
  const double toB = std::abs(x->coordToPixel(cursors_.b) - px);
  if (std::min(toA, toB) > kCursorGrabPixels) return false;
  dragging_ = toA <= toB ? 0 : 1;
  view_->plot()->setInteraction(QCP::iRangeDrag, false);  // QCustomPlot handles the press after this signal
  return true;
}

void SpectrogramCursors::dragTo(double pixelX) {
  const double samples = view_->signal() ? static_cast<double>(view_->signal()->size()) : 0.0;
  const double at = std::clamp(std::round(view_->plot()->xAxis->pixelToCoord(pixelX)), 0.0, std::max(samples - 1, 0.0));
  (dragging_ == 0 ? cursors_.a : cursors_.b) = at;
  place();
  emit moved(cursors_);
}

}  // namespace siglab::gui
