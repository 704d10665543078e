#include "window_geometry.hpp"

namespace siglab::gui {

QRect firstWindowGeometry(const QRect& available) {
  constexpr double kShare = 0.85;
  const QSize size(static_cast<int>(available.width() * kShare), static_cast<int>(available.height() * kShare));
  QRect geometry(QPoint(0, 0), size);
  geometry.moveCenter(available.center());
  return geometry;
}

}  // namespace siglab::gui
