#include "signal_plot.hpp"

#include <QLabel>

#include <qcustomplot.h>

#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "time_axis.hpp"

namespace siglab::gui {
namespace {

const QColor kOriginalColor(84, 110, 122);
const QColor kFilteredColor(230, 81, 0);

void styleAxes(QCPAxisRect* rect, const QString& yLabel, std::optional<double> sampleRate) {
  rect->axis(QCPAxis::atBottom)->setLabel(sampleRate ? QObject::tr("time") : QObject::tr("sample index"));
  rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
  rect->setRangeDrag(Qt::Horizontal);
  rect->setRangeZoom(Qt::Horizontal);
  for (QCPAxis* axis : rect->axes()) axis->grid()->setPen(QPen(QColor(225, 225, 225), 0, Qt::DotLine));
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  ticker->setTickStep(1.0);  // sample indices are integers
  rect->axis(QCPAxis::atBottom)->setTicker(ticker);
  rect->axis(QCPAxis::atBottom)->setNumberFormat("f");
  rect->axis(QCPAxis::atBottom)->setNumberPrecision(0);
  if (sampleRate) rect->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<TimeAxisTicker>::create(*sampleRate));
}

void fill(QCPGraph* graph, const LoadedSignal* signal, const QCPRange& range, int columns) {
  if (!graph) return;
  QVector<QCPGraphData> data;
  if (signal) {
    const PlotPoints points = signal->pointsFor(range.lower, range.upper, static_cast<std::size_t>(columns));
    data.resize(static_cast<qsizetype>(points.keys.size()));
    for (std::size_t i = 0; i < points.keys.size(); ++i) data[static_cast<qsizetype>(i)] = {points.keys[i], points.values[i]};
    // Dots on the samples once there is room to see them.
    const bool sparse = points.exact && points.keys.size() * 6 < static_cast<std::size_t>(columns);
    graph->setScatterStyle(sparse ? QCPScatterStyle(QCPScatterStyle::ssDisc, 5) : QCPScatterStyle());
    // Min/max columns are vertical strokes a pixel apart: antialiasing them costs time and shows nothing.
    graph->setAntialiased(points.exact);
  }
  graph->data()->set(data, true);  // keys come sorted, min before max within a column
}

// The y range that shows every visible point with a small margin.
void fitValues(QCPGraph* graph, QCPAxis* yAxis, QCPGraph* also = nullptr) {
  bool found = false;
  QCPRange range = graph->getValueRange(found);
  if (also) {
    bool foundAlso = false;
    const QCPRange other = also->getValueRange(foundAlso);
    if (foundAlso) range = found ? QCPRange(std::min(range.lower, other.lower), std::max(range.upper, other.upper)) : other;
    found = found || foundAlso;
  }
  if (!found) return;
  // A flat signal still gets a readable span around its value.
  const double margin = range.size() > 0 ? range.size() * 0.05 : std::max(std::abs(range.lower) * 0.05, 1.0);
  yAxis->setRange(range.lower - margin, range.upper + margin);
}

}  // namespace

SignalPlot::SignalPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  emptyHint_ = new QLabel(tr("<p style=\"font-size: large\">No signal yet</p>"
                             "<p>Open one with <b>Ctrl+O</b>, drop a file here, or pick one from File &gt; Open recent.</p>"
                             "<p>Text, CSV/TSV, NumPy .npy, raw binary and WAV are read; sessions (.siglab) too.</p>"),
                          this);
  emptyHint_->setObjectName("emptyHint");
  emptyHint_->setAlignment(Qt::AlignCenter);
  emptyHint_->setWordWrap(true);
  emptyHint_->setAttribute(Qt::WA_TransparentForMouseEvents);
  emptyHint_->setStyleSheet("QLabel#emptyHint { color: #455a64; background: rgba(255, 255, 255, 220);"
                            " border: 1px solid #b0bec5; border-radius: 8px; padding: 16px; }");
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setPlottingHint(QCP::phFastPolylines, true);
  plot_->setMinimumSize(320, 240);
  plot_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));  // 10,000,000 on the axis
  // Axis rects get their size when QCustomPlot lays out; redo the points once the width is known.
  connect(plot_, &QCustomPlot::afterLayout, this, [this] {
    if (originalGraph_ && originalGraph_->keyAxis()->axisRect()->width() != columns_) refreshPoints();
  });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    QCPAxisRect* rect = plot_->axisRectAt(event->position());
    if (rect) emit cursorReadout(readoutAt(rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x())));
  });
  rebuild();
}

