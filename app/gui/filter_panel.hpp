#pragma once
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

#include "job_draft.hpp"
#include "siglab/filter_backend.hpp"
#include "siglab/job.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;
class QSpinBox;

namespace siglab::gui {

// The filter (its kind: mean, Gaussian or custom taps, median, Savitzky-Golay or Butterworth, with
// each kind's parameters, validated as they are typed; the boundary mode), the sample type and accumulator, how engines run
// (block size, GPU memory budget, repeats) and the engines: one for Apply, several for Compare.
// Gaussian taps come from the core's makeGaussianFilter, as the CLI's --gaussian SIGMA. Engines
// that cannot run the filter as set (their whyNot()) are greyed out with the reason.
class FilterPanel : public QWidget {
  Q_OBJECT
 public:
  // `engines` are the session's; they must outlive the panel.
  explicit FilterPanel(const BackendList& engines, QWidget* parent = nullptr);

  // The filter as set, checked but not built (cheap), or nothing with the reason in `error` (e.g.
  // malformed custom taps, a Savitzky-Golay order or work past its bound).
  std::optional<SpecBuilder> specBuilder(QString* error) const;
  // The filter as set, built on the calling thread (a Savitzky-Golay's coefficients: not the main
  // one in the app), or nothing with the reason in `error`.
  std::optional<FilterSpec> spec(QString* error) const;
  // The whole job as set (input and engines apart), its filter still to build, or nothing with the
  // reason in `error`.
  std::optional<JobDraft> job(QString* error) const;
  RunOptions runOptions() const;
  SampleType sampleType() const;
  std::string applyEngine() const;                   // "auto" or one engine's name
  std::vector<std::string> checkedEngines() const;  // only engines that can run the filter as set
  void setEngineChecked(const std::string& name, bool checked);
  void setRunEnabled(bool enabled);

  void saveSettings(QSettings& settings) const;
  void restoreSettings(const QSettings& settings);

 signals:
  void runRequested();    // Compare engines
  void applyRequested();  // Apply one engine

 private:
  void updateTapControls();
  std::optional<SpecBuilder> kindSpec(const QString& kind, QString* error) const;  // median, savgol, butter
  void updateEngineAvailability();
  void showEngineAvailability(const std::optional<FilterSpec>& current);

  QFormLayout* form_ = nullptr;
  QSpinBox* window_ = nullptr;
  QComboBox* taps_ = nullptr;
  QDoubleSpinBox* sigma_ = nullptr;
  QLabel* gaussianWindow_ = nullptr;
  QLineEdit* customTaps_ = nullptr;
  QSpinBox* savgolOrder_ = nullptr;
  QSpinBox* savgolDeriv_ = nullptr;
  QSpinBox* butterOrder_ = nullptr;
  QComboBox* band_ = nullptr;
  QDoubleSpinBox* cutoff_ = nullptr;
  QDoubleSpinBox* cutoff2_ = nullptr;
  QCheckBox* zeroPhase_ = nullptr;
  QLabel* specError_ = nullptr;
  QComboBox* mode_ = nullptr;
  QComboBox* dtype_ = nullptr;
  QComboBox* accumulator_ = nullptr;
  QSpinBox* blockSize_ = nullptr;
  QSpinBox* gpuBudget_ = nullptr;
  QSpinBox* repeat_ = nullptr;
  QComboBox* applyEngine_ = nullptr;
  std::vector<QCheckBox*> engineBoxes_;
  QLabel* unavailableNote_ = nullptr;
  int availabilityAsked_ = 0;       // the newest form's availability is the one shown
  bool availabilityFitting_ = false;  // a Savitzky-Golay's fit on a worker: one at a time,
  bool availabilityStale_ = false;    // then one more for the form as it is now
  const BackendList& engines_;
  QPushButton* apply_ = nullptr;
  QPushButton* run_ = nullptr;
};

}  // namespace siglab::gui
