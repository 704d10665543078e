#include "bar_chart.hpp"

#include <qcustomplot.h>

#include <QHeaderView>
#include <QSplitter>
#include <QTableWidget>

namespace siglab::gui {

QTableWidget* makeResultsTable(const QStringList& headers) {
  auto* table = new QTableWidget(0, static_cast<int>(headers.size()));
  table->setHorizontalHeaderLabels(headers);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setAlternatingRowColors(true);
  table->verticalHeader()->hide();
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  return table;
}

QSplitter* chartAboveTable(QCustomPlot* chart, QTableWidget* table) {
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(chart);
  splitter->addWidget(table);
  return splitter;
}

void setCategoryAxis(QCustomPlot* chart, const QStringList& names) {
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (qsizetype i = 0; i < names.size(); ++i) ticker->addTick(static_cast<double>(i + 1), names[i]);
  chart->xAxis->setTicker(ticker);
  chart->xAxis->setTickLabelRotation(names.size() > 4 ? 30 : 0);
  chart->xAxis->grid()->setVisible(false);
  chart->xAxis->setRange(0.4, static_cast<double>(names.size()) + 0.6);
}

double setTimeAxis(QCustomPlot* chart, double smallest, double largest) {
  QCPAxis* y = chart->yAxis;
  const bool logScale = smallest > 0.0 && largest / smallest > 50.0;
  y->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  y->setTicker(logScale ? QSharedPointer<QCPAxisTicker>(QSharedPointer<QCPAxisTickerLog>::create())
                        : QSharedPointer<QCPAxisTicker>::create());
  y->setLabel(logScale ? QObject::tr("median time, ms (log scale)") : QObject::tr("median time, ms"));
  if (largest <= 0.0) return 0.0;
  if (!logScale) {
    y->setRange(0.0, largest * 1.15);
    return 0.0;
  }
  y->setRange(smallest / 4.0, largest * 3.0);
  return smallest / 4.0;
}

}  // namespace siglab::gui
