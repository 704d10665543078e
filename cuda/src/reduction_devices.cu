// Sums over several devices: each part resident on its device, reduced there, added on the host.
#include <cuda_runtime.h>

#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_scope.hpp"
#include "device_split.hpp"
#include "reduction_kernels.cuh"
#include "siglab/cuda_reduce.hpp"
#include "siglab/measure.hpp"
#include "siglab/split_filter.hpp"

namespace siglab {
namespace {

template <class In>
using AccumulatorOf = std::conditional_t<std::is_same_v<In, double>, double, long long>;

// One part on its device: the values, the partial sums and the result, and a stream of its own.
template <class In>
struct DevicePart {
  DevicePart(int device_, std::span<const In> values)
      : device(device_), n(static_cast<std::int64_t>(values.size())), d_in(values.size(), stream.view()),
        d_partial(static_cast<std::size_t>(cuda::reducePartialCount(cuda::ReduceKernel::WarpShuffle16B, n)),
                  stream.view()),
        d_result(1, stream.view()) {
    d_in.copyFrom(values.data(), values.size());
    stream.synchronize();
  }
  int device;
  std::int64_t n;
  cuda::Stream stream;  // before the buffers, which are made for it
  cuda::DeviceBuffer<In> d_in;
  cuda::DeviceBuffer<AccumulatorOf<In>> d_partial, d_result;
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
  auto freeParts = [&] {
    for (auto& part : parts) {
      const cuda::DeviceScope scope(part->device, std::nothrow);
      part.reset();
    }
  };
  try {
    // Cuts at multiples of 4 values keep every part's 16-byte loads aligned.
    const std::vector<SignalPart> split = splitIntoParts(values.size(), result.devices.size(), 4);
    for (std::size_t p = 0; p < split.size(); ++p) {
      const cuda::DeviceScope scope(result.devices[p]);
      parts.push_back(std::make_unique<DevicePart<In>>(result.devices[p], values.subspan(split[p].begin, split[p].size())));
    }
    auto once = [&] {
      return timeOnHost([&] {
        for (auto& part : parts) {
          const cuda::DeviceScope scope(part->device);
          cuda::launchReduce(cuda::ReduceKernel::WarpShuffle16B, cuda::ReduceOp::Sum, part->d_in.data(), part->n,
                             part->d_partial.data(), part->d_result.data(), part->stream.view());
        }
        for (auto& part : parts) {
          const cuda::DeviceScope scope(part->device);
          part->stream.synchronize();
        }
      });
    };
    result.time = measure(once, MeasureOptions{1, repeat}).total;
    std::vector<double> sums;
    std::int64_t total = 0;
    for (auto& part : parts) {
      const cuda::DeviceScope scope(part->device);
      Acc sum{};
      part->d_result.copyTo(&sum, 1);
      part->stream.synchronize();
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
  } catch (const cuda::OutOfDeviceMemory& e) {
    result.problem = std::string("out of GPU memory (") + e.what() + ")";
  } catch (const cuda::CudaError& e) {
    result.problem = e.what();
  } catch (const std::exception& e) {
    result.problem = e.what();
  }
  freeParts();
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
