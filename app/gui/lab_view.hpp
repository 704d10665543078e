#pragma once
#include <QWidget>

#include <array>

#include "lab_ladders.hpp"

class QComboBox;
class QSpinBox;
class QTabWidget;

namespace siglab::gui {

class LadderView;

// What a ladder run should do, from the Lab tab's controls.
struct LabRequest {
  LabExperiment experiment = LabExperiment::Reduction;
  bool onSignal = true;         // reduction: the loaded signal, else 2^log2Count random bytes as int32
  int log2Count = 24;           // reduction and reversal
  MatmulShape shape{1000, 1000, 1000};
  int repeat = 10;
};

// The Lab tab: the reduction, reversal and matrix-multiply ladders, each in the same LadderView
// with its own inputs.
class LabView : public QWidget {
  Q_OBJECT
 public:
  explicit LabView(QWidget* parent = nullptr);
  LabRequest request(LabExperiment experiment) const;
  LadderView* ladderView(LabExperiment experiment) const { return views_[index(experiment)]; }
  void showExperiment(LabExperiment experiment);
  void setSignalAvailable(bool available);
  void setRunEnabled(bool enabled);
  void setGpuMissing(const QString& reason);  // each ladder says it runs the CPU rungs only

 signals:
  void runRequested(siglab::LabExperiment experiment);

 private:
  static std::size_t index(LabExperiment experiment) { return static_cast<std::size_t>(experiment); }
  QTabWidget* tabs_ = nullptr;
  std::array<LadderView*, 3> views_{};
  QComboBox* source_ = nullptr;
  QSpinBox* reductionLog2_ = nullptr;
  QSpinBox* reversalLog2_ = nullptr;
  std::array<QSpinBox*, 3> shape_{};
  std::array<QSpinBox*, 3> repeat_{};
  bool signalAvailable_ = true;
};

}  // namespace siglab::gui
