#pragma once
// What an option of a command takes, read from the same places as the command itself: the stage
// registry (a stage's choices, the chain's stage names), the engine registry (options that take
// engine names) and the options' own checks (oneOf). The reference and the shell completions are
// written from it, so neither keeps a list by hand.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace siglab::cli {

struct OptionValues {
  enum class Kind { Flag, Engines, Choices, File, Other };
  Kind kind = Kind::Other;
  std::vector<std::string> words;  // Engines, Choices: what it takes
};

OptionValues valuesOf(CLI::Option& option);

// Every name an option is written by: "-e", "--engine", ... (none for a positional).
std::vector<std::string> optionNames(const CLI::Option& option);

// The commands people use (not the hidden reference command), depth first: "filter", "lab", "lab reverse", ...
std::vector<CLI::App*> visibleCommands(CLI::App& app);
// "lab reverse" for the subcommand reverse of lab.
std::string commandPath(const CLI::App& command);

}  // namespace siglab::cli
