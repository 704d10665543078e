#pragma once
#include <QDoubleSpinBox>

#include <optional>

namespace siglab::gui {

// The signal's sample rate in Hz, or "unknown" (0): what the file says (WAV), or what the user
// typed for this file last time (QSettings, by absolute path), which wins.
class SampleRateField : public QDoubleSpinBox {
  Q_OBJECT
 public:
  explicit SampleRateField(QWidget* parent = nullptr);

  // A newly loaded file: shows the remembered rate, else `fileRate`; emits rateChanged.
  void setFile(const QString& path, std::optional<double> fileRate);
  std::optional<double> rate() const;

 signals:
  void rateChanged(std::optional<double> rate);

 private:
  void userChanged();
  QString settingsKey() const;

  QString path_;
  std::optional<double> fileRate_;
};

}  // namespace siglab::gui
