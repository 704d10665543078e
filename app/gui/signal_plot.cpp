#include "signal_plot.hpp"

#include <QLabel>

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "mapped_channel.hpp"
#include "plot_points_tasks.hpp"
#include "task_runner.hpp"
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
  rect->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<IndexAxisTicker>::create());
  rect->axis(QCPAxis::atBottom)->setNumberFormat("f");
  rect->axis(QCPAxis::atBottom)->setNumberPrecision(0);
  if (sampleRate) rect->axis(QCPAxis::atBottom)->setTicker(QSharedPointer<TimeAxisTicker>::create(*sampleRate));
}

void setPoints(QCPGraph* graph, const PlotPoints& points, int columns) {
  QVector<QCPGraphData> data(static_cast<qsizetype>(points.keys.size()));
  for (std::size_t i = 0; i < points.keys.size(); ++i) data[static_cast<qsizetype>(i)] = {points.keys[i], points.values[i]};
  // Dots on the samples once there is room to see them.
  const bool sparse = points.exact && points.keys.size() * 6 < static_cast<std::size_t>(columns);
  graph->setScatterStyle(sparse ? QCPScatterStyle(QCPScatterStyle::ssDisc, 5) : QCPScatterStyle());
  // Min/max columns are vertical strokes a pixel apart: antialiasing them costs time and shows nothing.
  graph->setAntialiased(points.exact);
  graph->data()->set(data, true);  // keys come sorted, min before max within a column
}

void fill(QCPGraph* graph, const LoadedSignal* signal, const QCPRange& range, int columns) {
  if (!graph) return;
  if (!signal) return graph->data()->clear();
  setPoints(graph, signal->pointsFor(range.lower, range.upper, static_cast<std::size_t>(columns)), columns);
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
  points_ = new TaskRunner(nullptr, this);  // a view's points come in milliseconds: nothing to show for them
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  channelBar_ = new QWidget;
  auto* bar = new QHBoxLayout(channelBar_);
  bar->setContentsMargins(4, 2, 4, 0);
  channelBox_ = new QComboBox;
  channelBox_->setObjectName("channelBox");
  channelBox_->setToolTip(tr("The channels whose lanes show: all of them, or one"));
  bar->addWidget(new QLabel(tr("Channels")));
  bar->addWidget(channelBox_);
  bar->addStretch();
  channelBar_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  channelBar_->setVisible(false);  // one channel: nothing to choose
  connect(channelBox_, &QComboBox::activated, this, [this](int index) {
    if (fileChannels(original_.get()) > 1) {
      channelBox_->setCurrentIndex(static_cast<int>(original_->mapping()->channel()) - 1);
      if (index >= 0 && static_cast<std::size_t>(index) + 1 != original_->mapping()->channel()) {
        emit fileChannelChosen(static_cast<std::size_t>(index));
      }
      return;
    }
    const std::optional<std::size_t> channel =
        index <= 0 ? std::nullopt : std::optional<std::size_t>(static_cast<std::size_t>(index - 1));
    showChannels(channel);
    emit channelChosen(channel);
  });
  layout->addWidget(channelBar_);
  layout->addWidget(plot_, 1);
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
  plot_->setAutoAddPlottableToLegend(false);  // one legend, of the first lane's curves
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setPlottingHint(QCP::phFastPolylines, true);
  plot_->setMinimumSize(320, 240);
  plot_->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));  // 10,000,000 on the axis
  // Axis rects get their size when QCustomPlot lays out; redo the points once the width is known.
  connect(plot_, &QCustomPlot::afterLayout, this, [this] {
    if (!lanes_.empty() && keyAxis()->axisRect()->width() != columns_) refreshPoints();
  });
  // As many ticks as their labels fit side by side: "97,000,00097,500,000" never shows.
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
    for (const Lane& lane : lanes_) {
      for (QCPAxisRect* rect : lane.rects) fitTicksToLabels(rect->axis(QCPAxis::atBottom));
    }
  });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    hover_ = event->position();
    emitHoverReadout();
  });
  rebuild();
}

void SignalPlot::emitHoverReadout() {
  QCPAxisRect* rect = hover_ ? plot_->axisRectAt(*hover_) : nullptr;
  if (!rect) return;
  for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
    if (std::ranges::find(lanes_[lane].rects, rect) == lanes_[lane].rects.end()) continue;
    emit cursorReadout(readoutAt(rect->axis(QCPAxis::atBottom)->pixelToCoord(hover_->x()), lane));
  }
}

QCPAxis* SignalPlot::keyAxis() const { return lanes_.front().original->keyAxis(); }

std::vector<std::size_t> SignalPlot::lanes() const {
  std::vector<std::size_t> channels;
  for (const Lane& lane : lanes_) channels.push_back(lane.channel);
  return channels;
}

