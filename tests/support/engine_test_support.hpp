#pragma once
// One engine execution as the tests look at it: Ok with its phases and note, or Unavailable or
// Failed with the reason, as a comparison would record it.
#include <exception>
#include <memory>
#include <stdexcept>
#include <span>
#include <string>
#include <type_traits>

#include "siglab/comparison.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab::test {

// cpu-serial and cpu-parallel, the engines every machine has.
inline BackendList cpuEngines() {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  return engines;
}

// A GPU engine by name that the tests' rules may choose but that runs no filter here (auto's
// choices are looked at, not run); a test overrides what it runs.
class GpuEngineStub : public FilterBackend {
 public:
  explicit GpuEngineStub(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return "test"; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return {}; }
  FilterPass filter(std::span<const double>, const FilterSpec&, std::span<double>, const RunOptions&,
                    const Progress&) override {
    throw std::logic_error("not run here");
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw std::logic_error("not run here");
  }

 private:
  std::string name_;
};

struct OneRun {
  RunStatus status = RunStatus::Ok;
  std::string message;  // the reason, or the engine's note
  PhaseTimes phases;
  WorkSplits splits;
};

template <class T>
OneRun runOnce(FilterBackend& engine, std::span<const T> in, const FilterSpec& spec, std::span<T> out,
               const RunOptions& options = {}) {
  const SampleType type = std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64;
  if (std::string why = engine.whyNot(spec, type); !why.empty()) return {RunStatus::Unavailable, why, {}, {}};
  try {
    FilterPass pass = engine.filter(in, spec, out, options);
    return {RunStatus::Ok, pass.note, pass.phases, pass.splits};
  } catch (const EngineUnavailable& e) {
    return {RunStatus::Unavailable, e.what(), {}, {}};
  } catch (const std::exception& e) {
    return {RunStatus::Failed, e.what(), {}, {}};
  }
}

// The same for containers (vectors, pinned buffers' spans).
template <class In, class Out>
OneRun runOnce(FilterBackend& engine, const In& in, const FilterSpec& spec, Out&& out, const RunOptions& options = {}) {
  using T = std::remove_const_t<std::remove_reference_t<decltype(*std::data(in))>>;
  return runOnce<T>(engine, std::span<const T>(std::data(in), std::size(in)), spec,
                    std::span<T>(std::data(out), std::size(out)), options);
}

}  // namespace siglab::test
