#include "filter_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QFutureWatcher>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>
#include <stdexcept>
#include <utility>

#include "siglab/filter_kinds.hpp"
#include "odd_spin_box.hpp"
#include "siglab/taps.hpp"

namespace siglab::gui {
namespace {

constexpr const char* kMean = "mean";
constexpr const char* kGaussian = "gaussian";
constexpr const char* kCustom = "custom";
constexpr const char* kMedian = "median";
constexpr const char* kSavgol = "savgol";
constexpr const char* kButter = "butter";
constexpr int kInterp = -1;  // the mode box's "interp" entry: Savitzky-Golay's edges

// A row of the form: several labelled controls side by side.
QWidget* rowOf(std::initializer_list<QWidget*> widgets) {
  auto* row = new QWidget;
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  for (QWidget* w : widgets) layout->addWidget(w);
  return row;
}
constexpr double kDefaultSigma = 1.0;  // 9 taps, as --gaussian 1
constexpr BoundaryMode kModes[] = {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror,
                                   BoundaryMode::Nearest, BoundaryMode::Wrap};

std::optional<std::vector<double>> parseTaps(const QString& text, QString* error) {
  std::vector<double> taps;
  for (const QString& part : text.split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts)) {
    bool ok = false;
    const double value = part.toDouble(&ok);
    if (!ok || !std::isfinite(value)) {
      *error = "custom taps: \"" + part + "\" is not a number";
      return std::nullopt;
    }
    taps.push_back(value);
  }
  if (taps.size() % 2 == 0) {
    *error = QString("custom taps: need an odd number of taps, found %1").arg(taps.size());
    return std::nullopt;
  }
  return taps;
}

}  // namespace

