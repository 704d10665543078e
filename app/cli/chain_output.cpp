#include "chain_output.hpp"

#include <iostream>

#include "all_backends.hpp"
#include "exit_codes.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::cli {

int signalOrChainOutput(const CLI::App& command, const PipelineChoice& choice, const char* name, const FileSource& input,
                        const Progress& progress, SourceChannels& signal) {
  const std::string prefix = std::string("siglab-cli ") + name + ": ";
  if (fromOneStageOptions(choice)) {
    try {
      signal = readPipelineSource(input, progress);
    } catch (const InputError& e) {
      std::cerr << prefix << e.what() << "\n";
      return kExitInputOutput;
    }
    return kExitOk;
  }
  Pipeline pipeline;
  if (const int code = pipelineForCommand(command, choice, name, pipeline); code != kExitOk) return code;
  try {
    const BackendList engines = makeAllBackends();
    PipelineObserver observer;
    observer.cancel = progress.cancelFlag;
    PipelineReport report = runPipeline(pipeline, input, MemorySink{}, engines, {}, observer);
    if (const StageReport* failed = report.firstFailure()) {
      std::cerr << prefix << failed->description << ": " << failed->engine << "'s result failed verification\n";
      return kExitDisagreement;
    }
    signal.channels = std::move(report.output);
    signal.sampleRate = report.sampleRate;
    signal.names = std::move(report.channelNames);
  } catch (const InputError& e) {
    std::cerr << prefix << e.what() << "\n";
    return kExitInputOutput;
  } catch (const StageError& e) {
    std::cerr << prefix << namedStageMessage(choice, pipeline, e.what()) << "\n";
    return kExitUsage;
  } catch (const NotEnoughMemory& e) {
    std::cerr << prefix << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace siglab::cli
