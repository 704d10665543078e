// Sums over several devices: each part resident on its device, reduced there, added on the host.
#include <cuda_runtime.h>

#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "gpu_engine.hpp"
#include "device_split.hpp"
#include "reduction_kernels.cuh"
#include "siglab/cuda_reduce.hpp"
#include "siglab/measure.hpp"
#include "siglab/split_filter.hpp"

namespace siglab {
namespace {

template <class In>
using AccumulatorOf = std::conditional_t<std::is_same_v<In, double>, double, long long>;

// One part on its device: its engine (device, stream, failures mapped once), the values, the
// partial sums and the result.
template <class In>
struct DevicePart {
  DevicePart(int device, std::span<const In> values_) : engine(std::string(), device), values(values_) {}
  cuda::GpuEngine engine;
  std::span<const In> values;
  cuda::DeviceBuffer<In> d_in;  // made in its engine's first run, for its stream
  cuda::DeviceBuffer<AccumulatorOf<In>> d_partial, d_result;
  std::int64_t n() const { return static_cast<std::int64_t>(values.size()); }
};

template <class In>
DeviceSum sumParts(std::span<const In> values, const std::vector<int>& devices, int repeat) {
  using Acc = AccumulatorOf<In>;
  DeviceSum result;
  result.devices = devices.empty() ? std::vector<int>{0} : devices;
  const std::vector<DeviceInfo> probed = probeDevices();
  for (int device : result.devices) {
    if (std::string why = cuda::deviceProblem(probed, device); !why.empty()) {
      result.problem = why;
      return result;
    }
  }
  std::vector<std::unique_ptr<DevicePart<In>>> parts;
  const std::string outOfMemory = "out of GPU memory";
  try {
    // Cuts at multiples of 4 values keep every part's 16-byte loads aligned.
    const std::vector<SignalPart> split = splitIntoParts(values.size(), result.devices.size(), 4);
    for (std::size_t p = 0; p < split.size(); ++p) {
      auto part = std::make_unique<DevicePart<In>>(result.devices[p], values.subspan(split[p].begin, split[p].size()));
      part->engine.run(outOfMemory, [&](const cuda::OnDevice& on) {
        part->d_in = cuda::DeviceBuffer<In>(part->values.size(), on.stream);
        part->d_partial = cuda::DeviceBuffer<Acc>(
            static_cast<std::size_t>(cuda::reducePartialCount(cuda::ReduceKernel::WarpShuffle16B, part->n())), on.stream);
        part->d_result = cuda::DeviceBuffer<Acc>(1, on.stream);
        part->d_in.copyFrom(part->values.data(), part->values.size());
        on.stream.synchronize();
      });
      parts.push_back(std::move(part));
    }
    auto once = [&] {
      return timeOnHost([&] {
        for (auto& part : parts) {
          part->engine.run(outOfMemory, [&](const cuda::OnDevice& on) {
            cuda::launchReduce(cuda::ReduceKernel::WarpShuffle16B, cuda::ReduceOp::Sum, part->d_in.data(), part->n(),
                               part->d_partial.data(), part->d_result.data(), on.stream);
          });
        }
        for (auto& part : parts) {
          part->engine.run(outOfMemory, [&](const cuda::OnDevice& on) { on.stream.synchronize(); });
        }
      });
    };
    result.time = measure(once, MeasureOptions{1, repeat}).total;
    std::vector<double> sums;
    std::int64_t total = 0;
    for (auto& part : parts) {
      Acc sum{};
      part->engine.run(outOfMemory, [&](const cuda::OnDevice& on) {
        part->d_result.copyTo(&sum, 1);
        on.stream.synchronize();
      });
      sums.push_back(static_cast<double>(sum));
      if constexpr (!std::is_same_v<Acc, double>) total += sum;
    }
    result.partSums = sums;
    if constexpr (std::is_same_v<Acc, double>) {
      result.value = compensatedSum(sums);
    } else {
      result.integerValue = total;
      result.value = static_cast<double>(total);
    }
  } catch (const std::exception& e) {
    result.problem = e.what();
  }
  parts.clear();  // each buffer is freed on its own device
  return result;
}

}  // namespace

DeviceSum sumOnDevices(std::span<const double> values, const std::vector<int>& devices, int repeat) {
  return sumParts(values, devices, repeat);
}
DeviceSum sumOnDevices(std::span<const std::int32_t> values, const std::vector<int>& devices, int repeat) {
  return sumParts(values, devices, repeat);
}

}  // namespace siglab