FilterPanel::FilterPanel(const BackendList& engines, QWidget* parent) : QWidget(parent), engines_(engines) {
  auto* filterBox = new QGroupBox(tr("Filter"));
  form_ = new QFormLayout(filterBox);
  window_ = new OddSpinBox;
  window_->setRange(1, 100001);
  window_->setValue(static_cast<int>(kDefaultWindow));
  window_->setSuffix(tr(" samples"));
  window_->setToolTip(tr("Window length W (odd): each output averages W samples centred on it"));
  form_->addRow(tr("Window"), window_);

  taps_ = new QComboBox;
  taps_->addItem(tr("Mean (1/W)"), kMean);
  taps_->addItem(tr("Gaussian (sigma)"), kGaussian);
  taps_->addItem(tr("Custom"), kCustom);
  taps_->addItem(tr("Median"), kMedian);
  taps_->addItem(tr("Savitzky-Golay"), kSavgol);
  taps_->addItem(tr("Butterworth"), kButter);
  taps_->setToolTip(tr("What the filter computes: weights applied across the window (mean, Gaussian, custom), the "
                       "window's median, a Savitzky-Golay polynomial fit, or a Butterworth IIR filter"));
  form_->addRow(tr("Taps"), taps_);

  savgolOrder_ = new QSpinBox;
  savgolOrder_->setRange(0, static_cast<int>(kMaxSavgolOrder));
  savgolOrder_->setValue(2);
  savgolOrder_->setPrefix(tr("order "));
  savgolOrder_->setToolTip(tr("Degree of the polynomial fitted to each window: below W (--savgol W,ORDER)"));
  savgolDeriv_ = new QSpinBox;
  savgolDeriv_->setRange(0, static_cast<int>(kMaxSavgolOrder));
  savgolDeriv_->setPrefix(tr("deriv "));
  savgolDeriv_->setToolTip(tr("Derivative of the fit to output, at most the order (0: the smoothed signal)"));
  form_->addRow(tr("Polynomial"), rowOf({savgolOrder_, savgolDeriv_}));

  butterOrder_ = new QSpinBox;
  butterOrder_->setRange(1, kMaxButterworthOrder);
  butterOrder_->setValue(4);
  butterOrder_->setPrefix(tr("order "));
  butterOrder_->setToolTip(tr("Butterworth order, 1 to 32 (--butter ORDER,...)"));
  band_ = new QComboBox;
  for (const char* band : {"lowpass", "highpass", "bandpass", "bandstop"}) band_->addItem(band, band);
  band_->setToolTip(tr("Which frequencies pass"));
  form_->addRow(tr("Butterworth"), rowOf({butterOrder_, band_}));
  cutoff_ = new QDoubleSpinBox;
  cutoff2_ = new QDoubleSpinBox;
  for (QDoubleSpinBox* box : {cutoff_, cutoff2_}) {
    box->setRange(0.0, 1.0);
    box->setDecimals(4);
    box->setSingleStep(0.05);
    box->setToolTip(tr("Cutoff as a fraction of Nyquist, strictly between 0 and 1 (the second: a band's upper edge)"));
  }
  cutoff_->setValue(0.2);
  cutoff2_->setValue(0.4);
  form_->addRow(tr("Cutoffs"), rowOf({cutoff_, cutoff2_}));
  zeroPhase_ = new QCheckBox(tr("Zero phase (forward and backward)"));
  zeroPhase_->setChecked(true);
  zeroPhase_->setToolTip(tr("scipy.signal.sosfiltfilt: no phase shift, the magnitude squared (--zero-phase)"));
  form_->addRow(QString(), zeroPhase_);

  sigma_ = new QDoubleSpinBox;
  sigma_->setRange(0.1, 10000.0);
  sigma_->setDecimals(2);
  sigma_->setSingleStep(0.5);
  sigma_->setValue(kDefaultSigma);
  sigma_->setToolTip(tr("The Gaussian's standard deviation in samples; the window is 2 round(4 sigma) + 1 taps, "
                        "as scipy.ndimage.gaussian_filter1d and siglab-cli --gaussian"));
  gaussianWindow_ = new QLabel;
  gaussianWindow_->setStyleSheet("color: #757575;");
  auto* sigmaRow = new QWidget;
  auto* sigmaLayout = new QHBoxLayout(sigmaRow);
  sigmaLayout->setContentsMargins(0, 0, 0, 0);
  sigmaLayout->addWidget(sigma_, 1);
  sigmaLayout->addWidget(gaussianWindow_);
  form_->addRow(tr("Sigma"), sigmaRow);
  connect(sigma_, &QDoubleSpinBox::valueChanged, this, &FilterPanel::updateTapControls);

  customTaps_ = new QLineEdit("0.25, 0.5, 0.25");
  customTaps_->setToolTip(tr("An odd number of weights, separated by commas or spaces; the window follows their count"));
  form_->addRow(tr("Weights"), customTaps_);

  mode_ = new QComboBox;
  for (BoundaryMode m : kModes) mode_->addItem(QString::fromStdString(std::string(toString(m))), static_cast<int>(m));
  mode_->addItem("interp", kInterp);
  mode_->setToolTip(tr("How samples beyond the ends are taken (scipy.ndimage.correlate1d's modes; zero is the seed's); "
                       "interp: Savitzky-Golay's fit to the first and last W samples"));
  form_->addRow(tr("Boundary"), mode_);
  specError_ = new QLabel;
  specError_->setWordWrap(true);
  specError_->setStyleSheet("color: #c62828;");
  form_->addRow(QString(), specError_);

  dtype_ = new QComboBox;
  dtype_->addItem(tr("float64"), "f64");
  dtype_->addItem(tr("float32"), "f32");
  dtype_->setToolTip(tr("Sample type the engines run in (float32: half the bytes; samples beyond its range are "
                        "refused), as siglab-cli --dtype"));
  form_->addRow(tr("Samples"), dtype_);
  accumulator_ = new QComboBox;
  accumulator_->addItem(tr("float32"), "f32");
  accumulator_->addItem(tr("float64"), "f64");
  accumulator_->setToolTip(tr("With float32 samples: sum in float32, or in float64 rounded once (--accumulate)"));
  form_->addRow(tr("Accumulate"), accumulator_);

  auto* runBox = new QGroupBox(tr("Engines run"));
  auto* runForm = new QFormLayout(runBox);
  blockSize_ = new QSpinBox;
  blockSize_->setRange(32, 1024);
  blockSize_->setSingleStep(32);
  blockSize_->setValue(RunOptions{}.blockSize);
  blockSize_->setSuffix(tr(" threads"));
  blockSize_->setToolTip(tr("GPU threads per block (--block-size)"));
  runForm->addRow(tr("Block size"), blockSize_);
  gpuBudget_ = new QSpinBox;
  gpuBudget_->setRange(0, 1 << 20);
  gpuBudget_->setSpecialValueText(tr("90% of free"));
  gpuBudget_->setSuffix(tr(" MiB"));
  gpuBudget_->setToolTip(tr("GPU memory gpu-tuned may use; a signal over it goes in chunks (--gpu-memory-budget)"));
  runForm->addRow(tr("GPU budget"), gpuBudget_);
  repeat_ = new QSpinBox;
  repeat_->setRange(1, 1000);
  repeat_->setValue(MeasureOptions{}.repeats);
  repeat_->setSuffix(tr(" runs"));
  repeat_->setToolTip(tr("Compare: timed runs per engine after one warm-up; the median is reported"));
  runForm->addRow(tr("Repeat"), repeat_);

  auto* applyBox = new QGroupBox(tr("Apply"));
  auto* applyLayout = new QVBoxLayout(applyBox);
  applyEngine_ = new QComboBox;
  applyEngine_->addItem(tr("auto (fastest that can run it here)"), "auto");
  for (const auto& e : engines_) applyEngine_->addItem(QString::fromStdString(std::string(e->name())), QString::fromStdString(std::string(e->name())));
  applyEngine_->setToolTip(tr("The one engine Apply runs (siglab-cli filter --engine)"));
  applyLayout->addWidget(applyEngine_);
  apply_ = new QPushButton(tr("Apply"));
  apply_->setToolTip(tr("Filter the signal once with the chosen engine, verify it where engines go wrong, and show "
                        "its result (Ctrl+Return)"));
  connect(apply_, &QPushButton::clicked, this, &FilterPanel::applyRequested);
  applyLayout->addWidget(apply_);

  auto* enginesBox = new QGroupBox(tr("Compare engines"));
  auto* enginesLayout = new QVBoxLayout(enginesBox);
  for (const auto& e : engines_) {
    auto* box = new QCheckBox(QString::fromStdString(std::string(e->name())));
    box->setChecked(true);
    if (e->name() == "cpu-serial") box->setEnabled(false);  // the reference always runs
    enginesLayout->addWidget(box);
    engineBoxes_.push_back(box);
  }
  unavailableNote_ = new QLabel;
  unavailableNote_->setWordWrap(true);
  unavailableNote_->setStyleSheet("color: #757575; font-size: small;");
  enginesLayout->addWidget(unavailableNote_);

  run_ = new QPushButton(tr("Compare engines"));
  run_->setToolTip(tr("Measure every checked engine against cpu-serial (Ctrl+R)"));
  connect(run_, &QPushButton::clicked, this, &FilterPanel::runRequested);
  enginesLayout->addWidget(run_);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(filterBox);
  layout->addWidget(runBox);
  layout->addWidget(applyBox);
  layout->addWidget(enginesBox);
  layout->addStretch();
  connect(taps_, &QComboBox::currentIndexChanged, this, &FilterPanel::updateTapControls);
  for (QComboBox* box : {mode_, dtype_, accumulator_}) {
    connect(box, &QComboBox::currentIndexChanged, this, &FilterPanel::updateEngineAvailability);
  }
  connect(window_, &QSpinBox::valueChanged, this, &FilterPanel::updateEngineAvailability);
  for (QSpinBox* box : {savgolOrder_, savgolDeriv_, butterOrder_}) {
    connect(box, &QSpinBox::valueChanged, this, &FilterPanel::updateEngineAvailability);
  }
  for (QDoubleSpinBox* box : {cutoff_, cutoff2_}) {
    connect(box, &QDoubleSpinBox::valueChanged, this, &FilterPanel::updateEngineAvailability);
  }
  connect(band_, &QComboBox::currentIndexChanged, this, &FilterPanel::updateTapControls);
  connect(zeroPhase_, &QCheckBox::toggled, this, &FilterPanel::updateEngineAvailability);
  connect(customTaps_, &QLineEdit::textChanged, this, &FilterPanel::updateEngineAvailability);
  updateTapControls();
}

