#pragma once
#include <QRect>

namespace siglab::gui {

// Where a first window (no saved geometry) goes: 85% of the screen's available area in each
// direction, centred, so it takes most of the screen it opens on whatever that screen's size.
QRect firstWindowGeometry(const QRect& available);

}  // namespace siglab::gui
