#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <cmath>
#include <exception>
#include <type_traits>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "event_timer.hpp"
#include "gpu_engine.hpp"
#include "reduction_kernels.cuh"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_reduce.hpp"

namespace siglab {
namespace {

using cuda::DeviceBuffer;
using cuda::ReduceKernel;
using cuda::ReduceOp;

template <class In>
using AccumulatorOf = std::conditional_t<std::is_same_v<In, double>, double, long long>;

// Times `launch` (which enqueues one whole reduction) with measure(): one warm-up, `repeat` runs.
template <class Launch>
TimingStats timeReduction(cuda::StreamView stream, const Launch& launch, int repeat) {
  cuda::EventTimer timer(stream);
  return measure([&] { return timer(launch); }, MeasureOptions{1, repeat}).total;
}

template <class Acc>
Acc download(const DeviceBuffer<Acc>& d_value) {
  Acc value{};
  d_value.copyTo(&value, 1);
  d_value.stream().synchronize();
  return value;
}

template <class Acc>
void setValue(ReductionStep& step, Acc value, const ReductionLadder& ladder, bool squares) {
  if constexpr (std::is_same_v<Acc, double>) {
    step.value = value;
    step.absError = std::fabs(value - (squares ? ladder.sumOfSquaresReference : ladder.reference));
  } else {
    const std::int64_t reference = squares ? ladder.integerSumOfSquaresReference : ladder.integerReference;
    step.integerValue = value;
    step.value = static_cast<double>(value);
    step.exact = value == reference;
    step.absError = std::fabs(static_cast<double>(value - reference));
  }
}

template <class In>
void fillReferences(std::span<const In> values, ReductionLadder& ladder) {
  if constexpr (std::is_same_v<In, double>) {
    std::vector<double> squares(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) squares[i] = values[i] * values[i];
    ladder.reference = compensatedSum(values);
    ladder.sumOfSquaresReference = compensatedSum(squares);
  } else {
    std::int64_t sum = 0, squares = 0;
    for (const In v : values) {
      sum += v;
      squares += static_cast<std::int64_t>(v) * v;
    }
    ladder.integerReference = sum;
    ladder.integerSumOfSquaresReference = squares;
    ladder.reference = static_cast<double>(sum);
    ladder.sumOfSquaresReference = static_cast<double>(squares);
  }
}

template <class In>
ReductionLadder runLadder(std::span<const In> values, int repeat) {
  using Acc = AccumulatorOf<In>;
  ReductionLadder ladder;
  ladder.integer = !std::is_same_v<In, double>;
  ladder.count = values.size();
  ladder.bytes = values.size() * sizeof(In);
  const std::vector<DeviceInfo> devices = probeDevices();
  if (!devices.front().available) {
    ladder.problem = devices.front().reason;
    return ladder;
  }
  cuda::GpuEngine engine(std::string(), devices.front().index);
  const std::string outOfMemory = "out of GPU memory for " + std::to_string(ladder.bytes >> 20) + " MiB of input";
  try {
    engine.run(outOfMemory, [&](const cuda::OnDevice& on) {
      fillReferences(values, ladder);
      const auto n = static_cast<std::int64_t>(values.size());
      const cuda::StreamView view = on.stream;
      DeviceBuffer<In> d_in(values.size(), view);
      d_in.copyFrom(values.data(), values.size());
      DeviceBuffer<Acc> d_partial(static_cast<std::size_t>(cuda::reducePartialCount(ReduceKernel::Neighbored, n)), view);
      DeviceBuffer<Acc> d_result(1, view);
      auto addStep = [&](const std::string& name, const std::string& description, const TimingStats& time,
                         bool squares = false) {
        ReductionStep step;
        step.name = name;
        step.description = description;
        step.time = time;
        step.gbPerSecond = perSecond(static_cast<double>(ladder.bytes), time.medianMs);
        setValue(step, download(d_result), ladder, squares);
        return step;
      };
      for (int k = 0; k < cuda::kReduceKernelCount; ++k) {
        const auto kernel = static_cast<ReduceKernel>(k);
        const TimingStats time = timeReduction(
            view, [&] { cuda::launchReduce(kernel, ReduceOp::Sum, d_in.data(), n, d_partial.data(), d_result.data(), view); },
            repeat);
        ladder.steps.push_back(addStep(cuda::reduceKernelName(kernel), cuda::reduceKernelDescription(kernel), time));
      }
      // The yardstick: CUB's device-wide sum, accumulating in the output type (int64 for int32 input).
      std::size_t tempBytes = 0;
      SIGLAB_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, tempBytes, d_in.data(), d_result.data(), n, view.get()));
      DeviceBuffer<unsigned char> d_temp(std::max<std::size_t>(tempBytes, 1), view);
      const TimingStats cubTime = timeReduction(
          view,
          [&] { SIGLAB_CUDA_TRY(cub::DeviceReduce::Sum(d_temp.data(), tempBytes, d_in.data(), d_result.data(), n, view.get())); },
          repeat);
      ladder.steps.push_back(addStep("cub-device-reduce", "cub::DeviceReduce::Sum, the yardstick", cubTime));

      const TimingStats squaresTime = timeReduction(
          view,
          [&] {
            cuda::launchReduce(ReduceKernel::WarpShuffle16B, ReduceOp::SumOfSquares, d_in.data(), n, d_partial.data(),
                               d_result.data(), view);
          },
          repeat);
      ladder.sumOfSquares = addStep("sum-of-squares", "warp-shuffle-16B summing x*x", squaresTime, true);
    });
  } catch (const std::exception& e) {
    ladder.problem = e.what();
    ladder.steps.clear();
  }
  return ladder;
}

}  // namespace

ReductionLadder runReductionLadder(std::span<const double> values, int repeat) { return runLadder(values, repeat); }
ReductionLadder runReductionLadder(std::span<const std::int32_t> values, int repeat) {
  return runLadder(values, repeat);
}

}  // namespace siglab
