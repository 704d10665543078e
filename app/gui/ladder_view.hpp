#pragma once
#include <QWidget>

#include <memory>

#include "siglab/ladder.hpp"

class QCPItemText;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace siglab::gui {

// One ladder (the reduction, the reversal or the matrix multiply): the experiment's controls and a
// Run button, a chart of each rung's rate, a table of times, rates, speedups, fraction of the
// yardstick and check results, what did not run and why, and a paragraph on what each rung changes.
class LadderView : public QWidget {
  Q_OBJECT
 public:
  // `controls` (owned by the view) holds the experiment's own inputs; `note` says what each rung changes.
  LadderView(QWidget* controls, const QString& runToolTip, const QString& note, QWidget* parent = nullptr);
  void setRunEnabled(bool enabled);
  // Without a GPU: Run says it times the CPU rungs only, and the empty view says why.
  void setGpuMissing(const QString& reason);
  QString runText() const;
  void setLadder(std::shared_ptr<const Ladder> ladder);

  std::shared_ptr<const Ladder> ladder() const { return ladder_; }
  QString summary() const;
  QCustomPlot* chart() const { return chart_; }
  QTableWidget* table() const { return table_; }
  bool chartEmpty() const;  // before a run: a line saying so instead of bare axes

 signals:
  void runRequested();

 private:
  void showEmptyChart();
  QPushButton* run_ = nullptr;
  QLabel* summary_ = nullptr;
  QCustomPlot* chart_ = nullptr;
  QCPItemText* emptyChart_ = nullptr;
  QTableWidget* table_ = nullptr;
  std::shared_ptr<const Ladder> ladder_;
};

}  // namespace siglab::gui