void FilterPanel::updateTapControls() {
  const QString taps = taps_->currentData().toString();
  form_->setRowVisible(customTaps_, taps == kCustom);
  form_->setRowVisible(sigma_->parentWidget(), taps == kGaussian);
  form_->setRowVisible(window_, taps == kMean || taps == kMedian || taps == kSavgol);  // Gaussian and custom taps set their own window
  const bool butter = taps == kButter;
  form_->setRowVisible(savgolOrder_->parentWidget(), taps == kSavgol);
  form_->setRowVisible(butterOrder_->parentWidget(), butter);
  form_->setRowVisible(cutoff_->parentWidget(), butter);
  form_->setRowVisible(zeroPhase_, butter);
  form_->setRowVisible(mode_, !butter);
  const QString band = band_->currentData().toString();
  cutoff2_->setEnabled(band == "bandpass" || band == "bandstop");
  if (taps == kGaussian) {
    gaussianWindow_->setText(tr("%1 taps").arg(gaussianWindow(sigma_->value())));
  }
  updateEngineAvailability();
}

void FilterPanel::updateEngineAvailability() {
  QString error;
  std::optional<SpecBuilder> build = specBuilder(&error);
  specError_->setText(error);
  specError_->setVisible(!build);
  const int asked = ++availabilityAsked_;
  if (!build || taps_->currentData().toString() != kSavgol) {  // the other kinds are built already
    showEngineAvailability(build ? std::optional<FilterSpec>((*build)()) : std::nullopt);
    return;
  }
  // A Savitzky-Golay's coefficients (up to 0.2 s) are fitted on a worker, never here.
  if (availabilityFitting_) {
    availabilityStale_ = true;
    return;
  }
  availabilityFitting_ = true;
  auto* watcher = new QFutureWatcher<std::optional<FilterSpec>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, asked] {
    watcher->deleteLater();
    availabilityFitting_ = false;
    if (std::exchange(availabilityStale_, false)) updateEngineAvailability();
    else if (asked == availabilityAsked_) showEngineAvailability(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run([build = std::move(*build)]() -> std::optional<FilterSpec> {
    try {
      return build();
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }));
}

void FilterPanel::showEngineAvailability(const std::optional<FilterSpec>& current) {
  QStringList reasons;
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    const FilterBackend& engine = *engines_[i];
    const std::string why = current ? engine.whyNot(*current, sampleType()) : std::string();
    const bool reference = engine.name() == "cpu-serial";
    engineBoxes_[i]->setEnabled(why.empty() && !reference);
    engineBoxes_[i]->setToolTip(QString::fromStdString(
        reference ? std::string(engine.description()) + " (always runs: the others are checked against it)"
                  : why.empty() ? std::string(engine.description()) : "Cannot run this filter here: " + why));
    if (!why.empty() && !reasons.contains(QString::fromStdString(why))) reasons << QString::fromStdString(why);
    if (auto* model = qobject_cast<QStandardItemModel*>(applyEngine_->model())) {
      QStandardItem* item = model->item(static_cast<int>(i) + 1);  // 0 is auto
      item->setEnabled(why.empty());
      item->setToolTip(QString::fromStdString(why.empty() ? std::string(engine.description()) : why));
    }
  }
  unavailableNote_->setText(reasons.isEmpty() ? QString() : tr("Cannot run here: %1").arg(reasons.join("; ")));
  unavailableNote_->setVisible(!reasons.isEmpty());
}

