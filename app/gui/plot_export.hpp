#pragma once
#include <QString>

class QCustomPlot;

namespace siglab::gui {

// Saves `plot` as PNG or PDF (chosen by the extension) atomically: a reader sees the old file or
// the complete new one. Throws InputError naming the file on failure. GUI thread only.
void savePlot(QCustomPlot* plot, const QString& path);

}  // namespace siglab::gui
