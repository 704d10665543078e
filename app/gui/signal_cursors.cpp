#include "signal_cursors.hpp"

#include <qcustomplot.h>

#include <QLocale>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

#include "cursor_style.hpp"
#include "signal_plot.hpp"
#include "statistics_tasks.hpp"
#include "time_axis.hpp"

namespace siglab::gui {
namespace {

const QColor kMarkerColor(198, 40, 40);

QString value(double v) { return QString::number(v, 'g', 8); }

}  // namespace

SignalCursors::SignalCursors(SignalPlot* plot)
    : QObject(plot), plot_(plot), signal_(plot->original()), filtered_(plot->filtered()),
      worker_(new QFutureWatcher<Statistics>(this)) {
  QCustomPlot* qcp = plot_->plot();
  qcp->addLayer("cursors", qcp->layer("main"), QCustomPlot::limAbove);
  layer_ = qcp->layer("cursors");
  layer_->setMode(QCPLayer::lmBuffered);  // a drag repaints this layer alone
  connect(plot_, &SignalPlot::visibleRangeChanged, this, &SignalCursors::onPlotRefreshed);
  connect(qcp, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) { onMousePress(event); });
  connect(qcp, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    if (dragging_ >= 0) dragTo(event->position().x());
  });
  connect(qcp, &QCustomPlot::mouseRelease, this, [this] {
    if (dragging_ < 0) return;
    dragging_ = -1;
    plot_->plot()->setInteraction(QCP::iRangeDrag, true);
  });
  connect(worker_, &QFutureWatcher<Statistics>::finished, this, [this] {
    if (spanAgain_) {  // the cursors moved while it ran: its span is stale
      spanAgain_ = false;
      requestSpanStatistics();
      return;
    }
    spanStatistics_ = worker_->result();
    spanPending_ = false;
    emit changed();
  });
}

SignalCursors::~SignalCursors() = default;

double SignalCursors::clamped(double index) const {
  const double last = signal_ && signal_->size() > 0 ? static_cast<double>(signal_->size() - 1) : 0.0;
  return std::clamp(std::round(index), 0.0, last);
}

void SignalCursors::setShown(bool shown) {
  if (shown == shown_) return;
  shown_ = shown;
  if (shown_ && a_ == b_) {
    const QCPRange range = plot_->plot()->axisRect()->axis(QCPAxis::atBottom)->range();
    a_ = clamped(range.lower + range.size() / 3.0);
    b_ = clamped(range.lower + range.size() * 2.0 / 3.0);
  }
  redraw();
  requestSpanStatistics();
  emit changed();
}

void SignalCursors::setPositions(double a, double b) {
  a_ = clamped(a);
  b_ = clamped(b);
  redraw();
  requestSpanStatistics();
  emit changed();
}

void SignalCursors::setMarkers(std::vector<Marker> markers) {
  markers_ = std::move(markers);
  redraw();
}

// After every refresh (zoom, pan, resize, a new signal): the lanes may be new, and so may the signal.
void SignalCursors::onPlotRefreshed() {
  if (plot_->original() != signal_ || plot_->filtered() != filtered_) {
    signal_ = plot_->original();
    filtered_ = plot_->filtered();
    a_ = clamped(a_);
    b_ = clamped(b_);
    requestSpanStatistics();
    emit changed();
  }
  redraw();
}

void SignalCursors::redraw() {
  QCustomPlot* qcp = plot_->plot();
  for (const QPointer<QCPAbstractItem>& item : items_) {
    if (item) qcp->removeItem(item);
  }
  items_.clear();
  cursorLines_.clear();
  if (!signal_) return;
  for (QCPAxisRect* rect : qcp->axisRects()) {
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const auto vertical = [&](double at, const QPen& pen) {
      auto* line = new QCPItemStraightLine(qcp);
      line->setLayer(layer_);
      line->setClipAxisRect(rect);
      line->point1->setAxes(x, y);
      line->point2->setAxes(x, y);
      line->point1->setCoords(at, 0.0);
      line->point2->setCoords(at, 1.0);
      line->setPen(pen);
      line->setSelectable(false);
      items_.emplace_back(line);
    };
    for (const Marker& marker : markers_) {
      if (marker.isRegion()) {
        auto* band = new QCPItemRect(qcp);
        band->setLayer(layer_);
        band->setClipAxisRect(rect);
        band->topLeft->setAxes(x, nullptr);
        band->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        band->topLeft->setAxisRect(rect);
        band->bottomRight->setAxes(x, nullptr);
        band->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        band->bottomRight->setAxisRect(rect);
        band->topLeft->setCoords(marker.at, 0.0);
        band->bottomRight->setCoords(*marker.end, 1.0);
        band->setPen(Qt::NoPen);
        band->setBrush(QColor(255, 193, 7, 50));
        band->setSelectable(false);
        items_.emplace_back(band);
      } else {
        vertical(marker.at, QPen(kMarkerColor, 1.0, Qt::DashLine));
      }
      if (!marker.label.empty() && rect == qcp->axisRect()) {
        auto* text = new QCPItemText(qcp);
        text->setLayer(layer_);
        text->setClipAxisRect(rect);
        text->position->setAxes(x, nullptr);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setAxisRect(rect);
        text->position->setCoords(marker.at, 0.02);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setText(QString::fromStdString(marker.label));
        text->setColor(kMarkerColor);
        text->setSelectable(false);
        items_.emplace_back(text);
      }
    }
    if (shown_) {
      vertical(a_, QPen(kCursorColors[0], 1.5));
      cursorLines_.emplace_back(static_cast<QCPItemStraightLine*>(items_.back().data()));
      vertical(b_, QPen(kCursorColors[1], 1.5));
      cursorLines_.emplace_back(static_cast<QCPItemStraightLine*>(items_.back().data()));
    }
  }
  layer_->replot();
}