void SignalPlot::rebuild() {
  plot_->clearPlottables();
  plot_->plotLayout()->clear();  // deletes the axis rects and the legend's place
  lanes_.clear();
  const std::size_t channels = original_ ? original_->channelCount() : 1;
  const bool several = channels > 1;
  const bool oneOfFile = fileChannels(original_.get()) > 1;
  std::vector<std::size_t> shown;
  if (channelShown_ && *channelShown_ < channels) {
    shown = {*channelShown_};
  } else {
    for (std::size_t c = 0; c < channels; ++c) shown.push_back(c);
  }
  auto* group = new QCPMarginGroup(plot_);  // the plots' left edges line up
  int row = 0;
  const auto addRect = [&](const QString& yLabel) {
    auto* rect = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(row++, 0, rect);
    styleAxes(rect, yLabel, sampleRate_);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    return rect;
  };
  for (const std::size_t channel : shown) {
    Lane lane;
    lane.channel = channel;
    const QString name = oneOfFile ? tr("channel %1").arg(original_->mapping()->channel())
                         : original_ && (several || !original_->channelName(channel).empty()) ? channelLabel(*original_, channel)
                                                                                             : QString();
    QCPAxisRect* upper = addRect(!name.isEmpty() ? (stacked_ ? tr("%1 original").arg(name) : name)
                                                 : (stacked_ ? tr("original") : tr("value")));
    lane.rects.push_back(upper);
    lane.original = plot_->addGraph(upper->axis(QCPAxis::atBottom), upper->axis(QCPAxis::atLeft));
    lane.original->setPen(QPen(kOriginalColor, 1.0));
    lane.original->setName(tr("original"));
    QCPAxisRect* filteredRect = upper;
    if (stacked_) {
      filteredRect = addRect(!name.isEmpty() ? tr("%1 %2").arg(name, filteredCaption()) : filteredCaption());
      lane.rects.push_back(filteredRect);
    }
    lane.filtered = plot_->addGraph(filteredRect->axis(QCPAxis::atBottom), filteredRect->axis(QCPAxis::atLeft));
    lane.filtered->setPen(QPen(kFilteredColor, 1.5));
    lane.filtered->setName(filteredCaption());
    if (!stacked_ && lanes_.empty()) {  // one legend, in the first lane
      auto* legend = new QCPLegend;
      upper->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
      legend->setLayer("legend");
      legend->setBrush(QColor(255, 255, 255, 220));
      legend->addItem(new QCPPlottableLegendItem(legend, lane.original));
      legend->addItem(new QCPPlottableLegendItem(legend, lane.filtered));
      legend->setVisible(filtered_ != nullptr);
    }
    lanes_.push_back(std::move(lane));
  }
  // Every x axis follows the first, and the first every other: zoom and pan move all lanes.
  QCPAxis* firstX = keyAxis();
  for (const Lane& lane : lanes_) {
    for (QCPAxisRect* rect : lane.rects) {
      QCPAxis* x = rect->axis(QCPAxis::atBottom);
      if (x == firstX) continue;
      connect(firstX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), x, qOverload<const QCPRange&>(&QCPAxis::setRange));
      connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), firstX, qOverload<const QCPRange&>(&QCPAxis::setRange));
    }
  }
  connect(firstX, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &SignalPlot::onXRangeChanged);
  resetView();
}

void SignalPlot::fillChannelBox() {
  channelBox_->clear();
  if (const std::size_t inFile = fileChannels(original_.get()); inFile > 1) {  // one at a time: no "All channels"
    for (std::size_t c = 1; c <= inFile; ++c) channelBox_->addItem(tr("Channel %1").arg(c));
    channelBox_->setCurrentIndex(static_cast<int>(original_->mapping()->channel()) - 1);
    channelBox_->setToolTip(tr("The file's channel shown: a file larger than memory is viewed one channel at a time"));
    channelBar_->setVisible(true);
    return;
  }
  channelBox_->setToolTip(tr("The channels whose lanes show: all of them, or one"));
  const std::size_t channels = original_ ? original_->channelCount() : 1;
  channelBox_->addItem(tr("All channels"));
  for (std::size_t c = 1; c <= channels; ++c) channelBox_->addItem(tr("Channel %1").arg(c));
  channelBox_->setCurrentIndex(channelShown_ && *channelShown_ < channels ? static_cast<int>(*channelShown_) + 1 : 0);
  channelBar_->setVisible(channels > 1);
}

void SignalPlot::showChannels(std::optional<std::size_t> channel) {
  if (channel == channelShown_) return;
  const QCPRange range = keyAxis()->range();
  channelShown_ = channel;
  channelBox_->setCurrentIndex(channel ? static_cast<int>(*channel) + 1 : 0);
  rebuild();
  if (original_) setVisibleRange(range.lower, range.upper);
}

void SignalPlot::setOriginal(SignalPtr signal) {
  original_ = std::move(signal);
  emptyHint_->setVisible(original_ == nullptr);
  filtered_.reset();
  channelShown_.reset();
  fillChannelBox();
  rebuild();
  emit originalChanged(original_);
}

QString SignalPlot::filteredCaption() const { return filteredCaption_.isEmpty() ? tr("filtered") : filteredCaption_; }

void SignalPlot::setFiltered(SignalPtr signal, const QString& caption) {
  filtered_ = std::move(signal);
  filteredCaption_ = caption;
  const QCPRange range = keyAxis()->range();
  rebuild();
  if (original_) setVisibleRange(range.lower, range.upper);
}

