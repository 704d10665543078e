#pragma once
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "job_draft.hpp"
#include "siglab/filter_backend.hpp"
#include "siglab/job.hpp"
#include "siglab/stage.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSettings;
class QSpinBox;

namespace siglab::gui {

class StageForm;

// The stage to run (the form generated from the registry: stage_form.hpp), the sample type and
// accumulator, how engines run (block size, GPU memory budget, repeats) and the engines: one for
// Apply, several for Compare. The stage is bound to the signal it will run on in the background
// (binding may fit coefficients or read a file); engines that cannot run the bound stage are
// greyed out with its reasons, and binding's own message shows under the form.
class FilterPanel : public QWidget {
  Q_OBJECT
 public:
  // `engines` are the session's; they must outlive the panel.
  explicit FilterPanel(const BackendList& engines, QWidget* parent = nullptr);

  // The stage as set, checked by its kind (not bound), or nothing with the kind's message in `error`.
  std::optional<Stage> stage(QString* error) const;
  void setStage(const Stage& stage);
  StageForm* form() const { return form_; }
  // The signal the next stage runs on (the chain's current result): its length and rate.
  void setSignal(std::optional<std::uint64_t> samples, std::optional<double> rate);
  StageContext context() const;
  // The stage bound on the calling thread, as a filter, or nothing with the reason in `error`.
  std::optional<FilterSpec> spec(QString* error) const;
  // The whole job as set (input and engines apart), its stage still to bind, or nothing with the
  // reason in `error`.
  std::optional<JobDraft> job(QString* error) const;
  RunOptions runOptions() const;
  SampleType sampleType() const;
  int repeat() const;
  void setRepeat(int repeat);
  std::string applyEngine() const;                   // "auto" or one engine's name
  std::vector<std::string> checkedEngines() const;  // only engines that can run the stage as bound
  void setEngineChecked(const std::string& name, bool checked);
  void setRunEnabled(bool enabled);
  // No GPU here, and why: the GPU's options (block size, budget) are greyed out saying so.
  void setGpuMissing(const QString& reason);
  // Shows `chain` (the list of applied stages) under the Apply button.
  void showChain(QWidget* chain);
  // The job for `stage` with the panel's run options, on the current signal.
  JobDraft jobFor(Stage stage) const;
  // Whether the engines shown are still being worked out for the form as it is (tests wait on it).
  bool availabilityPending() const { return availabilityBinding_; }

  void saveSettings(QSettings& settings) const;
  void restoreSettings(const QSettings& settings);

 signals:
  void runRequested();    // Compare engines
  void applyRequested();  // Apply one engine

 private:
  void updateEngineAvailability();
  void updateOptionsThatApply();
  void showEngineAvailability(const std::shared_ptr<const BoundStage>& bound);

  StageForm* form_ = nullptr;
  QComboBox* dtype_ = nullptr;
  QComboBox* accumulator_ = nullptr;
  QSpinBox* blockSize_ = nullptr;
  QSpinBox* gpuBudget_ = nullptr;
  QSpinBox* repeat_ = nullptr;
  QComboBox* applyEngine_ = nullptr;
  std::vector<QCheckBox*> engineBoxes_;
  QLabel* unavailableNote_ = nullptr;
  std::optional<std::uint64_t> samples_;
  std::optional<double> sampleRate_;
  QString gpuMissing_;  // why there is no GPU; empty where there is one
  bool availabilityBinding_ = false;  // one binding on a worker at a time,
  bool availabilityStale_ = false;    // then one more for the form as it is now
  const BackendList& engines_;
  QPushButton* apply_ = nullptr;
  QWidget* applyBox_ = nullptr;
  QPushButton* run_ = nullptr;
};

}  // namespace siglab::gui