std::optional<SpecBuilder> FilterPanel::kindSpec(const QString& kind, QString* error) const {
  const bool interp = mode_->currentData().toInt() == kInterp;
  const auto mode = static_cast<BoundaryMode>(interp ? 0 : mode_->currentData().toInt());
  const auto window = static_cast<std::size_t>(window_->value());
  const auto built = [](FilterSpec spec) { return SpecBuilder([spec = std::move(spec)] { return spec; }); };
  try {
    if (kind == kMedian) {
      if (interp) throw std::invalid_argument("interp is Savitzky-Golay's edge mode; a median takes a boundary mode");
      return built(makeMedianFilter(window, mode));
    }
    if (kind == kSavgol) {
      const auto order = static_cast<std::size_t>(savgolOrder_->value());
      const auto deriv = static_cast<std::size_t>(savgolDeriv_->value());
      if (order >= window) {
        throw std::invalid_argument("order must be below the window (0 to " + std::to_string(window - 1) + ")");
      }
      if (deriv > order) throw std::invalid_argument("deriv must be at most the order");
      validate(SavgolSpec{window, order, deriv, 1.0, interp, mode});  // its bounds, none of its work
      return SpecBuilder([=] { return makeSavgolFilter(window, order, deriv, interp, mode); });
    }
    ButterworthSpec design;
    design.order = butterOrder_->value();
    design.type = parseBandType(band_->currentData().toString().toStdString()).value_or(BandType::Lowpass);
    design.cutoff = cutoff_->value();
    design.cutoff2 = cutoff2_->value();
    return built(makeButterworthFilter(design, zeroPhase_->isChecked()));
  } catch (const std::invalid_argument& e) {
    *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

std::optional<SpecBuilder> FilterPanel::specBuilder(QString* error) const {
  const QString taps = taps_->currentData().toString();
  if (taps == kMedian || taps == kSavgol || taps == kButter) return kindSpec(taps, error);
  if (mode_->currentData().toInt() == kInterp) {
    *error = tr("interp is Savitzky-Golay's edge mode; taps take zero, reflect, mirror, nearest or wrap");
    return std::nullopt;
  }
  const auto mode = static_cast<BoundaryMode>(mode_->currentData().toInt());
  try {
    FilterSpec spec;
    if (taps == kGaussian) {
      spec = makeGaussianFilter(sigma_->value(), mode);
    } else if (taps == kCustom) {
      auto custom = parseTaps(customTaps_->text(), error);
      if (!custom) return std::nullopt;
      spec = FilterSpec{std::move(*custom), mode};
    } else {
      spec = makeMeanFilter(static_cast<std::size_t>(window_->value()), mode);  // throws for an even window
    }
    spec.accumulator = accumulator_->currentData().toString() == "f64" ? Accumulator::Float64 : Accumulator::SampleType;
    validate(spec);
    return SpecBuilder([spec = std::move(spec)] { return spec; });
  } catch (const std::invalid_argument& e) {
    *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

std::optional<FilterSpec> FilterPanel::spec(QString* error) const {
  const std::optional<SpecBuilder> build = specBuilder(error);
  if (!build) return std::nullopt;
  try {
    return (*build)();
  } catch (const std::invalid_argument& e) {
    *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

RunOptions FilterPanel::runOptions() const {
  RunOptions options;
  options.blockSize = blockSize_->value();
  options.deviceMemoryBudgetBytes = static_cast<std::size_t>(gpuBudget_->value()) << 20;
  return options;
}

SampleType FilterPanel::sampleType() const {
  return dtype_->currentData().toString() == "f32" ? SampleType::f32 : SampleType::f64;
}

std::string FilterPanel::applyEngine() const { return applyEngine_->currentData().toString().toStdString(); }

std::optional<JobDraft> FilterPanel::job(QString* error) const {
  std::optional<SpecBuilder> filter = specBuilder(error);
  if (!filter) return std::nullopt;
  JobDraft draft;
  draft.spec = std::move(*filter);
  draft.job.sampleType = sampleType();
  draft.job.run = runOptions();
  draft.job.measure.repeats = repeat_->value();
  return draft;
}

std::vector<std::string> FilterPanel::checkedEngines() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    const std::string name(engines_[i]->name());
    if (name == "cpu-serial" || (engineBoxes_[i]->isEnabled() && engineBoxes_[i]->isChecked())) names.push_back(name);
  }
  return names;
}

void FilterPanel::setEngineChecked(const std::string& name, bool checked) {
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    if (engines_[i]->name() == name && engines_[i]->name() != "cpu-serial") engineBoxes_[i]->setChecked(checked);
  }
}

void FilterPanel::setRunEnabled(bool enabled) {
  run_->setEnabled(enabled);
  apply_->setEnabled(enabled);
}

void FilterPanel::saveSettings(QSettings& settings) const {
  settings.setValue("filter/window", window_->value());
  settings.setValue("filter/taps", taps_->currentData());
  settings.setValue("filter/gaussianSigma", sigma_->value());
  settings.setValue("filter/customTaps", customTaps_->text());
  settings.setValue("filter/mode", mode_->currentText());
  settings.setValue("filter/repeat", repeat_->value());
  settings.setValue("filter/savgolOrder", savgolOrder_->value());
  settings.setValue("filter/savgolDeriv", savgolDeriv_->value());
  settings.setValue("filter/butterOrder", butterOrder_->value());
  settings.setValue("filter/butterBand", band_->currentData());
  settings.setValue("filter/cutoff", cutoff_->value());
  settings.setValue("filter/cutoff2", cutoff2_->value());
  settings.setValue("filter/zeroPhase", zeroPhase_->isChecked());
  settings.setValue("filter/dtype", dtype_->currentData());
  settings.setValue("filter/accumulate", accumulator_->currentData());
  settings.setValue("filter/blockSize", blockSize_->value());
  settings.setValue("filter/gpuBudgetMiB", gpuBudget_->value());
  settings.setValue("filter/applyEngine", applyEngine_->currentData());
  QStringList unchecked;  // remembered as unchecked, so engines added later start checked
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    if (!engineBoxes_[i]->isChecked()) unchecked << QString::fromStdString(std::string(engines_[i]->name()));
  }
  settings.setValue("filter/uncheckedEngines", unchecked);
}

void FilterPanel::restoreSettings(const QSettings& settings) {
  window_->setValue(settings.value("filter/window", window_->value()).toInt());
  if (const int i = taps_->findData(settings.value("filter/taps", kMean)); i >= 0) taps_->setCurrentIndex(i);
  sigma_->setValue(settings.value("filter/gaussianSigma", sigma_->value()).toDouble());
  customTaps_->setText(settings.value("filter/customTaps", customTaps_->text()).toString());
  if (const int i = mode_->findText(settings.value("filter/mode", "zero").toString()); i >= 0) mode_->setCurrentIndex(i);
  repeat_->setValue(settings.value("filter/repeat", repeat_->value()).toInt());
  savgolOrder_->setValue(settings.value("filter/savgolOrder", savgolOrder_->value()).toInt());
  savgolDeriv_->setValue(settings.value("filter/savgolDeriv", savgolDeriv_->value()).toInt());
  butterOrder_->setValue(settings.value("filter/butterOrder", butterOrder_->value()).toInt());
  if (const int i = band_->findData(settings.value("filter/butterBand", "lowpass")); i >= 0) band_->setCurrentIndex(i);
  cutoff_->setValue(settings.value("filter/cutoff", cutoff_->value()).toDouble());
  cutoff2_->setValue(settings.value("filter/cutoff2", cutoff2_->value()).toDouble());
  zeroPhase_->setChecked(settings.value("filter/zeroPhase", zeroPhase_->isChecked()).toBool());
  if (const int i = dtype_->findData(settings.value("filter/dtype", "f64")); i >= 0) dtype_->setCurrentIndex(i);
  if (const int i = accumulator_->findData(settings.value("filter/accumulate", "f32")); i >= 0) {
    accumulator_->setCurrentIndex(i);
  }
  blockSize_->setValue(settings.value("filter/blockSize", blockSize_->value()).toInt());
  gpuBudget_->setValue(settings.value("filter/gpuBudgetMiB", gpuBudget_->value()).toInt());
  if (const int i = applyEngine_->findData(settings.value("filter/applyEngine", "auto")); i >= 0) {
    applyEngine_->setCurrentIndex(i);
  }
  const QStringList unchecked = settings.value("filter/uncheckedEngines").toStringList();
  for (const QString& name : unchecked) setEngineChecked(name.toStdString(), false);
}

}  // namespace siglab::gui
