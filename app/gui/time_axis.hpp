#pragma once
#include <qcustomplot.h>

namespace siglab::gui {

// Ticks for an axis of sample indices ("97,500,000"), at whole numbers, at most tickCount() + 1 of
// them: fitTicksToLabels sets how many fit.
class IndexAxisTicker : public QCPAxisTicker {
 protected:
  double getTickStep(const QCPRange& range) override;
};

// Ticks for an axis of sample indices, labelled as time (index / rate) with SI prefixes ("250 ms"),
// placed at round numbers of seconds, at most tickCount() + 1 of them.
class TimeAxisTicker : public QCPAxisTicker {
 public:
  explicit TimeAxisTicker(double sampleRate) : rate_(sampleRate) {}
  double sampleRate() const { return rate_; }

 protected:
  double getTickStep(const QCPRange& range) override;
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

 private:
  double rate_;
  double stepSeconds_ = 1.0;  // of the ticks being labelled
};

// The smallest round step (1, 2, 2.5 or 5 times a power of ten) no smaller than `step`: ticks that
// far apart are never closer than asked (QCustomPlot's own rounding may bring them closer).
double roundStepAtLeast(double step);

// Sets `axis`'s tick count to as many ticks as its labels fit side by side with a gap between them
// (fewer on a narrow plot or for long labels such as "97,500,000"), from the axis's current width.
void fitTicksToLabels(QCPAxis* axis);

// "t = 1.5 ms" style text for sample `index` at `sampleRate`, to `digits` significant digits.
QString timeOfSample(double index, double sampleRate, int digits = 6);

}  // namespace siglab::gui
