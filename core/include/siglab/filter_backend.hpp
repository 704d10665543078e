#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/filter_spec.hpp"
#include "siglab/timing.hpp"

namespace siglab {

struct RunOptions {
  int repeat = 10;       // timed runs after one warm-up; the median is reported
  int blockSize = 512;   // threads per block for GPU kernels
};

enum class RunStatus { Ok, Unavailable, Failed };

// What one backend's run produced: timings split by phase, or why there are none.
struct FilterRun {
  RunStatus status = RunStatus::Ok;
  std::string message;     // the reason when not Ok; a note (e.g. a fallback taken) otherwise
  TimingStats kernel;      // the computation alone
  TimingStats transfer;    // host<->device copies (zero for CPU engines)
  TimingStats total;       // end to end: what a caller waits for, copies included
};

// One filter engine. Front-ends hold a list of these and never branch on CPU or GPU.
class FilterBackend {
 public:
  virtual ~FilterBackend() = default;
  virtual std::string_view name() const = 0;         // "cpu-serial", "gpu-shared", ...
  virtual std::string_view description() const = 0;  // one line for people
  // Why this backend cannot run here, or empty when it can.
  virtual std::string unavailableReason() const { return {}; }
  // Largest |out - reference| accepted; 0 means the output must be bit-identical to cpu-serial.
  virtual double tolerance(const FilterSpec& /*spec*/, double /*maxAbsInput*/) const { return 0.0; }
  // The same for a float32 run (compared with cpu-serial's float32 result).
  virtual double toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const {
    return tolerance(spec, maxAbsInput);
  }
  // Filters `in` into `out` (same size), repeating as `options` asks. Never throws for a device
  // problem: returns Unavailable or Failed with the reason instead.
  virtual FilterRun run(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                        const RunOptions& options) = 0;
  // The same in float32 (half the bytes). Engines without a float32 path say so.
  virtual FilterRun run(std::span<const float> /*in*/, const FilterSpec& /*spec*/, std::span<float> /*out*/,
                        const RunOptions& /*options*/) {
    return FilterRun{RunStatus::Unavailable, std::string(name()) + " has no float32 path", {}, {}, {}};
  }
};

using BackendList = std::vector<std::unique_ptr<FilterBackend>>;

}  // namespace siglab
