#include "reductions_view.hpp"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "bar_chart.hpp"

namespace siglab::gui {
namespace {

enum Column { kKernel, kTime, kBandwidth, kStepSpeedup, kTotalSpeedup, kResult, kColumnCount };

QString resultText(const ReductionLadder& ladder, const ReductionStep& step) {
  if (ladder.integer) return step.exact ? QObject::tr("%1, exact").arg(step.integerValue) : QObject::tr("%1, WRONG").arg(step.integerValue);
  return QObject::tr("%1 (error %2)").arg(step.value, 0, 'g', 17).arg(step.absError, 0, 'g', 2);
}

}  // namespace

ReductionsView::ReductionsView(QWidget* parent) : QWidget(parent) {
  source_ = new QComboBox;
  source_->addItem(tr("the loaded signal (float64)"));
  source_->addItem(tr("random bytes as int32 (the classic benchmark)"));
  source_->setToolTip(tr("What the kernels sum"));
  log2Count_ = new QSpinBox;
  log2Count_->setRange(10, 28);
  log2Count_->setValue(24);
  log2Count_->setPrefix("2^");
  log2Count_->setToolTip(tr("How many int32 values the classic benchmark sums"));
  repeat_ = new QSpinBox;
  repeat_->setRange(1, 1000);
  repeat_->setValue(20);
  repeat_->setSuffix(tr(" runs"));
  repeat_->setToolTip(tr("Timed runs per kernel after one warm-up; the median is shown"));
  run_ = new QPushButton(tr("Run ladder"));
  run_->setToolTip(tr("Time every reduction kernel on the GPU, next to cub::DeviceReduce::Sum"));
  connect(run_, &QPushButton::clicked, this, &ReductionsView::runRequested);
  connect(source_, &QComboBox::currentIndexChanged, this, [this](int i) { log2Count_->setEnabled(i == 1); });
  log2Count_->setEnabled(false);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Sum")));
  controls->addWidget(source_);
  controls->addWidget(log2Count_);
  controls->addWidget(repeat_);
  controls->addWidget(run_);
  controls->addStretch();

  summary_ = new QLabel(tr("The reduction ladder: each kernel one optimisation more than the last, timed on the GPU."));
  summary_->setWordWrap(true);
  chart_ = new QCustomPlot;
  chart_->setMinimumHeight(200);
  table_ = makeResultsTable({tr("Kernel"), tr("Median ms (min – max)"), tr("GB/s"), tr("Step speedup"),
                             tr("Speedup vs first"), tr("Sum")});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(summary_);
  layout->addWidget(chartAboveTable(chart_, table_), 1);
}

ReductionRequest ReductionsView::request() const {
  return {source_->currentIndex() == 0, log2Count_->value(), repeat_->value()};
}

void ReductionsView::setSignalAvailable(bool available) {
  if (available == signalAvailable_) return;
  signalAvailable_ = available;
  source_->setCurrentIndex(available ? 0 : 1);  // the signal once there is one
  if (auto* model = qobject_cast<QStandardItemModel*>(source_->model())) model->item(0)->setEnabled(available);
}

QString ReductionsView::summary() const { return summary_->text(); }

void ReductionsView::setRunEnabled(bool enabled) { run_->setEnabled(enabled); }

void ReductionsView::setLadder(std::shared_ptr<const ReductionLadder> ladder) {
  ladder_ = ladder;
  chart_->clearPlottables();
  table_->setRowCount(0);
  if (!ladder->problem.empty()) {
    summary_->setText(tr("Not run: %1").arg(QString::fromStdString(ladder->problem).toHtmlEscaped()));
    chart_->replot();
    return;
  }
  summary_->setText(tr("%1 %2 values (%3 MiB); reference %4")
                        .arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(ladder->count)))
                        .arg(ladder->integer ? "int32" : "float64")
                        .arg(static_cast<double>(ladder->bytes) / (1 << 20), 0, 'f', 1)
                        .arg(ladder->integer ? tr("%1 (64-bit CPU sum)").arg(ladder->integerReference)
                                             : tr("%1 (compensated CPU sum)").arg(ladder->reference, 0, 'g', 17)));
  const auto& steps = ladder->steps;
  QStringList names;
  QVector<double> keys, values;
  double smallest = 0.0, largest = 0.0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    names << QString::fromStdString(steps[i].name);
    keys << static_cast<double>(i + 1);
    values << steps[i].time.medianMs;
    smallest = i == 0 ? steps[i].time.medianMs : std::min(smallest, steps[i].time.medianMs);
    largest = std::max(largest, steps[i].time.medianMs);
  }
  setCategoryAxis(chart_, names);
  auto* bars = new QCPBars(chart_->xAxis, chart_->yAxis);
  bars->setPen(Qt::NoPen);
  bars->setBrush(QColor(30, 136, 229));
  bars->setWidth(0.6);
  bars->setBaseValue(setTimeAxis(chart_, smallest, largest));
  bars->setData(keys, values, true);
  chart_->replot();

  std::vector<const ReductionStep*> rows;
  for (const auto& step : steps) rows.push_back(&step);
  rows.push_back(&ladder->sumOfSquares);
  table_->setRowCount(static_cast<int>(rows.size()));
  for (int row = 0; row < table_->rowCount(); ++row) {
    const ReductionStep& step = *rows[static_cast<std::size_t>(row)];
    const bool onLadder = static_cast<std::size_t>(row) < steps.size();
    const double previous = row > 0 && onLadder ? steps[static_cast<std::size_t>(row) - 1].time.medianMs : 0.0;
    const double first = steps.front().time.medianMs;
    const QString cells[kColumnCount] = {
        QString::fromStdString(step.name),
        QString("%1  (%2 – %3)").arg(step.time.medianMs, 0, 'f', 4).arg(step.time.minMs, 0, 'f', 4).arg(step.time.maxMs, 0, 'f', 4),
        QString::number(step.gbPerSecond, 'f', 1),
        previous > 0.0 ? QString("%1×").arg(previous / step.time.medianMs, 0, 'f', 2) : QStringLiteral("–"),
        onLadder ? QString("%1×").arg(first / step.time.medianMs, 0, 'f', 2) : QStringLiteral("–"),
        resultText(*ladder, step)};
    for (int c = 0; c < kColumnCount; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setToolTip(c == kKernel ? QString::fromStdString(step.description) : cells[c]);
      if (c != kKernel) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(row, c, item);
    }
  }
}

}  // namespace siglab::gui
