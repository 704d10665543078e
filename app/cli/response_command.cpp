// siglab-cli response: the frequency response of a stage or a chain (core's pipelineResponse), the
// stage from the same options as filter.
#include <iostream>
#include <memory>
#include <stdexcept>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "notes.hpp"
#include "option_checks.hpp"
#include "path_checks.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/io/table_file.hpp"
#include "siglab/pipeline_response.hpp"
#include "stage_options.hpp"

namespace siglab::cli {
namespace {

struct ResponseOptions {
  std::optional<double> sampleRate;
  std::size_t points = 512;
  std::string output;
  PipelineChoice pipeline;
};

constexpr const char* kResponsePrefix = "siglab-cli response: ";

// "9 taps", "butterworth order 4 lowpass ...", or the chain.
std::string whatResponds(const Pipeline& pipeline, std::optional<double> sampleRate) {
  if (pipeline.stages.size() > 1) return "the chain " + chainText(pipeline);
  const Stage& stage = pipeline.stages.front();
  const auto bound = stage.kind->bind(stage.values, StageContext{std::nullopt, sampleRate, Accumulator::Float64, true});
  if (const FilterSpec* spec = bound->filterSpec(); spec && spec->isCorrelation()) {
    return std::to_string(spec->window()) + " taps";
  }
  return bound->describe();
}

int runResponse(const ResponseOptions& o, const CLI::App& command) {
  Pipeline pipeline;
  if (const int code = pipelineForCommand(command, o.pipeline, "response", pipeline); code != kExitOk) return code;
  if (const int code = checkPathsBeforeWork("response", {{"-o", o.output}}, pipelineInputs(pipeline)); code != kExitOk) {
    return code;
  }
  FrequencyResponse response;
  std::string what;
  try {
    response = pipelineResponse(pipeline, o.points, o.sampleRate);
    what = whatResponds(pipeline, o.sampleRate);
  } catch (const StageError& e) {
    std::cerr << kResponsePrefix << namedStageMessage(o.pipeline, pipeline, e.what()) << "\n";
    return kExitUsage;
  } catch (const NotEnoughMemory& e) {
    std::cerr << kResponsePrefix << e.what() << "\n";
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    std::cerr << kResponsePrefix << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << kResponsePrefix << e.what() << "\n";
    return kExitInputOutput;
  }
  try {
    writeTable(o.output, Table{{"frequency", "magnitude_db", "phase_rad"},
                               {response.frequency, response.magnitudeDb(), response.phase()}});
  } catch (const InputError& e) {
    std::cerr << kResponsePrefix << e.what() << "\n";
    return kExitInputOutput;
  }
  notesBeside(false) << "wrote " << o.output << ": the response of " << what << " at " << o.points << " frequencies ("
            << (o.sampleRate ? "Hz" : "cycles per sample") << ")\n";
  return kExitOk;
}

}  // namespace

void addResponseCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<ResponseOptions>();
  CLI::App* cmd = app.add_subcommand(
      "response", "The frequency response of a stage or a chain (the product of its stages') from 0 to Nyquist "
                  "(as scipy.signal.freqz) as CSV or .npy");
  cmd->add_option("-o,--output", o->output, "Result: CSV with the header frequency,magnitude_db,phase_rad, or .npy (N, 3)")
      ->required();
  addPipelineOptions(*cmd, o->pipeline);
  cmd->add_option_function<double>("--rate", [o](double hz) { o->sampleRate = hz; },
                                   "Sample rate in Hz: frequencies in Hz instead of cycles per sample")
      ->check(sampleRateValidator());
  cmd->add_option("-n,--points", o->points, "Frequencies, 1 to 16777216, from 0 up to (not including) Nyquist")
      ->capture_default_str()->check(wholeNumber(1, kMaxResponsePoints));
  cmd->callback([o, cmd, &exitCode] { exitCode = runResponse(*o, *cmd); });
}

}  // namespace siglab::cli
