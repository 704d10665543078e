#pragma once
// How cursors A and B look and how near a press grabs one, the same on every view that draws them.
#include <QColor>

namespace siglab::gui {

inline const QColor kCursorColors[2] = {QColor(0, 137, 123), QColor(142, 36, 170)};  // A, B
inline constexpr double kCursorGrabPixels = 6.0;

}  // namespace siglab::gui
