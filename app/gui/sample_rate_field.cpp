#include "sample_rate_field.hpp"

#include <QFileInfo>
#include <QSettings>
#include <QSignalBlocker>

namespace siglab::gui {

SampleRateField::SampleRateField(QWidget* parent) : QDoubleSpinBox(parent) {
  setRange(0.0, 1e12);
  setDecimals(3);
  setSuffix(tr(" Hz"));
  setSpecialValueText(tr("unknown"));  // 0: positions stay sample indices
  setKeyboardTracking(false);           // one change when the user is done typing
  setAccelerated(true);
  setToolTip(tr("Sample rate of this signal: plots and statistics show time, the spectrum Hz, and a WAV export "
                "keeps it. Remembered for this file; 0 for unknown"));
  connect(this, &QDoubleSpinBox::valueChanged, this, &SampleRateField::userChanged);
}

QString SampleRateField::settingsKey() const {
  // QSettings treats '/' as a group separator: keep the path in one key.
  return "sampleRates/" + QString(QFileInfo(path_).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}

void SampleRateField::setFile(const QString& path, std::optional<double> fileRate) {
  path_ = path;
  fileRate_ = fileRate;
  const QVariant remembered = QSettings().value(settingsKey());
  {
    const QSignalBlocker block(this);
    setValue(remembered.isValid() ? remembered.toDouble() : fileRate.value_or(0.0));
  }
  emit rateChanged(rate());
}

std::optional<double> SampleRateField::rate() const {
  return value() > 0.0 ? std::optional<double>(value()) : std::nullopt;
}

void SampleRateField::userChanged() {
  if (!path_.isEmpty()) {
    QSettings settings;
    if (rate() == fileRate_) settings.remove(settingsKey());  // back to what the file says
    else settings.setValue(settingsKey(), value());
  }
  emit rateChanged(rate());
}

}  // namespace siglab::gui