// A drag moves the lines it has rather than making the items again (markers may be many).
void SignalCursors::moveCursorLines() {
  for (std::size_t i = 0; i < cursorLines_.size(); ++i) {
    if (!cursorLines_[i]) return redraw();
    const double at = i % 2 == 0 ? a_ : b_;
    cursorLines_[i]->point1->setCoords(at, 0.0);
    cursorLines_[i]->point2->setCoords(at, 1.0);
  }
  layer_->replot();
}

bool SignalCursors::onMousePress(QMouseEvent* event) {
  if (!shown_ || !signal_ || event->button() != Qt::LeftButton) return false;
  QCPAxisRect* rect = plot_->plot()->axisRectAt(event->position());
  if (!rect) return false;
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  const double px = event->position().x();
  const double toA = std::abs(x->coordToPixel(a_) - px);
  const double toB = std::abs(x->coordToPixel(b_) - px);
  if (std::min(toA, toB) > kCursorGrabPixels) return false;
  dragging_ = toA <= toB ? 0 : 1;
  plot_->plot()->setInteraction(QCP::iRangeDrag, false);  // QCustomPlot handles the press after this signal
  return true;
}

void SignalCursors::dragTo(double pixelX) {
  if (!signal_) return;
  const double at = clamped(plot_->plot()->axisRect()->axis(QCPAxis::atBottom)->pixelToCoord(pixelX));
  int which = dragging_;
  if (which < 0) which = std::abs(at - a_) <= std::abs(at - b_) ? 0 : 1;
  (which == 0 ? a_ : b_) = at;
  moveCursorLines();
  requestSpanStatistics();
  emit changed();
}

CursorDelta SignalCursors::delta() const { return cursorDelta(a_, b_, plot_->sampleRate()); }

SampleRange SignalCursors::span() const { return spanBetween(a_, b_, signal_ ? signal_->size() : 0); }

void SignalCursors::requestSpanStatistics() {
  if (!signal_ || !shown_) {
    spanPending_ = false;
    return;
  }
  const SampleRange range = span();
  // A running worker's span is stale now: it stops, its result is dropped and this asked again.
  spanAgain_ = worker_->isRunning();
  if (spanAgain_ && spanStop_) spanStop_->store(true);
  if (range.end - range.begin <= kSpanOnGuiThread && !signal_->mapping()) {  // a mapped file's are read from disk
    spanStatistics_ = signal_->statisticsOf(range);
    spanPending_ = false;
    return;
  }
  spanPending_ = true;
  if (spanAgain_) return;
  spanStop_ = std::make_shared<std::atomic<bool>>(false);
  worker_->setFuture(statisticsInBackground(signal_, range, spanStop_));
}

QString SignalCursors::readoutText() const {
  if (!shown_ || !signal_) return {};
  const std::optional<double> rate = plot_->sampleRate();
  const QLocale locale;
  const auto where = [&](double at) {
    QString text = tr("sample %1").arg(locale.toString(static_cast<qulonglong>(at)));
    if (rate) text = tr("t = %1 (%2)").arg(timeOfSample(at, *rate, 8), text);
    return text;
  };
  const auto values = [&](double at) {
    QStringList parts;
    const auto i = static_cast<std::size_t>(at);
    for (std::size_t c = 0; c < signal_->channelCount(); ++c) {
      QString part = value(signal_->channel(c).sampleAt(i));
      if (filtered_ && c < filtered_->channelCount() && i < filtered_->size()) {
        part += tr(" (filtered %1)").arg(value(filtered_->channel(c).sampleAt(i)));
      }
      const bool named = signal_->channelCount() > 1 || !signal_->channelName(c).empty();
      parts << (named ? tr("%1: %2").arg(channelLabel(*signal_, c), part) : part);
    }
    return parts.join(", ");
  };
  QStringList lines;
  lines << tr("A: %1: %2").arg(where(a_), values(a_));
  lines << tr("B: %1: %2").arg(where(b_), values(b_));
  const CursorDelta d = delta();
  lines << (d.seconds ? tr("B - A: %1 (%2 samples)").arg(QString::fromStdString(withSiPrefix(*d.seconds, "s")))
                            .arg(locale.toString(static_cast<qlonglong>(d.samples)))
                      : tr("B - A: %1 samples").arg(locale.toString(static_cast<qlonglong>(d.samples))));
  lines << (d.reciprocal ? tr("1 / (B - A): %1").arg(QString::fromStdString(withSiPrefix(*d.reciprocal, rate ? "Hz" : "/sample")))
                         : tr("1 / (B - A): - (A and B coincide)"));
  const Statistics& s = spanStatistics_;
  lines << (spanPending_ ? tr("Span: computing the statistics of %1 samples…").arg(locale.toString(static_cast<qulonglong>(span().end - span().begin)))
                         : tr("Span (%1 samples): mean %2, rms %3, std %4, min %5, max %6")
                               .arg(locale.toString(static_cast<qulonglong>(s.count)))
                               .arg(value(s.mean), value(s.rms), value(s.stddev), value(s.min), value(s.max)));
  return lines.join("\n");
}

}  // namespace siglab::gui
