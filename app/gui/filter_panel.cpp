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
#include <QVBoxLayout>

#include <cmath>
#include <stdexcept>

#include "siglab/taps.hpp"

namespace siglab::gui {
namespace {

constexpr const char* kMean = "mean";
constexpr const char* kGaussian = "gaussian";
constexpr const char* kCustom = "custom";
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

std::vector<EngineInfo> describeEngines(const BackendList& backends) {
  std::vector<EngineInfo> engines;
  for (const auto& b : backends) {
    engines.push_back({std::string(b->name()), std::string(b->description()), b->unavailableReason()});
  }
  return engines;
}

FilterPanel::FilterPanel(const std::vector<EngineInfo>& engines, QWidget* parent)
    : QWidget(parent), engines_(engines) {
  auto* filterBox = new QGroupBox(tr("Filter"));
  form_ = new QFormLayout(filterBox);
  window_ = new QSpinBox;
  window_->setRange(1, 100001);
  window_->setSingleStep(2);
  window_->setValue(static_cast<int>(kDefaultWindow));
  window_->setSuffix(tr(" samples"));
  window_->setToolTip(tr("Window length W (odd): each output averages W samples centred on it"));
  form_->addRow(tr("Window"), window_);

  taps_ = new QComboBox;
  taps_->addItem(tr("Mean (1/W)"), kMean);
  taps_->addItem(tr("Gaussian (sigma)"), kGaussian);
  taps_->addItem(tr("Custom"), kCustom);
  taps_->setToolTip(tr("The weights applied across the window"));
  form_->addRow(tr("Taps"), taps_);

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
  form_->addRow(QString(), customTaps_);

  mode_ = new QComboBox;
  for (BoundaryMode m : kModes) mode_->addItem(QString::fromStdString(std::string(toString(m))), static_cast<int>(m));
  mode_->setToolTip(tr("How samples beyond the ends are taken (scipy.ndimage.correlate1d's modes; zero is the seed's)"));
  form_->addRow(tr("Boundary"), mode_);

  repeat_ = new QSpinBox;
  repeat_->setRange(1, 1000);
  repeat_->setValue(RunOptions{}.repeat);
  repeat_->setSuffix(tr(" runs"));
  repeat_->setToolTip(tr("Timed runs per engine after one warm-up; the median is reported"));
  form_->addRow(tr("Repeat"), repeat_);

  auto* enginesBox = new QGroupBox(tr("Engines"));
  auto* enginesLayout = new QVBoxLayout(enginesBox);
  for (const EngineInfo& e : engines_) {
    auto* box = new QCheckBox(QString::fromStdString(e.name));
    const bool available = e.unavailableReason.empty();
    box->setEnabled(available);
    box->setChecked(available);
    box->setToolTip(QString::fromStdString(available ? e.description : "Unavailable: " + e.unavailableReason));
    if (e.name == "cpu-serial") {  // the reference always runs: every other engine is checked against it
      box->setEnabled(false);
      box->setToolTip(QString::fromStdString(e.description) + tr(" (always runs: the others are checked against it)"));
    }
    enginesLayout->addWidget(box);
    engineBoxes_.push_back(box);
  }
  // Why engines are greyed out, once per distinct reason, without hovering.
  QStringList reasons;
  for (const EngineInfo& e : engines_) {
    const QString reason = QString::fromStdString(e.unavailableReason);
    if (!reason.isEmpty() && !reasons.contains(reason)) reasons << reason;
  }
  if (!reasons.isEmpty()) {
    auto* note = new QLabel(tr("Unavailable here: %1").arg(reasons.join("; ")));
    note->setWordWrap(true);
    note->setStyleSheet("color: #757575; font-size: small;");
    enginesLayout->addWidget(note);
  }

  run_ = new QPushButton(tr("Run"));
  run_->setToolTip(tr("Filter the signal on every checked engine (Ctrl+R)"));
  connect(run_, &QPushButton::clicked, this, &FilterPanel::runRequested);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(filterBox);
  layout->addWidget(enginesBox);
  layout->addWidget(run_);
  layout->addStretch();
  connect(taps_, &QComboBox::currentIndexChanged, this, &FilterPanel::updateTapControls);
  updateTapControls();
}

void FilterPanel::updateTapControls() {
  const QString taps = taps_->currentData().toString();
  customTaps_->setVisible(taps == kCustom);
  form_->setRowVisible(sigma_->parentWidget(), taps == kGaussian);
  window_->setEnabled(taps == kMean);
  if (taps == kGaussian) {
    gaussianWindow_->setText(tr("%1 taps").arg(gaussianWindow(sigma_->value())));
  }
}

std::optional<FilterSpec> FilterPanel::spec(QString* error) const {
  const QString taps = taps_->currentData().toString();
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
    validate(spec);
    return spec;
  } catch (const std::invalid_argument& e) {
    *error = QString::fromStdString(e.what());
    return std::nullopt;
  }
}

RunOptions FilterPanel::runOptions() const {
  RunOptions options;
  options.repeat = repeat_->value();
  return options;
}

std::vector<std::string> FilterPanel::checkedEngines() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    const bool isReference = engines_[i].name == "cpu-serial";
    if (isReference || (engineBoxes_[i]->isEnabled() && engineBoxes_[i]->isChecked())) names.push_back(engines_[i].name);
  }
  return names;
}

void FilterPanel::setEngineChecked(const std::string& name, bool checked) {
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    if (engines_[i].name == name && engineBoxes_[i]->isEnabled()) engineBoxes_[i]->setChecked(checked);
  }
}

void FilterPanel::setRunEnabled(bool enabled) { run_->setEnabled(enabled); }

void FilterPanel::saveSettings(QSettings& settings) const {
  settings.setValue("filter/window", window_->value());
  settings.setValue("filter/taps", taps_->currentData());
  settings.setValue("filter/gaussianSigma", sigma_->value());
  settings.setValue("filter/customTaps", customTaps_->text());
  settings.setValue("filter/mode", mode_->currentText());
  settings.setValue("filter/repeat", repeat_->value());
  QStringList unchecked;  // remembered as unchecked, so engines added later start checked
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    if (engineBoxes_[i]->isEnabled() && !engineBoxes_[i]->isChecked()) unchecked << QString::fromStdString(engines_[i].name);
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
  const QStringList unchecked = settings.value("filter/uncheckedEngines").toStringList();
  for (const QString& name : unchecked) setEngineChecked(name.toStdString(), false);
}

}  // namespace siglab::gui
