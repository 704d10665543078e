#include <cmath>
#include <cstdio>
#include <type_traits>
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "lab_ladders.hpp"
#include "ladder_table.hpp"
#include "option_checks.hpp"
#include "reduction_inputs.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_reduce.hpp"
#include "siglab/device_list.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab::cli {
namespace {

struct ReduceOptions {
  std::string input;
  ReadOptions read;
  int randomIntsLog2 = 28;
  std::uint64_t seed = 1;
  int repeat = 20;
  std::string devices;  // --devices: also the sum split over these GPUs
  std::vector<int> deviceList;
};

// The sum split over the --devices GPUs, checked like the ladder: integers exact, float64 within
// 2 n eps sum|x| of the compensated sum. Returns whether it agreed (or could not run: said why).
template <class T>
bool printDeviceSum(std::span<const T> values, const std::vector<int>& devices, int repeat, const char* what) {
  const DeviceSum sum = sumOnDevices(values, devices, repeat);
  if (!sum.problem.empty()) {
    std::printf("sum of %s on devices %s: not run: %s\n", what, formatDeviceList(devices).c_str(), sum.problem.c_str());
    return true;
  }
  bool agrees = true;
  if constexpr (std::is_same_v<T, double>) {
    double absSum = 0;
    for (double v : values) absSum += std::abs(v);
    const double bound = 2.0 * static_cast<double>(std::max<std::size_t>(values.size(), 2)) * 0x1.0p-52 * absSum;
    agrees = std::abs(sum.value - compensatedSum(values)) <= bound;
  } else {
    std::int64_t exact = 0;
    for (T v : values) exact += v;
    agrees = sum.integerValue == exact;
  }
  std::printf("sum of %s on devices %s (%zu parts, warp-shuffle-16B, data resident): %.17g in %.3f ms (median); %s\n",
              what, formatDeviceList(devices).c_str(), sum.partSums.size(), sum.value, sum.time.medianMs,
              agrees ? (std::is_same_v<T, double> ? "within 2 n eps sum|x| of the compensated sum" : "exact")
                     : "DISAGREES with the CPU sum");
  return agrees;
}

int runReduce(ReduceOptions& o) {
  if (!o.devices.empty()) {
    try {
      const std::vector<DeviceInfo> probed = probeDevices();
      o.deviceList = parseDeviceList(o.devices, probed.front().index < 0 ? 0 : static_cast<int>(probed.size()));
    } catch (const std::invalid_argument& e) {
      std::cerr << "siglab-cli reduce: --devices " << e.what() << "\n";
      return kExitUsage;
    }
  }
  bool correct = true;
  if (!o.input.empty()) {
    SampleVector signal;
    try {
      signal = readSignal(o.input, o.read).samples;
    } catch (const InputError& e) {
      std::cerr << "siglab-cli reduce: " << e.what() << "\n";
      return kExitInputOutput;
    }
    correct = printLadderTable(runReductionLab(signal, o.repeat, o.input)) && correct;
    if (!o.deviceList.empty()) correct = printDeviceSum<double>(signal, o.deviceList, o.repeat, "the signal") && correct;
  }
  if (o.randomIntsLog2 > 0) {
    const std::vector<std::int32_t> ints = randomBytesAsInts(std::size_t{1} << o.randomIntsLog2, o.seed);
    correct = printLadderTable(runReductionLab(ints, o.repeat, "random ints (rand() & 0xFF)")) && correct;
    if (!o.deviceList.empty()) correct = printDeviceSum<std::int32_t>(ints, o.deviceList, o.repeat, "the ints") && correct;
  }
  std::printf("timing: CUDA events around both passes (CPU: wall clock), median of %d runs after a warm-up; "
              "target: warp-shuffle-16B >= 0.97x cub-device-reduce\n",
              o.repeat);
  return correct ? kExitOk : kExitDisagreement;
}

}  // namespace

void addReduceCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<ReduceOptions>();
  CLI::App* cmd = app.add_subcommand("reduce", "Sum a signal and random ints on the CPU, with each GPU reduction "
                                               "kernel of the ladder and cub::DeviceReduce: time, GB/s, speedups, errors");
  cmd->add_option("input", o->input, "Signal file (any format filter reads); optional");
  addInputOptions(*cmd, o->read);
  cmd->add_option("--random-ints", o->randomIntsLog2, "Also sum 2^K random ints in [0, 255]; 0 skips them")
      ->capture_default_str()->check(wholeNumber(0, 31));
  cmd->add_option("--seed", o->seed, "Seed of the random ints")->capture_default_str();
  cmd->add_option("-r,--repeat", o->repeat, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(wholeNumber(1, 100000));
  cmd->add_option("--devices", o->devices,
                  "Also sum each input split over these GPUs (all, or numbers such as 0,1; 0,0 is two parts on GPU 0)");
  cmd->callback([o, &exitCode] { exitCode = runReduce(*o); });
}

}  // namespace siglab::cli
