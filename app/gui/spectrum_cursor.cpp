#include "spectrum_cursor.hpp"

#include <qcustomplot.h>

#include "siglab/cursor_readout.hpp"
#include "siglab/spectrum.hpp"
#include "spectrum_view.hpp"

namespace siglab::gui {

SpectrumCursor::SpectrumCursor(SpectrumView* view) : QObject(view), view_(view) {
  QCustomPlot* plot = view_->plot();
  line_ = new QCPItemStraightLine(plot);
  line_->setPen(QPen(QColor(0, 137, 123), 1.5));
  line_->setSelectable(false);
  line_->setVisible(false);
  connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !(event->modifiers() & Qt::ShiftModifier)) return;
    dragging_ = true;  // Shift: the cursor, not the view
    view_->plot()->setInteraction(QCP::iRangeDrag, false);
    place(event->position().x());
  });
  connect(plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    if (dragging_) place(event->position().x());
  });
  connect(plot, &QCustomPlot::mouseRelease, this, [this] {
    if (!dragging_) return;
    dragging_ = false;
    view_->plot()->setInteraction(QCP::iRangeDrag, true);
  });
  connect(plot, &QCustomPlot::afterReplot, this, [this] { emit changed(); });  // a new spectrum or view
}

void SpectrumCursor::place(double pixelX) { setFrequency(view_->plot()->xAxis->pixelToCoord(pixelX)); }

void SpectrumCursor::setFrequency(std::optional<double> frequency) {
  frequency_ = frequency;
  redraw();
  emit changed();
}

void SpectrumCursor::redraw() {
  line_->setVisible(frequency_.has_value());
  if (frequency_) {
    line_->point1->setCoords(*frequency_, 0.0);
    line_->point2->setCoords(*frequency_, 1.0);
  }
  view_->plot()->replot(QCustomPlot::rpQueuedReplot);
}

QString SpectrumCursor::readoutText() const {
  const SpectrumCurves& curves = view_->curves();
  const Spectrum& o = curves.original;
  if (!frequency_ || o.frequency.empty() || o.power.size() != o.frequency.size()) return {};
  const std::size_t bin = nearestIndex(o.frequency, *frequency_);
  const bool rated = view_->sampleRate().has_value();
  QString text = tr("f = %1: power %2 dB")
                     .arg(rated ? QString::fromStdString(withSiPrefix(o.frequency[bin], "Hz"))
                                : tr("%1 cycles/sample").arg(o.frequency[bin], 0, 'g', 6))
                     .arg(powerToDecibels(o.power)[bin], 0, 'f', 2);  // as the curve draws it
  if (curves.filtered && bin < curves.filtered->power.size()) {
    text += tr(", filtered %1 dB").arg(powerToDecibels(curves.filtered->power)[bin], 0, 'f', 2);
  }
  return text;
}

}  // namespace siglab::gui