void SignalPlot::setStacked(bool stacked) {
  if (stacked == stacked_) return;
  const QCPRange range = keyAxis()->range();
  stacked_ = stacked;
  rebuild();
  if (original_) setVisibleRange(range.lower, range.upper);
}

void SignalPlot::setSampleRate(std::optional<double> sampleRate) {
  if (sampleRate == sampleRate_) return;
  const QCPRange range = keyAxis()->range();
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
  QCPAxis* x = keyAxis();
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
    keyAxis()->setRange(bounded);  // comes back here once
    return;
  }
  refreshPoints();
}

void SignalPlot::refreshPoints() {
  refreshing_ = true;
  const QCPRange range = keyAxis()->range();
  columns_ = keyAxis()->axisRect()->width();
  const int columns = std::max(1, columns_);
  if (readsFile(original_.get()) || readsFile(filtered_.get())) {
    requestPoints(range, columns);  // the curves keep the points they have until these come
  } else {
    points_->abandon();
    for (const Lane& lane : lanes_) {
      fill(lane.original, original_ ? &original_->channel(lane.channel) : nullptr, range, columns);
      fill(lane.filtered, filteredOf(lane.channel).get(), range, columns);
    }
    fitLanes();
    emitHoverReadout();  // the sample under the mouse changed with the view (a wheel zoom)
  }
  refreshing_ = false;
  plot_->replot(QCustomPlot::rpQueuedReplot);
  if (original_) {
    const double last = static_cast<double>(original_->size());
    const auto first = static_cast<std::size_t>(std::clamp(std::ceil(range.lower), 0.0, last));
    emit visibleRangeChanged(first, std::max(first, static_cast<std::size_t>(std::clamp(std::floor(range.upper) + 1, 0.0, last))));
  }
}

SignalPtr SignalPlot::filteredOf(std::size_t channel) const {
  return filtered_ && channel < filtered_->channelCount() ? channelOf(filtered_, channel) : nullptr;
}

void SignalPlot::fitLanes() {
  for (const Lane& lane : lanes_) {
    if (stacked_) {
      fitValues(lane.original, lane.original->valueAxis());
      fitValues(lane.filtered, lane.filtered->valueAxis());
    } else {
      fitValues(lane.original, lane.original->valueAxis(), lane.filtered);
    }
  }
}

// A mapped file's points are read in a worker: the GUI thread never faults the file's pages in.
// A newer view replaces the request running; its points are never shown.
void SignalPlot::requestPoints(const QCPRange& range, int columns) {
  PointsRequest request{{}, range.lower, range.upper, static_cast<std::size_t>(columns)};
  for (const Lane& lane : lanes_) {
    request.curves.push_back(channelOf(original_, lane.channel));
    request.curves.push_back(filteredOf(lane.channel));
  }
  auto stop = std::make_shared<std::atomic<bool>>(false);
  points_->start<std::vector<PlotPoints>>(tr("Plot points"), stop, pointsInBackground(std::move(request), stop),
                                          [this, columns](const QFuture<std::vector<PlotPoints>>& done) {
                                            showPoints(done.result(), columns);
                                          });
}

void SignalPlot::showPoints(const std::vector<PlotPoints>& points, int columns) {
  for (std::size_t l = 0; l < lanes_.size() && 2 * l + 1 < points.size(); ++l) {
    const Lane& lane = lanes_[l];
    setPoints(lane.original, points[2 * l], columns);
    if (filteredOf(lane.channel)) setPoints(lane.filtered, points[2 * l + 1], columns);
    else lane.filtered->data()->clear();
  }
  fitLanes();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  emitHoverReadout();
  emit pointsArrived();
}

bool SignalPlot::pointsPending() const { return points_->busy(); }

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
  std::size_t points = 0;
  for (const Lane& lane : lanes_) points += static_cast<std::size_t>(lane.original->dataCount() + lane.filtered->dataCount());
  return points;
}

QString SignalPlot::readoutAt(double key, std::size_t lane) const {
  if (!original_ || original_->size() == 0 || lane >= lanes_.size()) return {};
  const double index = std::round(key);
  if (index < 0 || index >= static_cast<double>(original_->size())) return {};
  const auto i = static_cast<std::size_t>(index);
  const std::size_t channel = lanes_[lane].channel;
  const QLocale locale;
  QString text = tr("sample %1: original %2").arg(locale.toString(static_cast<qulonglong>(i)))
                     .arg(original_->channel(channel).sampleAt(i), 0, 'g', 8);
  if (original_->channelCount() > 1) text = channelLabel(*original_, channel) + ", " + text;
  if (fileChannels(original_.get()) > 1) text = tr("channel %1, ").arg(original_->mapping()->channel()) + text;
  if (sampleRate_) text = tr("t = %1, ").arg(timeOfSample(index, *sampleRate_, 8)) + text;
  if (filtered_ && channel < filtered_->channelCount() && i < filtered_->size()) {
    text += tr(", filtered %1").arg(filtered_->channel(channel).sampleAt(i), 0, 'g', 8);
  }
  return text;
}

}  // namespace siglab::gui
