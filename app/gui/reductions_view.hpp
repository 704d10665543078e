#pragma once
#include <QWidget>

#include <memory>

#include "siglab/cuda_reduce.hpp"

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace siglab::gui {

// What the reduction ladder should sum: the loaded signal, or the classic benchmark of random
// bytes held as int32 (2^log2Count of them).
struct ReductionRequest {
  bool onSignal = true;
  int log2Count = 24;
  int repeat = 20;
};

// The GPU reduction ladder: a chart of the median time per kernel and a table with each step's
// speedup over the previous one and over the first.
class ReductionsView : public QWidget {
  Q_OBJECT
 public:
  explicit ReductionsView(QWidget* parent = nullptr);
  ReductionRequest request() const;
  void setSignalAvailable(bool available);
  void setRunEnabled(bool enabled);
  void setLadder(std::shared_ptr<const ReductionLadder> ladder);

  std::shared_ptr<const ReductionLadder> ladder() const { return ladder_; }
  QString summary() const;
  QCustomPlot* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }

 signals:
  void runRequested();

 private:
  QComboBox* source_ = nullptr;
  QSpinBox* log2Count_ = nullptr;
  QSpinBox* repeat_ = nullptr;
  QPushButton* run_ = nullptr;
  QLabel* summary_ = nullptr;
  QCustomPlot* chart_ = nullptr;
  QTableWidget* table_ = nullptr;
  std::shared_ptr<const ReductionLadder> ladder_;
  bool signalAvailable_ = true;
};

}  // namespace siglab::gui
