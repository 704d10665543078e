#include "siglab/metrics.hpp"

namespace siglab {

double bytesMoved(std::size_t samples, SampleType type) {
  return 2.0 * static_cast<double>(sampleSize(type)) * static_cast<double>(samples);
}

double gigabytesPerSecond(double bytes, double ms) { return ms > 0.0 ? bytes / (ms * 1e6) : 0.0; }

double bytesMoved(const Comparison& comparison) { return bytesMoved(comparison.samples, comparison.sampleType); }

double transferGBs(const Comparison& comparison, const BackendResult& result) {
  if (!result.usesGpu || result.run.status != RunStatus::Ok) return 0.0;
  return gigabytesPerSecond(bytesMoved(comparison), result.run.transfer.medianMs);
}

double kernelGBs(const Comparison& comparison, const BackendResult& result) {
  if (result.run.status != RunStatus::Ok) return 0.0;
  return gigabytesPerSecond(bytesMoved(comparison.samples, comparison.sampleType), result.run.kernel.medianMs);
}

double percentOfDeviceLimit(const Comparison& comparison, const BackendResult& result, double deviceLimitGBs) {
  if (!result.usesGpu || deviceLimitGBs <= 0.0) return 0.0;
  return 100.0 * kernelGBs(comparison, result) / deviceLimitGBs;
}

}  // namespace siglab
