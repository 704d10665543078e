#include "filter_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <utility>

#include "siglab/measure.hpp"
#include "siglab/pipeline.hpp"
#include "stage_form.hpp"

namespace siglab::gui {
namespace {

constexpr std::string_view kReference = "cpu-serial";  // Compare's reference: always runs

// A stage bound on a worker, or why it could not be.
struct BindOutcome {
  std::shared_ptr<const BoundStage> bound;
  QString error;
};

BindOutcome bindOnWorker(const Stage& stage, const StageContext& context) {
  try {
    return {std::shared_ptr<const BoundStage>(stage.kind->bind(stage.values, context)), {}};
  } catch (const std::exception& e) {
    return {nullptr, QString::fromUtf8(stage.kind->name().data(), static_cast<int>(stage.kind->name().size())) + ": " +
                         e.what()};
  }
}

// Why `engine` cannot run `bound` (empty when it can): the engine's own reason for a filter.
std::string whyNot(const FilterBackend& engine, const BoundStage& bound, const BackendList& engines, SampleType type) {
  if (const FilterSpec* spec = bound.filterSpec()) return engine.whyNot(*spec, type);
  const std::vector<std::string> names = bound.engineNames(engines);
  if (std::find(names.begin(), names.end(), engine.name()) != names.end()) return {};
  return "not an engine of this stage";
}

}  // namespace

FilterPanel::FilterPanel(const BackendList& engines, QWidget* parent) : QWidget(parent), engines_(engines) {
  auto* filterBox = new QGroupBox(tr("Stage"));
  auto* filterLayout = new QVBoxLayout(filterBox);
  form_ = new StageForm;
  filterLayout->addWidget(form_);
  auto* typeForm = new QFormLayout;
  dtype_ = new QComboBox;
  dtype_->setObjectName("dtype");
  dtype_->addItem(tr("float64"), "f64");
  dtype_->addItem(tr("float32"), "f32");
  dtype_->setToolTip(tr("Sample type the engines run in (float32: half the bytes; samples beyond its range are "
                        "refused), as siglab-cli --dtype"));
  typeForm->addRow(tr("Samples"), dtype_);
  accumulator_ = new QComboBox;
  accumulator_->setObjectName("accumulator");
  accumulator_->addItem(tr("float32"), "f32");
  accumulator_->addItem(tr("float64"), "f64");
  typeForm->addRow(tr("Accumulate"), accumulator_);
  filterLayout->addLayout(typeForm);

  auto* runBox = new QGroupBox(tr("Engines run"));
  auto* runForm = new QFormLayout(runBox);
  blockSize_ = new QSpinBox;
  blockSize_->setObjectName("blockSize");
  blockSize_->setRange(32, 1024);
  blockSize_->setSingleStep(32);
  blockSize_->setValue(RunOptions{}.blockSize);
  blockSize_->setSuffix(tr(" threads"));
  runForm->addRow(tr("Block size"), blockSize_);
  gpuBudget_ = new QSpinBox;
  gpuBudget_->setObjectName("gpuBudget");
  gpuBudget_->setRange(0, 1 << 20);
  gpuBudget_->setSpecialValueText(tr("90% of free"));
  gpuBudget_->setSuffix(tr(" MiB"));
  runForm->addRow(tr("GPU budget"), gpuBudget_);
  repeat_ = new QSpinBox;
  repeat_->setRange(1, 1000);
  repeat_->setValue(MeasureOptions{}.repeats);
  repeat_->setSuffix(tr(" runs"));
  repeat_->setToolTip(tr("Compare: timed runs per engine after one warm-up; the median is reported"));
  runForm->addRow(tr("Repeat"), repeat_);

  auto* applyBox = new QGroupBox(tr("Apply"));
  applyBox_ = applyBox;
  auto* applyLayout = new QVBoxLayout(applyBox);
  applyEngine_ = new QComboBox;
  applyEngine_->addItem(tr("auto (fastest that can run it here)"), "auto");
  for (const auto& e : engines_) applyEngine_->addItem(QString::fromStdString(std::string(e->name())), QString::fromStdString(std::string(e->name())));
  applyEngine_->setToolTip(tr("The one engine Apply runs (siglab-cli filter --engine)"));
  applyLayout->addWidget(applyEngine_);
  apply_ = new QPushButton(tr("Apply"));
  apply_->setToolTip(tr("Add the stage to the chain: run it on the current result with the chosen engine, verify it "
                        "where engines go wrong, and show its result (Ctrl+Return)"));
  connect(apply_, &QPushButton::clicked, this, &FilterPanel::applyRequested);
  applyLayout->addWidget(apply_);

  auto* enginesBox = new QGroupBox(tr("Compare engines"));
  auto* enginesLayout = new QVBoxLayout(enginesBox);
  for (const auto& e : engines_) {
    auto* box = new QCheckBox(QString::fromStdString(std::string(e->name())));
    box->setChecked(true);
    if (e->name() == kReference) box->setEnabled(false);
    enginesLayout->addWidget(box);
    engineBoxes_.push_back(box);
  }
  unavailableNote_ = new QLabel;
  unavailableNote_->setWordWrap(true);
  unavailableNote_->setStyleSheet("color: #757575; font-size: small;");
  enginesLayout->addWidget(unavailableNote_);

  run_ = new QPushButton(tr("Compare engines"));
  run_->setToolTip(tr("Measure every checked engine against cpu-serial on the current result (Ctrl+R)"));
  connect(run_, &QPushButton::clicked, this, &FilterPanel::runRequested);
  enginesLayout->addWidget(run_);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(filterBox);
  layout->addWidget(runBox);
  layout->addWidget(applyBox);
  layout->addWidget(enginesBox);
  layout->addStretch();
  connect(form_, &StageForm::changed, this, &FilterPanel::updateEngineAvailability);
  connect(dtype_, &QComboBox::currentIndexChanged, this, &FilterPanel::updateOptionsThatApply);
  updateOptionsThatApply();
  for (QComboBox* box : {dtype_, accumulator_}) {
    connect(box, &QComboBox::currentIndexChanged, this, &FilterPanel::updateEngineAvailability);
  }
  updateEngineAvailability();
}

std::optional<Stage> FilterPanel::stage(QString* error) const { return form_->stage(error); }

void FilterPanel::setStage(const Stage& stage) { form_->setStage(stage); }

void FilterPanel::setSignal(std::optional<std::uint64_t> samples, std::optional<double> rate) {
  if (samples == samples_ && rate == sampleRate_) return;
  samples_ = samples;
  sampleRate_ = rate;
  form_->setSampleRate(rate);
  updateEngineAvailability();
}

StageContext FilterPanel::context() const {
  StageContext context;
  context.samples = samples_;
  context.sampleRate = sampleRate_;
  context.accumulator = accumulator_->currentData().toString() == "f64" ? Accumulator::Float64 : Accumulator::SampleType;
  return context;
}

void FilterPanel::updateEngineAvailability() {
  QString error;
  const std::optional<Stage> current = form_->stage(&error);
  form_->showMessage(error);
  // Binding may fit coefficients or read a file: on a worker, one at a time, never here; the one
  // running is followed by one for the form as it is now.
  if (availabilityBinding_) {
    availabilityStale_ = true;
    return;
  }
  if (!current) {
    showEngineAvailability(nullptr);
    return;
  }
  availabilityBinding_ = true;
  auto* watcher = new QFutureWatcher<BindOutcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
    watcher->deleteLater();
    availabilityBinding_ = false;
    if (std::exchange(availabilityStale_, false)) {
      updateEngineAvailability();
      return;
    }
    const BindOutcome outcome = watcher->result();
    form_->showMessage(outcome.error);
    showEngineAvailability(outcome.bound);
  });
  watcher->setFuture(QtConcurrent::run(&bindOnWorker, *current, context()));
}

