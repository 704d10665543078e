#pragma once
#include <QString>

class QCustomPlot;
class QPrinter;

namespace siglab::gui {

// How a plot is written: its size in pixels (0: as on screen) and a title drawn above it.
struct PlotImageOptions {
  int width = 0;
  int height = 0;
  QString title;
};

// Saves `plot` as PNG, SVG or PDF (chosen by the extension) atomically: a reader sees the old file
// or the complete new one. Throws InputError naming the file on failure. GUI thread only.
void savePlot(QCustomPlot* plot, const QString& path, const PlotImageOptions& options = {});

// Prints `plot`, scaled to the printer's page, with the title above it. GUI thread only.
void printPlot(QCustomPlot* plot, QPrinter& printer, const QString& title);

}  // namespace siglab::gui
