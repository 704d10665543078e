#include "colour_maps.hpp"

#include <array>

namespace siglab::gui {
namespace {

using Stops = std::array<QRgb, 9>;  // at 0, 1/8, ..., 1
constexpr Stops kViridis = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};
constexpr Stops kMagma = {0x000004, 0x1c1044, 0x4f127b, 0x812581, 0xb5367a, 0xe55064, 0xfb8761, 0xfec287, 0xfcfdbf};

QCPColorGradient gradientOf(const Stops& stops) {
  QCPColorGradient gradient;
  QMap<double, QColor> map;
  for (std::size_t i = 0; i < stops.size(); ++i) map[static_cast<double>(i) / 8.0] = QColor(stops[i]);
  gradient.setColorStops(map);
  gradient.setColorInterpolation(QCPColorGradient::ciRGB);
  return gradient;
}

}  // namespace

QStringList colourMapNames() { return {"viridis", "magma", "grey"}; }

QCPColorGradient colourGradient(const QString& name) {
  QCPColorGradient gradient = name == "magma" ? gradientOf(kMagma)
                              : name == "grey" ? QCPColorGradient(QCPColorGradient::gpGrayscale)
                                               : gradientOf(kViridis);
  gradient.setNanHandling(QCPColorGradient::nhTransparent);
  return gradient;
}

}  // namespace siglab::gui
