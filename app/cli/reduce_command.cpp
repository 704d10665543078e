#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "reduction_inputs.hpp"
#include "siglab/cuda_reduce.hpp"
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
};

std::string valueText(const ReductionLadder& ladder, const ReductionStep& step) {
  char text[64];
  if (ladder.integer) {
    std::snprintf(text, sizeof text, "%lld %s", static_cast<long long>(step.integerValue), step.exact ? "exact" : "WRONG");
  } else {
    std::snprintf(text, sizeof text, "%.17g err %.2g", step.value, step.absError);
  }
  return text;
}

// Prints the ladder; returns false when an integer sum was not exact.
bool printLadder(const ReductionLadder& ladder, const std::string& title) {
  std::printf("%s: %zu %s (%.1f MiB)\n", title.c_str(), ladder.count, ladder.integer ? "int32" : "float64",
              static_cast<double>(ladder.bytes) / (1 << 20));
  if (!ladder.problem.empty()) {
    std::printf("  not run: %s\n\n", ladder.problem.c_str());
    return true;
  }
  if (ladder.integer) {
    std::printf("  reference: %lld (64-bit CPU sum)\n", static_cast<long long>(ladder.integerReference));
  } else {
    std::printf("  reference: %.17g (compensated CPU sum)\n", ladder.reference);
  }
  std::printf("  %-20s %10s %10s %10s %9s %8s %8s  %s\n", "kernel", "median ms", "min ms", "max ms", "GB/s", "step",
              "total", "sum");
  bool allExact = true;
  const double first = ladder.steps.front().time.medianMs;
  double previous = first;
  for (const ReductionStep& step : ladder.steps) {
    std::printf("  %-20s %10.4f %10.4f %10.4f %9.1f %7.2fx %7.2fx  %s\n", step.name.c_str(), step.time.medianMs,
                step.time.minMs, step.time.maxMs, step.gbPerSecond, previous / step.time.medianMs,
                first / step.time.medianMs, valueText(ladder, step).c_str());
    previous = step.time.medianMs;
    allExact = allExact && (!ladder.integer || step.exact);
  }
  const ReductionStep& squares = ladder.sumOfSquares;
  std::printf("  %-20s %10.4f %10.4f %10.4f %9.1f %8s %8s  %s\n", squares.name.c_str(), squares.time.medianMs,
              squares.time.minMs, squares.time.maxMs, squares.gbPerSecond, "", "", valueText(ladder, squares).c_str());
  const ReductionStep& last = ladder.steps[ladder.steps.size() - 2];
  const ReductionStep& cub = ladder.steps.back();
  std::printf("  %s / cub throughput: %.3fx (target >= 0.97x)\n\n", last.name.c_str(),
              last.gbPerSecond / cub.gbPerSecond);
  return allExact && (!ladder.integer || squares.exact);
}

int runReduce(const ReduceOptions& o) {
  bool exact = true;
  if (!o.input.empty()) {
    std::vector<double> signal;
    try {
      signal = readSignal(o.input, o.read).samples;
    } catch (const InputError& e) {
      std::cerr << "siglab-cli reduce: " << e.what() << "\n";
      return kExitInputOutput;
    }
    exact = printLadder(runReductionLadder(signal, o.repeat), o.input) && exact;
  }
  if (o.randomIntsLog2 > 0) {
    const std::vector<std::int32_t> ints = randomBytesAsInts(std::size_t{1} << o.randomIntsLog2, o.seed);
    exact = printLadder(runReductionLadder(ints, o.repeat),
                        "2^" + std::to_string(o.randomIntsLog2) + " random ints (rand() & 0xFF)") &&
            exact;
  }
  std::printf("timing: CUDA events around both passes, median of %d runs after a warm-up\n", o.repeat);
  return exact ? kExitOk : kExitDisagreement;
}

}  // namespace

void addReduceCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<ReduceOptions>();
  CLI::App* cmd = app.add_subcommand("reduce", "Sum a signal and random ints with each GPU reduction kernel of the "
                                               "ladder and cub::DeviceReduce: time, GB/s, speedups, errors");
  cmd->add_option("input", o->input, "Signal file (any format filter reads); optional");
  addInputOptions(*cmd, o->read);
  cmd->add_option("--random-ints", o->randomIntsLog2, "Also sum 2^K random ints in [0, 255]; 0 skips them")
      ->capture_default_str()->check(CLI::Range(0, 31));
  cmd->add_option("--seed", o->seed, "Seed of the random ints")->capture_default_str();
  cmd->add_option("-r,--repeat", o->repeat, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(CLI::Range(1, 100000));
  cmd->callback([o, &exitCode] { exitCode = runReduce(*o); });
}

}  // namespace siglab::cli
