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

#include "siglab/cuda_spectrum.hpp"
#include "siglab/device_list.hpp"
#include "siglab/filter_kinds.hpp"

namespace siglab::gui {
namespace {

const QColor kOriginalColor(84, 110, 122);
const QColor kFilteredColor(230, 81, 0);
const QColor kResponseColor(21, 101, 192);
enum RangeChoice { kWhole, kVisible };
constexpr std::size_t kMappedSpectrumSamples = std::size_t{1} << 25;  // 256 MiB of float64

// Welch on `devices` where they can run it, else FFTW; `engine` says which ran.
Spectrum welchOn(std::span<const double> x, const WelchOptions& options, const std::optional<std::vector<int>>& devices,
                 QString& engine) {
  if (devices) {
    GpuSpectrumRun gpu = welchGpu(x, options, 0, *devices);
    if (gpu.ok) {
      engine = QObject::tr("cuFFT on %1")
                   .arg(QString::fromStdString(formatDevicePlacement(devices->empty() ? std::vector<int>{0} : *devices)));
      return std::move(gpu.spectrum);
    }
  }
  engine = QObject::tr("FFTW");
  return welch(x, options);
}

// Welch's spectrum of `range`, from a mapped signal in pieces of whole segments (about 8 MiB), each
// piece's pages let go behind it so resident memory stays one piece; the pieces' averages weighted by
// their segment counts are the whole range's average. In memory: one call.
Spectrum spectrumOf(const LoadedSignal& signal, SampleRange range, const WelchOptions& options,
                    const std::optional<std::vector<int>>& devices, QString& engine) {
  const MappedSignal* mapping = signal.mapping();
  if (!mapping) {
    return welchOn(std::span(signal.samples()).subspan(range.begin, range.end - range.begin), options, devices, engine);
  }
  const std::size_t step = options.segment - options.overlapOrDefault();
  const std::size_t segments = segmentCount(options, range.end - range.begin);
  const std::size_t perPiece = std::max<std::size_t>(1, (std::size_t{1} << 20) / step);
  Spectrum whole{spectrumFrequencies(options), std::vector<double>(frequencyCount(options), 0.0)};
  for (std::size_t first = 0; first < segments; first += perPiece) {
    const std::size_t count = std::min(perPiece, segments - first);
    const std::size_t begin = first * step, length = (count - 1) * step + options.segment;
    std::vector<double> samples(length);
    signal.read(range.begin + begin, samples);  // its pages let go behind
    const Spectrum piece = welchOn(samples, options, devices, engine);
    for (std::size_t k = 0; k < whole.power.size(); ++k) whole.power[k] += piece.power[k] * static_cast<double>(count);
  }
  for (double& p : whole.power) p /= static_cast<double>(segments);
  return whole;
}

SpectrumCurves computeCurves(SignalPtr original, SignalPtr filtered, std::optional<FilterSpec> spec, SampleRange range,
                             std::size_t segment, std::optional<double> sampleRate,
                             std::optional<std::vector<int>> devices) {
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
  curves.original = spectrumOf(*original, range, options, devices, curves.engine);
  // A chain that changed the rate (decimate) gives another length: its samples are not the
  // original's range, so its spectrum is not drawn over the original's (nor read past its end).
  if (filtered && filtered->size() == original->size()) {
    curves.filtered = spectrumOf(*filtered, range, options, devices, curves.engine);
    // On the spectrum's own frequencies (bins 0..F-2; freqz stops short of Nyquist).
    if (spec) {
      curves.response = filterResponse(*spec, std::max<std::size_t>(1, options.segment / 2), sampleRate);
      curves.noResponse = QString::fromStdString(whyNoResponse(*spec));
    }
  }
  return curves;
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
  watcher_ = new QFutureWatcher<SpectrumCurves>(this);
  connect(watcher_, &QFutureWatcher<SpectrumCurves>::finished, this, &SpectrumView::finished);
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

void SpectrumView::recompute() {
  rangeTimer_->stop();
  if (computing_) {
    pending_ = true;
    return;
  }
  pending_ = false;
  if (!original_) {
    curves_ = SpectrumCurves{};
    draw();
    return;
  }
  computing_ = true;
  note_->setText(tr("Computing the spectrum…"));
  const SampleRange range = range_->currentIndex() == kVisible ? visible_ : SampleRange{0, original_->size()};
  watcher_->setFuture(QtConcurrent::run(&computeCurves, original_, filtered_, spec_, range,
                                        static_cast<std::size_t>(segment_->currentData().toInt()), sampleRate_,
                                        devices_));
}

void SpectrumView::finished() {
  computing_ = false;
  if (pending_) {
    recompute();  // the signal, the rate or the range changed meanwhile
    return;
  }
  curves_ = watcher_->result();
  draw();
}

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
