#include "spectrogram_view.hpp"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

#include "colour_maps.hpp"
#include "plot_export.hpp"
#include "spectrogram_tasks.hpp"
#include "task_runner.hpp"
#include "task_status.hpp"
#include "time_axis.hpp"

namespace siglab::gui {
namespace {

constexpr int kRefreshMs = 100;           // redraws while tiles arrive (each new tile shown within it)
constexpr int kCoarseAfterMs = 40;        // a request's coarser drawing, unless its tiles came first
constexpr std::size_t kMaxRows = 1024;    // frequency rows drawn at most (nearest bin each)
constexpr std::size_t kCacheBytes = std::size_t{256} << 20;

QString ordinal(std::uint64_t n) {
  const std::uint64_t tens = n % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return QString::number(n) + QString::fromLatin1(suffix);
}

// "1.25 kHz" / "0.125 cycles/sample".
QString frequencyText(double frequency, const std::optional<double>& rate) {
  if (!rate) return QObject::tr("%1 cycles/sample").arg(frequency, 0, 'g', 4);
  if (std::abs(frequency) >= 1000) return QObject::tr("%1 kHz").arg(frequency / 1000, 0, 'g', 5);
  return QObject::tr("%1 Hz").arg(frequency, 0, 'g', 5);
}

}  // namespace

SpectrogramView::SpectrogramView(QWidget* parent) : QWidget(parent) {
  window_ = new QComboBox;
  window_->addItems({"hann", "tukey", "hamming", "blackman", "boxcar"});
  window_->setToolTip(tr("Each segment's window (periodic, as scipy.signal.get_window)"));
  segment_ = new QComboBox;
  for (const int n : {64, 128, 256, 512, 1024, 2048, 4096, 8192}) segment_->addItem(QString::number(n), n);
  segment_->setCurrentText("256");
  segment_->setToolTip(tr("nperseg: samples a segment (a frame of the spectrogram)"));
  overlap_ = new QSpinBox;
  overlap_->setRange(0, 255);
  overlap_->setValue(32);
  overlap_->setToolTip(tr("noverlap: samples neighbouring segments share (less than nperseg)"));
  colours_ = new QComboBox;
  colours_->addItems(colourMapNames());
  colours_->setToolTip(tr("Colour map"));
  autoRange_ = new QCheckBox(tr("Auto"));
  autoRange_->setChecked(true);
  autoRange_->setToolTip(tr("Fit the dB range to what is shown (2nd percentile to the largest)"));
  low_ = new QDoubleSpinBox;
  high_ = new QDoubleSpinBox;
  for (QDoubleSpinBox* box : {low_, high_}) {
    box->setRange(-400, 400);
    box->setSuffix(tr(" dB"));
    box->setEnabled(false);
  }
  low_->setValue(-100);
  low_->setToolTip(tr("The dB the colour map starts at"));
  high_->setToolTip(tr("The dB the colour map ends at"));
  auto* exportButton = new QPushButton(tr("Export…"));
  exportButton->setToolTip(tr("Write the spectrogram as PNG, SVG or PDF"));

  auto* settings = new QHBoxLayout;
  settings->addWidget(new QLabel(tr("Window")));
  settings->addWidget(window_);
  settings->addWidget(new QLabel(tr("nperseg")));
  settings->addWidget(segment_);
  settings->addWidget(new QLabel(tr("noverlap")));
  settings->addWidget(overlap_);
  settings->addStretch(1);
  auto* colours = new QHBoxLayout;
  colours->addWidget(colours_);
  colours->addWidget(autoRange_);
  colours->addWidget(low_);
  colours->addWidget(high_);
  colours->addStretch(1);
  colours->addWidget(exportButton);

  plot_ = new QCustomPlot;
  plot_->setMinimumHeight(160);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->setFocusPolicy(Qt::ClickFocus);
  plot_->installEventFilter(this);
  map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
  map_->setInterpolate(false);
  scale_ = new QCPColorScale(plot_);
  plot_->plotLayout()->addElement(0, 1, scale_);
  scale_->axis()->setLabel(tr("dB"));
  map_->setColorScale(scale_);
  map_->setGradient(colourGradient(colours_->currentText()));
  auto* margins = new QCPMarginGroup(plot_);
  plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  plot_->setMouseTracking(true);

  note_ = new QLabel;
  note_->setWordWrap(true);
  readout_ = new QLabel;
  status_ = new TaskStatus;
  runner_ = new TaskRunner(status_, this);
  refresh_ = new QTimer(this);
  refresh_->setInterval(kRefreshMs);
  coarse_ = new QTimer(this);
  coarse_->setSingleShot(true);
  coarse_->setInterval(kCoarseAfterMs);
  connect(coarse_, &QTimer::timeout, this, &SpectrogramView::scheduleRedraw);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(settings);
  layout->addLayout(colours);
  layout->addWidget(plot_, 1);
  layout->addWidget(readout_);
  layout->addWidget(note_);
  layout->addWidget(status_);
  setFocusPolicy(Qt::ClickFocus);
  installEventFilter(this);

  connect(refresh_, &QTimer::timeout, this, [this] {
    if (tiles_ && tiles_->cache().insertions() != drawnInsertions_) redraw();
  });
  connect(runner_, &TaskRunner::busyChanged, this, [this](bool busy) { busy ? refresh_->start() : refresh_->stop(); });
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& range) {
    if (applying_ || !signal_) return;
    const auto size = static_cast<double>(signal_->size());
    first_ = std::max(0.0, range.lower);
    last_ = std::min(size, range.upper);
    if (last_ - first_ < 2) last_ = std::min(size, first_ + 2);
    emit visibleRangeChanged(first_, last_);
    request();
  });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
    const QString text = readoutAt(plot_->xAxis->pixelToCoord(event->position().x()),
                                   plot_->yAxis->pixelToCoord(event->position().y()));
    readout_->setText(text);
    emit readout(text);
  });
  const auto settingsChanged = [this] {
    readSettings();
    rebuild();
  };
  connect(window_, &QComboBox::currentTextChanged, this, settingsChanged);
  connect(segment_, &QComboBox::currentIndexChanged, this, settingsChanged);
  connect(overlap_, &QSpinBox::valueChanged, this, settingsChanged);
  connect(colours_, &QComboBox::currentTextChanged, this, &SpectrogramView::setColourMap);
  connect(autoRange_, &QCheckBox::toggled, this, [this](bool on) {
    low_->setEnabled(!on);
    high_->setEnabled(!on);
    redraw();
  });
  connect(low_, &QDoubleSpinBox::valueChanged, this, &SpectrogramView::redraw);
  connect(high_, &QDoubleSpinBox::valueChanged, this, &SpectrogramView::redraw);
  connect(exportButton, &QPushButton::clicked, this, &SpectrogramView::exportChosen);
  redraw();
}

