#include "spectrum_view.hpp"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

#include "siglab/filter_kinds.hpp"
#include "siglab/progress.hpp"
#include "siglab/welch_range.hpp"
#include "siglab/work_progress.hpp"
#include "spectrum_engine.hpp"
#include "task_runner.hpp"
#include "task_status.hpp"

namespace siglab::gui {
namespace {

const QColor kOriginalColor(84, 110, 122);
const QColor kFilteredColor(230, 81, 0);
const QColor kResponseColor(21, 101, 192);
enum RangeChoice { kWhole, kVisible };
constexpr std::size_t kMappedSpectrumSamples = std::size_t{1} << 25;  // 256 MiB of float64

// The signal's samples as core's spectrum reads them: in memory, or through its file's mapping.
WelchSource welchSourceOf(const LoadedSignal& signal) { return {signal.samples(), signal.mapping()}; }

SpectrumCurves curvesOf(SignalPtr original, SignalPtr filtered, std::optional<FilterSpec> spec, SampleRange range,
                        std::size_t segment, std::optional<double> sampleRate, WelchEngineChoice engine,
                        const Progress& progress) {
  SpectrumCurves curves;
  range.end = std::min(range.end, original->size());
  range.begin = std::min(range.begin, range.end);
  curves.range = range;
  const std::size_t length = range.end - range.begin;
  if (length < 2) {
    curves.problem = QObject::tr("Too few samples for a spectrum: show at least 2");
    return curves;
  }
  if (original->mapping() && length > kMappedSpectrumSamples) {  // a pass over the file this long is not worth the wait
    curves.problem = QObject::tr("This signal is viewed from its file: a spectrum covers at most %1 samples here; "
                                 "choose the visible range and zoom in")
                         .arg(QLocale().toString(static_cast<qulonglong>(kMappedSpectrumSamples)));
    return curves;
  }
  WelchOptions options;
  options.segment = std::min(segment, length);
  options.sampleRate = sampleRate;
  curves.segment = options.segment;
  // A chain that changed the rate (decimate) gives another length: its samples are not the
  // original's range, so its spectrum is not drawn over the original's (nor read past its end).
  const bool withFiltered = filtered && filtered->size() == original->size();
  const WelchRun run = welchRunFor(engine);
  curves.original = welchOfRange(welchSourceOf(*original), range, options, run,
                                 progressPart(progress, 0.0, withFiltered ? 0.5 : 1.0));
  curves.engine = QString::fromStdString(engine.note());
  if (withFiltered) {
    curves.filtered = welchOfRange(welchSourceOf(*filtered), range, options, run, progressPart(progress, 0.5, 1.0));
    curves.engine = QString::fromStdString(engine.note());
    // On the spectrum's own frequencies (bins 0..F-2; freqz stops short of Nyquist).
    if (spec) {
      curves.response = filterResponse(*spec, std::max<std::size_t>(1, options.segment / 2), sampleRate);
      curves.noResponse = QString::fromStdString(whyNoResponse(*spec));
    }
  }
  return curves;
}

// The spectra in a worker: progress in thousandths; a cancel leaves no result.
void computeCurves(QPromise<SpectrumCurves>& promise, SignalPtr original, SignalPtr filtered,
                   std::optional<FilterSpec> spec, SampleRange range, std::size_t segment,
                   std::optional<double> sampleRate, WelchEngineChoice engine,
                   std::shared_ptr<const std::atomic<bool>> cancel) {
  promise.setProgressRange(0, 1000);
  Progress progress;
  progress.cancelFlag = cancel.get();
  progress.onProgress = [&promise](double fraction) { promise.setProgressValue(static_cast<int>(fraction * 1000)); };
  try {
    promise.addResult(curvesOf(std::move(original), std::move(filtered), std::move(spec), range, segment, sampleRate,
                               std::move(engine), progress));
  } catch (const Cancelled&) {
  } catch (const std::exception& e) {
    SpectrumCurves failed;
    failed.problem = QObject::tr("No spectrum: %1").arg(QString::fromStdString(e.what()));
    promise.addResult(std::move(failed));
  }
}

void setCurve(QCPGraph* graph, const std::vector<double>& keys, const std::vector<double>& values, bool skipZero) {
  QVector<QCPGraphData> data;
  for (std::size_t k = skipZero ? 1 : 0; k < keys.size(); ++k) data.push_back({keys[k], values[k]});
  graph->data()->set(data, true);
}

}  // namespace

SpectrumView::SpectrumView(QWidget* parent) : QWidget(parent) {
  segment_ = new QComboBox;
  for (int n = 256; n <= 65536; n *= 2) segment_->addItem(QString::number(n), n);
  segment_->setCurrentIndex(segment_->findData(4096));
  segment_->setToolTip(tr("Samples a Welch segment: longer gives finer frequency steps and noisier estimates"));
  range_ = new QComboBox;
  range_->addItems({tr("whole signal"), tr("visible range")});
  range_->setToolTip(tr("The samples the spectrum is computed from: all of them, or those the plot shows"));
  logFrequency_ = new QCheckBox(tr("Log frequency"));
  note_ = new QLabel;
  note_->setWordWrap(true);

  plot_ = new QCustomPlot;
  plot_->setMinimumSize(320, 200);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->yAxis->setLabel(tr("power (dB)"));
  plot_->yAxis2->setVisible(true);
  plot_->yAxis2->setLabel(tr("filter response (dB)"));
  originalGraph_ = plot_->addGraph();
  originalGraph_->setPen(QPen(kOriginalColor, 1.0));
  originalGraph_->setName(tr("original"));
  filteredGraph_ = plot_->addGraph();
  filteredGraph_->setPen(QPen(kFilteredColor, 1.2));
  filteredGraph_->setName(tr("filtered"));
  responseGraph_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  responseGraph_->setPen(QPen(kResponseColor, 1.5, Qt::DashLine));
  responseGraph_->setName(tr("filter response"));
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(QColor(255, 255, 255, 220));
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

  rangeTimer_ = new QTimer(this);
  rangeTimer_->setSingleShot(true);
  rangeTimer_->setInterval(kVisibleRefreshMs);
  connect(rangeTimer_, &QTimer::timeout, this, &SpectrumView::recompute);
  status_ = new TaskStatus;  // the window's status bar takes it (MainWindow)
  status_->setObjectName("spectrumStatus");
  tasks_ = new TaskRunner(status_, this);
  connect(segment_, &QComboBox::currentIndexChanged, this, &SpectrumView::recompute);
  connect(range_, &QComboBox::currentIndexChanged, this, &SpectrumView::recompute);
  connect(logFrequency_, &QCheckBox::toggled, this, &SpectrumView::draw);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Segment")));
  controls->addWidget(segment_);
  controls->addWidget(new QLabel(tr("of the")));
  controls->addWidget(range_);
  controls->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(logFrequency_);  // a row of its own: the view fits a narrow dock
  layout->addWidget(plot_, 1);
  layout->addWidget(note_);
  draw();
}

void SpectrumView::setOriginal(SignalPtr signal) {
  original_ = std::move(signal);
  filtered_.reset();
  spec_.reset();
  visible_ = {0, original_ ? original_->size() : 0};
  recompute();
}

void SpectrumView::setFiltered(SignalPtr signal, FilterSpec spec) {
  filtered_ = std::move(signal);
  spec_ = std::move(spec);
  recompute();
}

void SpectrumView::setSampleRate(std::optional<double> sampleRate) {
  if (sampleRate == sampleRate_) return;
  sampleRate_ = sampleRate;
  recompute();
}

void SpectrumView::setVisibleRange(std::size_t first, std::size_t last) {
  visible_ = {first, last};
  if (range_->currentIndex() == kVisible && !rangeTimer_->isActive()) rangeTimer_->start();
}

void SpectrumView::setVisibleOnly(bool visibleOnly) { range_->setCurrentIndex(visibleOnly ? kVisible : kWhole); }
void SpectrumView::setLogFrequency(bool logarithmic) { logFrequency_->setChecked(logarithmic); }
void SpectrumView::setSegment(std::size_t segment) { segment_->setCurrentIndex(segment_->findData(static_cast<int>(segment))); }
void SpectrumView::setDevices(std::vector<int> devices) {
  devices_ = std::move(devices);
  recompute();
}

TaskStatus* SpectrumView::taskStatus() const { return status_; }

SpectrumView::~SpectrumView() {
  if (status_ && !status_->parent()) delete status_.data();  // no status bar took it
}

// A new request replaces the running one (TaskRunner): its worker stops at its next piece.
void SpectrumView::recompute() {
  rangeTimer_->stop();
  if (!original_) {
    tasks_->abandon();
    curves_ = SpectrumCurves{};
    draw();
    return;
  }
  note_->setText(tr("Computing the spectrum…"));
  const SampleRange range = range_->currentIndex() == kVisible ? visible_ : SampleRange{0, original_->size()};
  const std::size_t end = std::min(range.end, original_->size());  // as curvesOf clamps it
  const std::uint64_t length = end - std::min(range.begin, end);
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  tasks_->start<SpectrumCurves>(
      tr("Computing the spectrum"), cancel,
      QtConcurrent::run(&computeCurves, original_, filtered_, spec_, range,
                        static_cast<std::size_t>(segment_->currentData().toInt()), sampleRate_,
                        welchEngineHere("auto", devices_, length), std::shared_ptr<const std::atomic<bool>>(cancel)),
      [this](const QFuture<SpectrumCurves>& done) {
        curves_ = SpectrumCurves{};
        if (done.resultCount() == 0) curves_.problem = tr("Spectrum cancelled: change the range or segment to compute it again");
        else curves_ = done.result();
        draw();
      });
}

void SpectrumView::cancel() { tasks_->cancel(); }

bool SpectrumView::computing() const { return tasks_->busy(); }

void SpectrumView::draw() {
  const bool logarithmic = logFrequency_->isChecked();
  plot_->xAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  plot_->xAxis->setTicker(logarithmic ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                      : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  plot_->xAxis->setLabel(sampleRate_ ? tr("frequency (Hz)") : tr("frequency (cycles per sample)"));
  const Spectrum& o = curves_.original;
  setCurve(originalGraph_, o.frequency, powerToDecibels(o.power), logarithmic);
  if (curves_.filtered) setCurve(filteredGraph_, curves_.filtered->frequency, powerToDecibels(curves_.filtered->power), logarithmic);
  else filteredGraph_->data()->clear();
  if (curves_.response) setCurve(responseGraph_, curves_.response->frequency, curves_.response->magnitudeDb(), logarithmic);
  else responseGraph_->data()->clear();
  filteredGraph_->addToLegend();
  responseGraph_->addToLegend();
  if (!curves_.filtered) filteredGraph_->removeFromLegend();
  if (!curves_.response) responseGraph_->removeFromLegend();

  if (!o.frequency.empty()) {
    const double nyquist = o.frequency.back();
    plot_->xAxis->setRange(logarithmic && o.frequency.size() > 1 ? o.frequency[1] : 0.0, nyquist);
    originalGraph_->rescaleValueAxis(false, true);
    if (curves_.filtered) filteredGraph_->rescaleValueAxis(true, true);
    plot_->yAxis2->setRange(-120.0, 5.0);  // a filter's passband at 0 dB, its stopband below
  }
  QString text = curves_.problem;
  if (text.isEmpty() && original_) {
    text = tr("Welch PSD (Hann, half overlap, density) of samples %1–%2, segment %3")
               .arg(curves_.range.begin).arg(curves_.range.end == 0 ? 0 : curves_.range.end - 1).arg(curves_.segment);
    if (!curves_.engine.isEmpty()) text += tr(" (%1)").arg(curves_.engine);
    if (!sampleRate_) text += tr("; set the sample rate to read Hz");
    if (!curves_.noResponse.isEmpty()) text += tr("; no response curve: %1").arg(curves_.noResponse);
  }
  note_->setText(text);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace siglab::gui
