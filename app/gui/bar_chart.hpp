#pragma once
#include <QStringList>

class QCustomPlot;
class QSplitter;
class QTableWidget;

namespace siglab::gui {

// What the timing and reduction views share: a read-only results table, a bar chart above it,
// and a time axis that turns logarithmic when the bars spread widely.

QTableWidget* makeResultsTable(const QStringList& headers);
QSplitter* chartAboveTable(QCustomPlot* chart, QTableWidget* table);

// `names` along the x axis at 1, 2, ..., n, slanted when there are many.
void setCategoryAxis(QCustomPlot* chart, const QStringList& names);

// Milliseconds on the y axis for bars between `smallest` and `largest` (both > 0): a log scale
// when they spread over more than 50x. Returns the value the bars should start from.
double setTimeAxis(QCustomPlot* chart, double smallest, double largest);

}  // namespace siglab::gui