void FilterPanel::showEngineAvailability(const std::shared_ptr<const BoundStage>& bound) {
  QStringList reasons;
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    const FilterBackend& engine = *engines_[i];
    const std::string why = bound ? whyNot(engine, *bound, engines_, sampleType()) : std::string();
    const bool reference = engine.name() == kReference;
    engineBoxes_[i]->setEnabled(why.empty() && !reference);
    engineBoxes_[i]->setToolTip(QString::fromStdString(
        reference ? std::string(engine.description()) + " (always runs: the others are checked against it)"
                  : why.empty() ? std::string(engine.description()) : "Cannot run this stage here: " + why));
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

// An option that does not apply is greyed out, its tooltip saying why (and what it does otherwise).
void FilterPanel::updateOptionsThatApply() {
  const bool float32 = sampleType() == SampleType::f32;
  accumulator_->setEnabled(float32);
  accumulator_->setToolTip(float32 ? tr("With float32 samples: sum in float32, or in float64 rounded once (--accumulate)")
                                   : tr("Does not apply: float64 samples are always summed in float64. Choose float32 "
                                        "samples to choose how they are summed (--accumulate)"));
  const bool gpu = gpuMissing_.isEmpty();
  blockSize_->setEnabled(gpu);
  gpuBudget_->setEnabled(gpu);
  const QString blockSize = tr("GPU threads per block (--block-size)");
  const QString budget = tr("GPU memory gpu-tuned may use; a signal over it goes in chunks (--gpu-memory-budget)");
  blockSize_->setToolTip(gpu ? blockSize : tr("Does not apply: no GPU here (%1). %2").arg(gpuMissing_, blockSize));
  gpuBudget_->setToolTip(gpu ? budget : tr("Does not apply: no GPU here (%1). %2").arg(gpuMissing_, budget));
}

void FilterPanel::setGpuMissing(const QString& reason) {
  gpuMissing_ = reason.isEmpty() ? tr("none found") : reason;
  updateOptionsThatApply();
}

std::optional<FilterSpec> FilterPanel::spec(QString* error) const {
  std::optional<JobDraft> draft = job(error);
  if (!draft) return std::nullopt;
  try {
    return draft->build().spec;
  } catch (const std::exception& e) {
    *error = QString::fromUtf8(draft->stage.kind->name().data(), static_cast<int>(draft->stage.kind->name().size())) +
             ": " + e.what();
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

int FilterPanel::repeat() const { return repeat_->value(); }

void FilterPanel::setRepeat(int repeat) { repeat_->setValue(repeat); }

std::string FilterPanel::applyEngine() const { return applyEngine_->currentData().toString().toStdString(); }

void FilterPanel::showChain(QWidget* chain) { applyBox_->layout()->addWidget(chain); }

std::optional<JobDraft> FilterPanel::job(QString* error) const {
  std::optional<Stage> current = form_->stage(error);
  if (!current) return std::nullopt;
  return jobFor(std::move(*current));
}

JobDraft FilterPanel::jobFor(Stage stage) const {
  JobDraft draft;
  draft.stage = std::move(stage);
  draft.context = context();
  draft.job.sampleType = sampleType();
  draft.job.run = runOptions();
  draft.job.measure.repeats = repeat_->value();
  return draft;
}

std::vector<std::string> FilterPanel::checkedEngines() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    const std::string name(engines_[i]->name());
    if (name == kReference || (engineBoxes_[i]->isEnabled() && engineBoxes_[i]->isChecked())) names.push_back(name);
  }
  return names;
}

void FilterPanel::setEngineChecked(const std::string& name, bool checked) {
  for (std::size_t i = 0; i < engines_.size(); ++i) {
    if (engines_[i]->name() == name && engines_[i]->name() != kReference) engineBoxes_[i]->setChecked(checked);
  }
}

void FilterPanel::setRunEnabled(bool enabled) {
  run_->setEnabled(enabled);
  apply_->setEnabled(enabled);
}

void FilterPanel::saveSettings(QSettings& settings) const {
  if (const std::optional<Stage> current = form_->stage(nullptr)) {
    settings.setValue("filter/stage", QString::fromStdString(chainText(Pipeline{{*current}})));
  }
  settings.setValue("filter/repeat", repeat_->value());
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
  if (settings.contains("filter/stage")) {
    try {
      const Pipeline saved = parseChain(settings.value("filter/stage").toString().toStdString());
      if (saved.stages.size() == 1) setStage(saved.stages.front());
    } catch (const std::exception&) {  // a stage this SigLab no longer reads: the form's own stays
    }
  }
  repeat_->setValue(settings.value("filter/repeat", repeat_->value()).toInt());
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
