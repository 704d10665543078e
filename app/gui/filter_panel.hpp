#pragma once
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

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

  // The filter as set, or nothing with the reason in `error` (e.g. malformed custom taps).
  std::optional<FilterSpec> spec(QString* error) const;
  // The whole job as set (input and engines apart), or nothing with the reason in `error`.
  std::optional<Job> job(QString* error) const;
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
  std::optional<FilterSpec> kindSpec(const QString& kind, QString* error) const;  // median, savgol, butter
  void updateEngineAvailability();

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
  const BackendList& engines_;
  QPushButton* apply_ = nullptr;
  QPushButton* run_ = nullptr;
};

}  // namespace siglab::gui
