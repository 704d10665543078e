#include "device_chooser.hpp"

#include <QFormLayout>
#include <QVBoxLayout>

#include <algorithm>

#include "siglab/device_list.hpp"

namespace siglab::gui {

DeviceChooser::DeviceChooser(const std::vector<DeviceInfo>& devices, const std::vector<int>& chosen, QWidget* parent)
    : QWidget(parent), inUse_(chosen) {
  auto* layout = new QVBoxLayout(this);
  auto* heading = new QLabel(tr("<b>GPUs the GPU engines use</b> (one contiguous part of the signal each, the same bits)"));
  heading->setWordWrap(true);  // the view fits a narrow dock
  layout->addWidget(heading);
  const std::vector<int> used = chosen.empty() ? std::vector<int>{0} : chosen;
  for (const DeviceInfo& d : devices) {
    if (!d.available) continue;
    auto* box = new QCheckBox(tr("GPU %1: %2").arg(d.index).arg(QString::fromStdString(d.name)));
    box->setChecked(std::find(used.begin(), used.end(), d.index) != used.end());
    connect(box, &QCheckBox::toggled, this, &DeviceChooser::onChange);
    layout->addWidget(box);
    boxes_.push_back(box);
    indices_.push_back(d.index);
  }
  partsPerDevice_ = new QSpinBox;
  partsPerDevice_->setRange(1, 4);
  const auto firstCount = used.empty() ? 1 : std::count(used.begin(), used.end(), used.front());
  partsPerDevice_->setValue(static_cast<int>(std::clamp<long>(firstCount, 1, 4)));
  partsPerDevice_->setToolTip(tr("Parts of the signal on each chosen GPU; 2 on one GPU runs the multi-device split there"));
  connect(partsPerDevice_, &QSpinBox::valueChanged, this, &DeviceChooser::onChange);
  auto* form = new QFormLayout;
  form->addRow(tr("Parts per GPU"), partsPerDevice_);
  layout->addLayout(form);
  note_ = new QLabel;
  note_->setWordWrap(true);
  layout->addWidget(note_);
  if (boxes_.empty()) {
    partsPerDevice_->setEnabled(false);
    note_->setText(tr("No GPU to choose: the GPU engines are listed as unavailable."));
  }
  layout->addStretch();
}

std::vector<int> DeviceChooser::chosenDevices() const {
  std::vector<int> devices;
  for (std::size_t i = 0; i < boxes_.size(); ++i) {
    if (!boxes_[i]->isChecked()) continue;
    for (int p = 0; p < partsPerDevice_->value(); ++p) devices.push_back(indices_[i]);
  }
  return devices;
}

void DeviceChooser::onChange() {
  const std::vector<int> devices = chosenDevices();
  if (devices.empty()) {
    note_->setText(tr("Choose at least one GPU; the engines keep using devices %1.")
                       .arg(QString::fromStdString(formatDeviceList(inUse_.empty() ? std::vector<int>{0} : inUse_))));
    return;
  }
  note_->setText(devices == inUse_ ? QString()
                                   : tr("Devices %1 are used from the next start of SigLab (the engines keep their "
                                        "device buffers for the session).")
                                         .arg(QString::fromStdString(formatDeviceList(devices))));
  emit chosenChanged(devices);
}

}  // namespace siglab::gui
