#include "time_axis.hpp"

#include <algorithm>
#include <cmath>

#include "siglab/sample_rate.hpp"

namespace siglab::gui {
namespace {

constexpr int kLabelGapPixels = 24;

}  // namespace

double roundStepAtLeast(double step) {
  if (!(step > 0) || !std::isfinite(step)) return 1.0;
  const double power = std::pow(10.0, std::floor(std::log10(step)));
  for (const double mantissa : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (mantissa * power >= step * (1 - 1e-12)) return mantissa * power;
  }
  return 10.0 * power;
}

double IndexAxisTicker::getTickStep(const QCPRange& range) {
  const double step = roundStepAtLeast(range.size() / std::max(1, tickCount()));
  // Sample indices are whole: no step of 2.5 samples, none below one.
  return step < 10.0 ? std::max(1.0, step == 2.5 ? 5.0 : step) : step;
}

double TimeAxisTicker::getTickStep(const QCPRange& range) {
  stepSeconds_ = roundStepAtLeast(range.size() / rate_ / std::max(1, tickCount()));
  return stepSeconds_ * rate_;
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
  const double seconds = tick / rate_;
  // Enough digits to tell neighbouring ticks apart: 100.001 s next to 100.002 s.
  const double magnitude = std::max(std::fabs(seconds), stepSeconds_);
  const int digits = std::clamp(static_cast<int>(std::ceil(std::log10(magnitude / stepSeconds_))) + 2, 3, 15);
  return timeOfSample(tick, rate_, digits);
}

void fitTicksToLabels(QCPAxis* axis) {
  const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
  const int pixels = axis->orientation() == Qt::Horizontal ? axis->axisRect()->width() : axis->axisRect()->height();
  if (!ticker || pixels <= 0) return;
  // The labels the ticks would have now: their widest decides how many fit.
  QVector<double> ticks;
  QVector<QString> labels;
  ticker->generate(axis->range(), axis->parentPlot()->locale(), axis->numberFormat().at(0), axis->numberPrecision(),
                   ticks, nullptr, &labels);
  const QFontMetrics metrics(axis->tickLabelFont());
  int widest = 0;
  for (const QString& label : labels) {
    widest = std::max(widest, axis->orientation() == Qt::Horizontal ? metrics.horizontalAdvance(label) : metrics.height());
  }
  const int fit = std::clamp(pixels / (widest + kLabelGapPixels), 1, 10);
  if (fit == ticker->tickCount()) return;
  ticker->setTickCount(fit);
}

QString timeOfSample(double index, double sampleRate, int digits) {
  return QString::fromStdString(withSiPrefix(index / sampleRate, "s", digits));
}

}  // namespace siglab::gui
