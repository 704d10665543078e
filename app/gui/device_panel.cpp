#include "device_panel.hpp"

#include "siglab/metrics.hpp"

#include "timing_view.hpp"

namespace siglab::gui {
namespace {

QString gib(std::size_t bytes) { return QString::number(static_cast<double>(bytes) / (1ull << 30), 'f', 1) + " GiB"; }

QString cudaVersion(int v) { return QString("%1.%2").arg(v / 1000).arg(v % 1000 / 10); }

}  // namespace

QString gpuSummary(const std::vector<DeviceInfo>& devices) {
  for (const DeviceInfo& d : devices) {
    if (d.available) return QString("%1 (%2)").arg(QString::fromStdString(d.name), gib(d.totalMemoryBytes));
  }
  return QObject::tr("no GPU: %1").arg(devices.empty() ? QString() : QString::fromStdString(devices.front().reason));
}

DevicePanel::DevicePanel(std::vector<DeviceInfo> devices, QWidget* parent) : QLabel(parent), devices_(std::move(devices)) {
  setAlignment(Qt::AlignTop | Qt::AlignLeft);
  setWordWrap(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  setMargin(12);
  showText();
}

void DevicePanel::setMeasuredRun(const Comparison& comparison) {
  measured_.clear();
  for (const BackendResult& r : comparison.results) {
    if (transferGBs(comparison, r) <= 0.0) continue;
    // Transfers copy every sample to the device and every result back.
    measured_ += tr("<li>%1: %2 GB/s host ↔ device (%3 ms for %4 MB)</li>")
                     .arg(QString::fromStdString(r.name))
                     .arg(transferGBs(comparison, r), 0, 'f', 1)
                     .arg(r.run.transfer.medianMs, 0, 'f', 3)
                     .arg(bytesMoved(comparison) / 1e6, 0, 'f', 1);
  }
  showText();
}

void DevicePanel::showText() {
  QString html;
  for (const DeviceInfo& d : devices_) {
    if (!d.available) {
      html += tr("<h3>No GPU</h3><p>%1</p><p>The CPU engines run; the GPU engines are listed as unavailable.</p>")
                  .arg(QString::fromStdString(d.reason).toHtmlEscaped());
      continue;
    }
    html += tr("<h3>GPU %1: %2</h3><table cellspacing=4>"
               "<tr><td>compute capability</td><td>%3.%4, %5 multiprocessors</td></tr>"
               "<tr><td>memory</td><td>%6 (%7 free)</td></tr>"
               "<tr><td>L2 cache</td><td>%8 MiB</td></tr>"
               "<tr><td>theoretical bandwidth</td><td>%9 GB/s</td></tr>"
               "<tr><td>CUDA</td><td>driver %10, runtime %11</td></tr></table>")
                .arg(d.index)
                .arg(QString::fromStdString(d.name).toHtmlEscaped())
                .arg(d.computeMajor)
                .arg(d.computeMinor)
                .arg(d.multiprocessors)
                .arg(gib(d.totalMemoryBytes), gib(d.freeMemoryBytes))
                .arg(static_cast<double>(d.l2CacheBytes) / (1 << 20), 0, 'f', 1)
                .arg(d.theoreticalBandwidthGBs(), 0, 'f', 0)
                .arg(cudaVersion(d.driverVersion), cudaVersion(d.runtimeVersion));
  }
  if (!measured_.isEmpty()) html += tr("<h4>Copy bandwidth measured by the last run</h4><ul>%1</ul>").arg(measured_);
  setText(html);
}

}  // namespace siglab::gui
