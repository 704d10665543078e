#include "about_box.hpp"

#include <qcustomplot.h>

#include <QMessageBox>

#include "app_resources.hpp"
#include "device_panel.hpp"

namespace siglab::gui {

QString aboutText(const std::vector<DeviceInfo>& devices) {
  return QMessageBox::tr(
             "<h3>SigLab %1</h3><p>Filters for large 1-D signals on the CPU and the GPU, compared honestly.</p>"
             "<p>Home: <a href=\"%2\">%2</a></p>"
             "<p>Licence: GNU General Public License, version 3 or later (GPL-3.0-or-later). SigLab comes with "
             "ABSOLUTELY NO WARRANTY; you may redistribute it under the terms of that licence.</p>"
             "<p>Qt %3, QCustomPlot %4 (GPL-3.0-or-later), CUDA engines %5.</p><p>GPU: %6</p>")
      .arg(SIGLAB_VERSION, SIGLAB_HOMEPAGE, qVersion(), QCUSTOMPLOT_VERSION_STR,
           builtWithCuda() ? QMessageBox::tr("built") : QMessageBox::tr("not built"),
           gpuSummary(devices).toHtmlEscaped());
}

QMessageBox* makeAboutBox(const std::vector<DeviceInfo>& devices, QWidget* parent) {
  auto* box = new QMessageBox(parent);
  box->setWindowTitle(QMessageBox::tr("About SigLab"));
  box->setTextFormat(Qt::RichText);
  box->setText(aboutText(devices));
  box->setIconPixmap(applicationIcon().pixmap(96, 96));
  box->setTextInteractionFlags(Qt::TextBrowserInteraction);  // the home page link opens
  box->setStandardButtons(QMessageBox::Ok);
  box->setAttribute(Qt::WA_DeleteOnClose);
  return box;
}

}  // namespace siglab::gui
