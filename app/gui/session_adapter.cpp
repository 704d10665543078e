#include "session_adapter.hpp"

#include <QRegularExpression>
#include <QSettings>
#include <QStringList>
#include <QTemporaryFile>

#include <algorithm>
#include <memory>

#include "filter_panel.hpp"

namespace siglab::gui {
namespace {

// A QSettings on a scratch INI file, gone with it.
class ScratchSettings {
 public:
  ScratchSettings() {
    file_.open();
    settings_ = std::make_unique<QSettings>(file_.fileName(), QSettings::IniFormat);
  }
  QSettings& operator*() { return *settings_; }
  QSettings* operator->() { return settings_.get(); }

 private:
  QTemporaryFile file_;
  std::unique_ptr<QSettings> settings_;
};

}  // namespace

FilterSettings filterSettingsOf(const FilterPanel& panel) {
  ScratchSettings settings;
  panel.saveSettings(*settings);
  FilterSettings filter;
  filter.taps = settings->value("filter/taps", "mean").toString().toStdString();
  filter.window = settings->value("filter/window", 5).toULongLong();
  filter.sigma = settings->value("filter/gaussianSigma", 1.0).toDouble();
  for (const QString& part :
       settings->value("filter/customTaps").toString().split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts)) {
    bool ok = false;
    const double value = part.toDouble(&ok);
    if (ok) filter.customTaps.push_back(value);
  }
  filter.mode = settings->value("filter/mode", "zero").toString().toStdString();
  filter.repeat = settings->value("filter/repeat", 10).toInt();
  filter.savgolOrder = settings->value("filter/savgolOrder", 2).toULongLong();
  filter.savgolDeriv = settings->value("filter/savgolDeriv", 0).toULongLong();
  filter.butterOrder = settings->value("filter/butterOrder", 4).toInt();
  filter.butterBand = settings->value("filter/butterBand", "lowpass").toString().toStdString();
  filter.cutoff = settings->value("filter/cutoff", 0.2).toDouble();
  filter.cutoff2 = settings->value("filter/cutoff2", 0.4).toDouble();
  filter.zeroPhase = settings->value("filter/zeroPhase", true).toBool();
  return filter;
}

void applyFilterSettings(FilterPanel& panel, const FilterSettings& filter) {
  ScratchSettings settings;
  panel.saveSettings(*settings);  // keeps what sessions do not hold, such as the engines
  QStringList taps;
  for (double t : filter.customTaps) taps << QString::number(t, 'g', 17);
  settings->setValue("filter/taps", QString::fromStdString(filter.taps));
  settings->setValue("filter/window", static_cast<qulonglong>(filter.window));
  settings->setValue("filter/gaussianSigma", filter.sigma);
  settings->setValue("filter/customTaps", taps.join(", "));
  settings->setValue("filter/mode", QString::fromStdString(filter.mode));
  settings->setValue("filter/repeat", filter.repeat);
  settings->setValue("filter/savgolOrder", static_cast<qulonglong>(filter.savgolOrder));
  settings->setValue("filter/savgolDeriv", static_cast<qulonglong>(filter.savgolDeriv));
  settings->setValue("filter/butterOrder", filter.butterOrder);
  settings->setValue("filter/butterBand", QString::fromStdString(filter.butterBand));
  settings->setValue("filter/cutoff", filter.cutoff);
  settings->setValue("filter/cutoff2", filter.cutoff2);
  settings->setValue("filter/zeroPhase", filter.zeroPhase);
  panel.restoreSettings(*settings);
}

void applyEngines(FilterPanel& panel, const std::vector<std::string>& engines) {
  for (const std::string& name : panel.checkedEngines()) {
    if (std::find(engines.begin(), engines.end(), name) == engines.end()) panel.setEngineChecked(name, false);
  }
  for (const std::string& name : engines) panel.setEngineChecked(name, true);
}

}  // namespace siglab::gui
