#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "siglab/errors.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/text_format.hpp"

namespace siglab::cli {

void addGenerateCommand(CLI::App& app, int& exitCode) {
  struct Options {
    GenerateOptions generate;
    std::string output;
  };
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("generate", "Write a sine + Gaussian noise signal, one %2.16f value a line");
  cmd->add_option("-n,--samples", options->generate.count, "Number of samples")->required();
  cmd->add_option("--seed", options->generate.seed, "Random seed: the same arguments give the same bytes")
      ->capture_default_str();
  cmd->add_option("--period", options->generate.period, "Samples per sine cycle")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--noise", options->generate.noiseSigma, "Standard deviation of the noise")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd->add_option("-o,--output", options->output, "Output file")->required();
  cmd->callback([options, &exitCode] {
    try {
      writeTextSignal(options->output, generateSignal(options->generate));
      exitCode = kExitOk;
    } catch (const InputError& e) {
      std::cerr << "siglab-cli generate: " << e.what() << "\n";
      exitCode = kExitInputOutput;
    } catch (const std::bad_alloc&) {
      std::cerr << "siglab-cli generate: not enough memory for " << options->generate.count << " samples\n";
      exitCode = kExitInputOutput;
    }
  });
}

}  // namespace siglab::cli
