#pragma once
// The reduction ladder: the classic sequence of parallel-sum kernels, each one optimisation more
// than the last, timed on the GPU next to cub::DeviceReduce::Sum. No CUDA header is needed.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "siglab/ladder.hpp"
#include "siglab/timing.hpp"

namespace siglab {

struct ReductionStep {
  std::string name;         // "neighbored", ..., "cub-device-reduce"
  std::string description;  // its one optimisation
  TimingStats time;         // both passes (per-block partial sums, then their sum), ms
  double gbPerSecond = 0;   // input bytes over the median time
  double value = 0;         // the sum as a double (integer sums: see integerValue)
  std::int64_t integerValue = 0;
  double absError = 0;      // |value - reference|; integer sums must be exact
  bool exact = false;       // integer sum equal to the 64-bit CPU sum
};

struct ReductionLadder {
  std::string problem;       // why nothing ran (no GPU, out of memory); empty when it ran
  bool integer = false;      // int32 input with 64-bit accumulation, else float64
  std::size_t count = 0;
  std::size_t bytes = 0;
  double reference = 0;      // compensated (Neumaier) CPU sum, or the exact 64-bit integer sum
  std::int64_t integerReference = 0;
  std::vector<ReductionStep> steps;  // the ladder in order, cub-device-reduce last
  ReductionStep sumOfSquares;        // the last ladder kernel summing x*x
  double sumOfSquaresReference = 0;
  std::int64_t integerSumOfSquaresReference = 0;
};

// Runs every step `repeat` times after a warm-up on the values copied to the GPU.
ReductionLadder runReductionLadder(std::span<const double> values, int repeat);
ReductionLadder runReductionLadder(std::span<const std::int32_t> values, int repeat);

// A sum over several devices (siglab/device_list.hpp; "0,0" is two parts on device 0): the values
// split into contiguous parts, one per device, each part copied to its device and summed there by
// warp-shuffle-16B, all devices at once; the parts' sums added on the host (int64: exact; float64:
// compensated, so the total stays within the one-device bound 2 n eps sum|x|).
struct DeviceSum {
  std::string problem;            // why it did not run (no GPU, a device that does not exist, out of memory)
  std::vector<int> devices;
  double value = 0;               // the sum (integer sums: see integerValue)
  std::int64_t integerValue = 0;
  std::vector<double> partSums;   // each part's sum, as double
  TimingStats time;               // kernels only, data resident: the wall clock from the first launch to the last device done
};
DeviceSum sumOnDevices(std::span<const double> values, const std::vector<int>& devices, int repeat);
DeviceSum sumOnDevices(std::span<const std::int32_t> values, const std::vector<int>& devices, int repeat);

// The ladder's rungs in the shape every ladder shares (siglab/ladder.hpp): the kernels as Rung,
// cub-device-reduce as the Yardstick, the sum of squares as Extra; none when the ladder did not run.
std::vector<LadderRung> reductionRungs(const ReductionLadder& ladder);

// The compensated CPU sum the float64 results are measured against (Neumaier's variant of Kahan).
double compensatedSum(std::span<const double> values);

}  // namespace siglab