SpectrogramView::~SpectrogramView() { runner_->abandon(); }

bool SpectrogramView::busy() const { return runner_->busy(); }

void SpectrogramView::setSignal(SignalPtr signal) {
  // A mapped file's indexed signal after its preview: the same samples, so the same tiles and view.
  const bool same = signal && signal_ && signal->mapping() && signal->mapping() == signal_->mapping();
  signal_ = std::move(signal);
  if (same) return request();
  first_ = 0;
  last_ = signal_ ? static_cast<double>(signal_->size()) : 0;
  rebuild();
}

void SpectrogramView::setSampleRate(std::optional<double> rate) {
  if (rate == rate_) return;
  rate_ = rate;
  rebuild();
}

void SpectrogramView::setVisibleRange(double first, double last) {
  if (!signal_) return;
  const auto size = static_cast<double>(signal_->size());
  first = std::clamp(first, 0.0, size);
  last = std::clamp(last, first, size);
  if (std::abs(first - first_) < 1 && std::abs(last - last_) < 1) return;  // our own range, come back rounded
  first_ = first;
  last_ = last;
  request();
}

void SpectrogramView::setColourMap(const QString& name) {
  if (colours_->currentText() != name) colours_->setCurrentText(name);
  map_->setGradient(colourGradient(name));
  plot_->replot();
}

void SpectrogramView::setDecibelRange(std::optional<std::pair<double, double>> range) {
  autoRange_->setChecked(!range);
  if (range) {
    low_->setValue(range->first);
    high_->setValue(range->second);
  }
  redraw();
}

void SpectrogramView::setSegment(std::size_t nperseg, std::size_t noverlap, const QString& window) {
  const QSignalBlocker a(segment_), b(overlap_), c(window_);
  if (segment_->findData(static_cast<int>(nperseg)) < 0) segment_->addItem(QString::number(nperseg), static_cast<int>(nperseg));
  segment_->setCurrentIndex(segment_->findData(static_cast<int>(nperseg)));
  overlap_->setMaximum(static_cast<int>(nperseg) - 1);
  overlap_->setValue(static_cast<int>(noverlap));
  window_->setCurrentText(window);
  rebuild();
}

void SpectrogramView::readSettings() {
  const QSignalBlocker blocker(overlap_);
  overlap_->setMaximum(segment_->currentData().toInt() - 1);
}

// The request is dropped at once (the view is free for the next); its worker stops at its next
// check, after the reads in flight, and the tiles it made stay in the cache.
void SpectrogramView::cancel() {
  runner_->abandon();
  note_->setText(note());
}

