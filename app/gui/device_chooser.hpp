#pragma once
#include <QCheckBox>
#include <QLabel>
#include <QSpinBox>
#include <QWidget>

#include <vector>

#include "siglab/cuda_backends.hpp"

namespace siglab::gui {

// Which GPUs the GPU engines use: a box for each GPU the probe found and the parts each takes (2
// on one GPU runs the multi-device split there). The choice is a device list ("0,1", as
// --devices reads it); the engines are made with it when SigLab starts.
class DeviceChooser : public QWidget {
  Q_OBJECT
 public:
  DeviceChooser(const std::vector<DeviceInfo>& devices, const std::vector<int>& chosen, QWidget* parent = nullptr);
  std::vector<int> chosenDevices() const;

 signals:
  void chosenChanged(const std::vector<int>& devices);

 private:
  void onChange();

  std::vector<QCheckBox*> boxes_;
  std::vector<int> indices_;
  QSpinBox* partsPerDevice_ = nullptr;
  QLabel* note_ = nullptr;
  std::vector<int> inUse_;
};

}  // namespace siglab::gui
