#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "lab_ladders.hpp"
#include "ladder_table.hpp"
#include "reduction_inputs.hpp"
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

int runReduce(const ReduceOptions& o) {
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
  }
  if (o.randomIntsLog2 > 0) {
    const std::vector<std::int32_t> ints = randomBytesAsInts(std::size_t{1} << o.randomIntsLog2, o.seed);
    correct = printLadderTable(runReductionLab(ints, o.repeat, "random ints (rand() & 0xFF)")) && correct;
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
      ->capture_default_str()->check(CLI::Range(0, 31));
  cmd->add_option("--seed", o->seed, "Seed of the random ints")->capture_default_str();
  cmd->add_option("-r,--repeat", o->repeat, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(CLI::Range(1, 100000));
  cmd->callback([o, &exitCode] { exitCode = runReduce(*o); });
}

}  // namespace siglab::cli