void SpectrogramView::rebuild() {
  runner_->abandon();
  tiles_.reset();
  problem_.clear();
  if (signal_ && signal_->size() > 0) {
    SpectrogramOptions o;
    o.window = window_->currentText().toStdString();
    o.nperseg = static_cast<std::size_t>(segment_->currentData().toInt());
    o.noverlap = static_cast<std::size_t>(overlap_->value());
    try {
      tiles_ = std::make_shared<SpectrogramTiles>(spectrogramLayout(o, signal_->size(), rate_), kCacheBytes);
    } catch (const std::exception& e) {
      problem_ = QString::fromStdString(e.what());
    }
  }
  const QString unit = rate_ ? tr("Frequency (Hz)") : tr("Frequency (cycles/sample)");
  plot_->yAxis->setLabel(unit);
  if (rate_) {
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new TimeAxisTicker(*rate_)));
  } else {
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new IndexAxisTicker));
  }
  request();
}

std::size_t SpectrogramView::columns() const {
  return static_cast<std::size_t>(std::max(64, plot_->axisRect()->width()));
}

void SpectrogramView::request() {
  if (!tiles_ || !isVisible()) return scheduleRedraw();  // a hidden view asks for nothing until shown
  ++tileRequests_;
  std::vector<TileKey> keys = tiles_->missingFor(first_, last_, columns());
  if (keys.empty()) {
    runner_->abandon();
    coarse_->stop();
    return scheduleRedraw();
  }
  // The coarser levels cached are drawn if the tiles take longer than kCoarseAfterMs: a zoom step
  // whose tiles come sooner is drawn once, at screen resolution.
  complete_ = false;
  if (!coarse_->isActive()) coarse_->start();
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  TilesRequest tilesRequest{tiles_, std::move(keys), signal_};
  runner_->start<TilesOutcome>(tr("Spectrogram"), cancel, QtConcurrent::run(&computeTiles, tilesRequest, cancel),
                               [this](const QFuture<TilesOutcome>& future) {
                                 if (future.resultCount() > 0) {
                                   const TilesOutcome outcome = future.result();
                                   engine_ = outcome.engine;
                                   problem_ = outcome.error;
                                 }
                                 coarse_->stop();
                                 scheduleRedraw();
                               });
}

// Every change of range, tiles or settings in one turn of the event loop gives one drawing (a zoom
// through the signal plot moves the range more than once).
void SpectrogramView::scheduleRedraw() {
  complete_ = false;  // until that drawing says
  if (redrawQueued_) return;
  redrawQueued_ = true;
  QMetaObject::invokeMethod(this, [this] {
    if (redrawQueued_) redraw();
  }, Qt::QueuedConnection);
}

void SpectrogramView::redraw() {
  redrawQueued_ = false;
  const std::size_t columns = this->columns();
  QCPColorMapData* cells = map_->data();
  if (!tiles_ || !(last_ > first_)) {
    cells->clear();
    complete_ = covered_ = false;
    note_->setText(!problem_.isEmpty() ? problem_ : signal_ ? tr("Too few samples for a spectrogram") : tr("No signal"));
    plot_->replot();
    emit drawn();
    return;
  }
  const SpectrogramLayout& l = tiles_->layout();
  drawnInsertions_ = tiles_->cache().insertions();
  const std::vector<ViewColumn> shown = tiles_->columnsFor(first_, last_, columns);
  const std::size_t rows = std::min({l.frequencies, kMaxRows, static_cast<std::size_t>(std::max(16, plot_->axisRect()->height()))});
  const double nyquist = static_cast<double>(l.frequencies - 1) * l.rate / static_cast<double>(l.nfft);
  const double width = (last_ - first_) / static_cast<double>(columns);
  cells->setSize(static_cast<int>(columns), static_cast<int>(rows));
  cells->setRange(QCPRange(first_ + width / 2, last_ - width / 2), QCPRange(0, nyquist));
  // Each column's frame, and the distinct frames drawn (a zoom past the frames' resolution, or the
  // overview while tiles come, shows one frame on several columns): their decibels are computed once.
  std::vector<std::ptrdiff_t> frameOfColumn(columns, -1);  // into `powers`; -1: nothing cached there
  std::vector<const double*> powers;
  const SpectrogramTile* previousTile = nullptr;
  std::size_t previousRow = 0;
  unsigned coarsest = 0;
  complete_ = true;
  covered_ = true;
  const unsigned wanted = tiles_->wantedLevel(first_, last_, columns);
  for (std::size_t c = 0; c < columns; ++c) {
    const ViewColumn& shownColumn = shown[c];
    if (!shownColumn.tile) {
      complete_ = covered_ = false;
      previousTile = nullptr;
      continue;
    }
    coarsest = std::max(coarsest, shownColumn.level);
    if (shownColumn.level > wanted) complete_ = false;
    if (shownColumn.tile.get() != previousTile || shownColumn.row != previousRow) {
      powers.push_back(shownColumn.tile->row(shownColumn.row));
      previousTile = shownColumn.tile.get();
      previousRow = shownColumn.row;
    }
    frameOfColumn[c] = static_cast<std::ptrdiff_t>(powers.size()) - 1;
  }
  // Row by row, as QCPColorMapData holds its cells (a column at a time strides the whole map).
  std::vector<double> decibels;  // of each frame drawn once, for the automatic range
  decibels.reserve(powers.size() * rows);
  std::vector<double> row(powers.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t bin = rows > 1 ? (r * (l.frequencies - 1) + (rows - 1) / 2) / (rows - 1) : 0;
    for (std::size_t f = 0; f < powers.size(); ++f) row[f] = powerDecibels(powers[f][bin]);
    decibels.insert(decibels.end(), row.begin(), row.end());
    for (std::size_t c = 0; c < columns; ++c) {
      const std::ptrdiff_t f = frameOfColumn[c];
      cells->setCell(static_cast<int>(c), static_cast<int>(r), f < 0 ? std::nan("") : row[static_cast<std::size_t>(f)]);
    }
  }
  levelDrawn_ = coarsest;
  const std::pair<double, double> range =
      autoRange_->isChecked() ? autoDecibelRange(std::move(decibels)) : std::pair{low_->value(), std::max(high_->value(), low_->value() + 0.1)};
  if (autoRange_->isChecked()) {
    const QSignalBlocker a(low_), b(high_);
    low_->setValue(range.first);
    high_->setValue(range.second);
  }
  map_->setDataRange(QCPRange(range.first, range.second));
  {
    applying_ = true;
    plot_->xAxis->setRange(first_, last_);
    applying_ = false;
  }
  plot_->yAxis->setRange(0, nyquist);
  fitTicksToLabels(plot_->xAxis);
  note_->setText(note());
  plot_->replot();
  emit drawn();
}

