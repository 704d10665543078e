// siglab-cli: the headless front-end over the same engines as the GUI.
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>

#include "cancel_on_signals.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "job_options.hpp"
#include "mistyped_words.hpp"
#include "notes.hpp"  // addQuietToEveryCommand
#include "option_checks.hpp"

namespace {

// "the filter command": what an error that no command caught interrupted.
std::string runName(const CLI::App& app) {
  const auto commands = app.get_subcommands();
  return commands.empty() ? std::string("this run") : "the " + commands.front()->get_name() + " command";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace siglab::cli;
  CLI::App app{"SigLab: filter, resample and analyse signals of any size on the CPU and the GPU, every result "
               "checked against a reference, and compare the engines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "siglab-cli 0.1.0");
  int exitCode = kExitOk;
  addGenerateCommand(app, exitCode);
  addFilterCommand(app, exitCode);
  addCompareCommand(app, exitCode);
  addDevicesCommand(app, exitCode);
  addStatsCommand(app, exitCode);
  addReduceCommand(app, exitCode);
  addLabCommand(app, exitCode);
  addSpectrumCommand(app, exitCode);
  addResponseCommand(app, exitCode);
  addReferenceCommand(app, exitCode);
  refuseNegativeUnsignedOptions(app);
  addQuietToEveryCommand(app);
  if (const auto message = unknownCommandMessage(app, argc, argv)) {
    std::cerr << *message << "\n";
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    fillEngineNamesInHelp();
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    fillEngineNamesInHelp();
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    if (const auto message = unknownOptionMessage(app)) {
      std::cerr << *message << "\n";
    } else {
      app.exit(e);
    }
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  } catch (const siglab::Cancelled&) {
    // A wait on another program ended by a signal where no command caught it (cancel_waits.hpp).
    std::cerr << "siglab-cli: " << runName(app) << " was interrupted by " << CancelOnSignals::signalName()
              << ", no temporary file left\n";
    return CancelOnSignals::exitCode();
  } catch (const std::bad_alloc&) {
    // An allocation that failed anyway (the commands refuse what they can foresee with the amounts).
    std::cerr << "siglab-cli: not enough memory for " << runName(app) << "\n";
    return kExitUsage;
  } catch (const std::length_error&) {
    std::cerr << "siglab-cli: not enough memory for " << runName(app) << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "siglab-cli: " << e.what() << "\n";
    return kExitInputOutput;
  }
  return exitCode;
}
