#pragma once
#include <qcustomplot.h>

namespace siglab::gui {

// Ticks for an axis of sample indices, labelled as time (index / rate) with SI prefixes ("250 ms"),
// placed at round numbers of seconds.
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

// "t = 1.5 ms" style text for sample `index` at `sampleRate`, to `digits` significant digits.
QString timeOfSample(double index, double sampleRate, int digits = 6);

}  // namespace siglab::gui
