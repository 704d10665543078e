#pragma once
#include <QLabel>

#include <vector>

#include "siglab/comparison.hpp"
#include "siglab/cuda_backends.hpp"

namespace siglab::gui {

// The GPU: name, memory, theoretical bandwidth and the copy bandwidth measured by the last run,
// or why there is no GPU.
class DevicePanel : public QLabel {
  Q_OBJECT
 public:
  explicit DevicePanel(std::vector<DeviceInfo> devices, QWidget* parent = nullptr);
  void setMeasuredRun(const Comparison& comparison);
  const std::vector<DeviceInfo>& devices() const { return devices_; }

 private:
  void showText();

  std::vector<DeviceInfo> devices_;
  QString measured_;
};

// "NVIDIA H100 (80 GiB)" or the reason there is none, for the About box and the status bar.
QString gpuSummary(const std::vector<DeviceInfo>& devices);

}  // namespace siglab::gui
