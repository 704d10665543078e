#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "device_buffer.hpp"
#include "event_timer.hpp"
#include "lab_gpu_run.hpp"
#include "reverse_kernels.cuh"
#include "siglab/lab_reverse.hpp"

namespace siglab {

GpuRungs runReversalOnGpu(std::span<const std::int32_t> in, const MeasureOptions& options) {
  const auto n = static_cast<std::int64_t>(in.size());
  return cuda::runOnDevice(reversalBytes(in.size()), [&](const DeviceInfo&, cuda::StreamView stream, GpuRungs& result) {
    cuda::DeviceBuffer<std::int32_t> d_in(in.size(), stream), d_out(in.size(), stream);
    d_in.copyFrom(in.data(), in.size());
    std::vector<std::int32_t> out(in.size());
    cuda::EventTimer timer(stream);
    auto addRung = [&](LadderRung rung, const auto& launch) {
      rung.work = reversalBytes(in.size());
      SIGLAB_CUDA_TRY(cudaMemsetAsync(d_out.data(), 0xFF, d_out.bytes(), stream.get()));  // -1 everywhere
      rung.time = measure([&] { return timer(launch); }, options).total;
      d_out.copyTo(out.data(), out.size());
      stream.synchronize();
      return rung;
    };
    constexpr ReversePattern kPatterns[] = {ReversePattern::OneElementPerThread, ReversePattern::OneElementPerThread,
                                            ReversePattern::SharedTile, ReversePattern::Vector16};
    for (int k = 0; k < cuda::kReverseKernelCount; ++k) {
      const auto kernel = static_cast<cuda::ReverseKernel>(k);
      LadderRung rung;
      rung.name = cuda::reverseKernelName(kernel);
      rung.description = cuda::reverseKernelDescription(kernel);
      rung.access = accessText(reversalAccessEfficiency(kPatterns[k], n));
      rung = addRung(rung, [&] { cuda::launchReverse(kernel, d_in.data(), d_out.data(), n, stream); });
      checkReversal(in, out, rung);
      result.rungs.push_back(rung);
    }
    // The yardstick: the same bytes read and written by the copy engine's own kernel.
    LadderRung copy;
    copy.name = "d2d-copy";
    copy.description = "cudaMemcpyAsync device to device of the same bytes: the yardstick";
    copy.kind = RungKind::Yardstick;
    copy = addRung(copy, [&] {
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_out.data(), d_in.data(), d_in.bytes(), cudaMemcpyDeviceToDevice, stream.get()));
    });
    copy.correct = std::equal(out.begin(), out.end(), in.begin(), in.end());
    copy.result = copy.correct ? "copied exactly" : "WRONG: the copy differs from the input";
    result.rungs.push_back(copy);
  });
}

}  // namespace siglab