QString SpectrogramView::note() const {
  if (!tiles_) return problem_;
  const std::uint64_t stride = std::uint64_t{1} << levelDrawn_;
  QString text = levelDrawn_ == 0 ? tr("every frame") : tr("overview: every %1 frame").arg(ordinal(stride));
  const SpectrogramLayout& l = tiles_->layout();
  text += tr(" of %1 (%2-sample segments every %3)").arg(QLocale().toString(static_cast<qulonglong>(l.frames))).arg(l.nperseg).arg(l.step);
  if (!complete_) text += tr(", refining");
  if (!engine_.isEmpty()) text += QStringLiteral(" · ") + engine_;
  if (!problem_.isEmpty()) text += QStringLiteral(" · ") + problem_;
  return text;
}

QString SpectrogramView::readoutAt(double key, double frequency) {
  if (!tiles_ || key < first_ || key > last_) return {};
  const SpectrogramLayout& l = tiles_->layout();
  const ViewColumn column = tiles_->columnAt(key, first_, last_, columns());
  if (!column.tile) return {};
  const double binWidth = l.rate / static_cast<double>(l.nfft);
  const auto bin = static_cast<std::size_t>(std::clamp(std::round(frequency / binWidth), 0.0, static_cast<double>(l.frequencies - 1)));
  const double frameCentre = static_cast<double>(column.frame * l.step) + static_cast<double>(l.nperseg) / 2.0;
  const QString time = rate_ ? tr("t = %1").arg(timeOfSample(frameCentre, *rate_, 6)) : tr("sample %1").arg(frameCentre, 0, 'f', 1);
  return tr("f = %1, %2, %3 dB")
      .arg(frequencyText(static_cast<double>(bin) * binWidth, rate_), time)
      .arg(powerDecibels(column.tile->row(column.row)[bin]), 0, 'f', 1);
}

QString SpectrogramView::exportTo(const QString& path) {
  try {
    savePlot(plot_, path, {0, 0, tr("Spectrogram")});
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

void SpectrogramView::exportChosen() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the spectrogram"), "spectrogram.png",
                                                    tr("Images (*.png *.svg *.pdf)"));
  if (path.isEmpty()) return;
  if (const QString error = exportTo(path); !error.isEmpty()) note_->setText(error);
}

void SpectrogramView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  request();
}

void SpectrogramView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (isVisible()) QTimer::singleShot(0, this, &SpectrogramView::request);  // after the layout gives the plot its size
}

// Esc stops the running request when the view has the focus, before the window's Cancel takes it.
bool SpectrogramView::eventFilter(QObject* watched, QEvent* event) {
  if ((event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) && busy() &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
    event->accept();
    if (event->type() == QEvent::KeyPress) cancel();
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace siglab::gui
