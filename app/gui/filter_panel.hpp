#pragma once
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

#include "siglab/filter_backend.hpp"

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

// What the panel knows of an engine, read once from makeAllBackends().
struct EngineInfo {
  std::string name;
  std::string description;
  std::string unavailableReason;  // empty when it can run here
};
std::vector<EngineInfo> describeEngines(const BackendList& backends);

// The filter (window, taps, boundary mode), the repeat count and the engines to run. Gaussian taps
// come from the core's makeGaussianFilter, as the CLI's --gaussian SIGMA: the window follows sigma.
class FilterPanel : public QWidget {
  Q_OBJECT
 public:
  explicit FilterPanel(const std::vector<EngineInfo>& engines, QWidget* parent = nullptr);

  // The filter as set, or nothing with the reason in `error` (e.g. malformed custom taps).
  std::optional<FilterSpec> spec(QString* error) const;
  RunOptions runOptions() const;
  std::vector<std::string> checkedEngines() const;  // only engines that can run
  void setEngineChecked(const std::string& name, bool checked);
  void setRunEnabled(bool enabled);

  void saveSettings(QSettings& settings) const;
  void restoreSettings(const QSettings& settings);

 signals:
  void runRequested();

 private:
  void updateTapControls();

  QFormLayout* form_ = nullptr;
  QSpinBox* window_ = nullptr;
  QComboBox* taps_ = nullptr;
  QDoubleSpinBox* sigma_ = nullptr;
  QLabel* gaussianWindow_ = nullptr;
  QLineEdit* customTaps_ = nullptr;
  QComboBox* mode_ = nullptr;
  QSpinBox* repeat_ = nullptr;
  std::vector<QCheckBox*> engineBoxes_;
  std::vector<EngineInfo> engines_;
  QPushButton* run_ = nullptr;
};

}  // namespace siglab::gui
