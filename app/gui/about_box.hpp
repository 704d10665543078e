#pragma once
#include <QString>

#include <vector>

#include "siglab/cuda_backends.hpp"

class QMessageBox;
class QWidget;

namespace siglab::gui {

// The About box's text: version, licence, home page and what the engines were built with.
QString aboutText(const std::vector<DeviceInfo>& devices);
// The About box itself, with the application's icon; not yet shown.
QMessageBox* makeAboutBox(const std::vector<DeviceInfo>& devices, QWidget* parent);

}  // namespace siglab::gui