void SignalPlot::rebuild() {
  plot_->clearPlottables();
  plot_->plotLayout()->clear();  // deletes the axis rects and the legend's place
  auto* upper = new QCPAxisRect(plot_);
  plot_->plotLayout()->addElement(0, 0, upper);
  styleAxes(upper, stacked_ ? tr("original") : tr("value"), sampleRate_);
  originalGraph_ = plot_->addGraph(upper->axis(QCPAxis::atBottom), upper->axis(QCPAxis::atLeft));
  originalGraph_->setPen(QPen(kOriginalColor, 1.0));
  originalGraph_->setName(tr("original"));
  lowerRect_ = nullptr;
  QCPAxisRect* filteredRect = upper;
  if (stacked_) {
    lowerRect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(1, 0, lowerRect_);
    styleAxes(lowerRect_, filteredCaption(), sampleRate_);
    auto* group = new QCPMarginGroup(plot_);  // the two plots' left edges line up
    upper->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    lowerRect_->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    filteredRect = lowerRect_;
    QCPAxis* upperX = upper->axis(QCPAxis::atBottom);
    QCPAxis* lowerX = lowerRect_->axis(QCPAxis::atBottom);
    connect(upperX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), lowerX, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(lowerX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), upperX, qOverload<const QCPRange&>(&QCPAxis::setRange));
  }
  filteredGraph_ = plot_->addGraph(filteredRect->axis(QCPAxis::atBottom), filteredRect->axis(QCPAxis::atLeft));
  filteredGraph_->setPen(QPen(kFilteredColor, 1.5));
  filteredGraph_->setName(filteredCaption());
  if (!stacked_) {
    auto* legend = new QCPLegend;
    upper->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    legend->setLayer("legend");
    legend->setBrush(QColor(255, 255, 255, 220));
    legend->addItem(new QCPPlottableLegendItem(legend, originalGraph_));
    legend->addItem(new QCPPlottableLegendItem(legend, filteredGraph_));
    legend->setVisible(filtered_ != nullptr);
  }
  connect(upper->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          &SignalPlot::onXRangeChanged);
  resetView();
}

void SignalPlot::setOriginal(SignalPtr signal) {
  original_ = std::move(signal);
  emptyHint_->setVisible(original_ == nullptr);
  filtered_.reset();
  rebuild();
}

QString SignalPlot::filteredCaption() const { return filteredCaption_.isEmpty() ? tr("filtered") : filteredCaption_; }

void SignalPlot::setFiltered(SignalPtr signal, const QString& caption) {
  filtered_ = std::move(signal);
  filteredCaption_ = caption;
  const QCPRange range = originalGraph_->keyAxis()->range();
  rebuild();
  if (original_) setVisibleRange(range.lower, range.upper);
}

void SignalPlot::setStacked(bool stacked) {
  if (stacked == stacked_) return;
  const QCPRange range = originalGraph_->keyAxis()->range();
  stacked_ = stacked;
  rebuild();
  if (original_) setVisibleRange(range.lower, range.upper);
}

void SignalPlot::setSampleRate(std::optional<double> sampleRate) {
  if (sampleRate == sampleRate_) return;
  const QCPRange range = originalGraph_->keyAxis()->range();
  sampleRate_ = sampleRate;
  rebuild();
  if (original_) setVisibleRange(range.lower, range.upper);
}

