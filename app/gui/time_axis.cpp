#include "time_axis.hpp"

#include <algorithm>
#include <cmath>

#include "siglab/sample_rate.hpp"

namespace siglab::gui {

double TimeAxisTicker::getTickStep(const QCPRange& range) {
  stepSeconds_ = cleanMantissa(range.size() / rate_ / (tickCount() + 1e-10));
  return stepSeconds_ * rate_;
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
  const double seconds = tick / rate_;
  // Enough digits to tell neighbouring ticks apart: 100.001 s next to 100.002 s.
  const double magnitude = std::max(std::fabs(seconds), stepSeconds_);
  const int digits = std::clamp(static_cast<int>(std::ceil(std::log10(magnitude / stepSeconds_))) + 2, 3, 15);
  return timeOfSample(tick, rate_, digits);
}

QString timeOfSample(double index, double sampleRate, int digits) {
  return QString::fromStdString(withSiPrefix(index / sampleRate, "s", digits));
}

}  // namespace siglab::gui
