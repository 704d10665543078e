#pragma once
#include <qcustomplot.h>

#include <QStringList>

namespace siglab::gui {

// The colour maps a spectrogram offers: "viridis" and "magma" (matplotlib's perceptually uniform
// maps, sampled at nine stops) and "grey" (black to white).
QStringList colourMapNames();
// The gradient of `name` (viridis for a name not listed); NaN cells (not computed yet) transparent.
QCPColorGradient colourGradient(const QString& name);

}  // namespace siglab::gui