void SignalPlot::setRubberBandZoom(bool on) { plot_->setSelectionRectMode(on ? QCP::srmZoom : QCP::srmNone); }

void SignalPlot::resetView() {
  const double last = original_ && original_->size() > 1 ? static_cast<double>(original_->size() - 1) : 1.0;
  setVisibleRange(0.0, last);
}

void SignalPlot::setVisibleRange(double first, double last) {
  QCPAxis* x = originalGraph_->keyAxis();
  if (x->range() == QCPRange(first, last)) refreshPoints();  // rangeChanged would not fire
  x->setRange(first, last);
}

void SignalPlot::onXRangeChanged(const QCPRange& range) {
  if (refreshing_) return;
  // Keep the view on the signal: no panning into emptiness, no zooming in past a few samples.
  const double last = original_ && original_->size() > 1 ? static_cast<double>(original_->size() - 1) : 1.0;
  QCPRange bounded = range;
  if (bounded.size() < 4.0) bounded = QCPRange(bounded.center() - 2.0, bounded.center() + 2.0);
  if (bounded.size() > last) bounded = QCPRange(0.0, last);
  if (bounded.lower < 0.0) bounded = QCPRange(0.0, bounded.size());
  if (bounded.upper > last) bounded = QCPRange(last - bounded.size(), last);
  if (!(bounded == range)) {
    originalGraph_->keyAxis()->setRange(bounded);  // comes back here once
    return;
  }
  refreshPoints();
}

void SignalPlot::refreshPoints() {
  refreshing_ = true;
  const QCPRange range = originalGraph_->keyAxis()->range();
  columns_ = originalGraph_->keyAxis()->axisRect()->width();
  const int columns = std::max(1, columns_);
  fill(originalGraph_, original_.get(), range, columns);
  fill(filteredGraph_, filtered_.get(), range, columns);
  if (stacked_) {
    fitValues(originalGraph_, originalGraph_->valueAxis());
    fitValues(filteredGraph_, filteredGraph_->valueAxis());
  } else {
    fitValues(originalGraph_, originalGraph_->valueAxis(), filteredGraph_);
  }
  refreshing_ = false;
  plot_->replot(QCustomPlot::rpQueuedReplot);
  if (original_) {
    const double last = static_cast<double>(original_->size());
    const auto first = static_cast<std::size_t>(std::clamp(std::ceil(range.lower), 0.0, last));
    emit visibleRangeChanged(first, std::max(first, static_cast<std::size_t>(std::clamp(std::floor(range.upper) + 1, 0.0, last))));
  }
}

void SignalPlot::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const QSize hint(std::min(width() - 40, 460), 0);
  emptyHint_->setFixedWidth(std::max(hint.width(), 100));
  emptyHint_->adjustSize();
  emptyHint_->move((width() - emptyHint_->width()) / 2, (height() - emptyHint_->height()) / 2);
  emptyHint_->raise();
  refreshPoints();
}

std::size_t SignalPlot::pointsShown() const {
  return static_cast<std::size_t>(originalGraph_->dataCount() + filteredGraph_->dataCount());
}

QString SignalPlot::readoutAt(double key) const {
  if (!original_ || original_->size() == 0) return {};
  const double index = std::round(key);
  if (index < 0 || index >= static_cast<double>(original_->size())) return {};
  const auto i = static_cast<std::size_t>(index);
  const QLocale locale;
  QString text = tr("sample %1: original %2").arg(locale.toString(static_cast<qulonglong>(i)))
                     .arg(original_->sampleAt(i), 0, 'g', 8);
  if (sampleRate_) text = tr("t = %1, ").arg(timeOfSample(index, *sampleRate_, 8)) + text;
  if (filtered_ && i < filtered_->size()) text += tr(", filtered %1").arg(filtered_->sampleAt(i), 0, 'g', 8);
  return text;
}

}  // namespace siglab::gui
