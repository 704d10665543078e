#pragma once
// Messages for a mistyped command or option that suggest the nearest one ("siglab-cli: unknown
// command "filtr"; did you mean "filter"?").
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace siglab::cli {

// Before parsing: the message for a first word (or a command's subcommand word) that names no
// command, or nullopt when the words name commands.
std::optional<std::string> unknownCommandMessage(CLI::App& app, int argc, const char* const* argv);

// After CLI11 found arguments it did not expect: the message naming the first unknown option of
// the command it was given to, with the nearest option's name; nullopt when none looks like an option.
std::optional<std::string> unknownOptionMessage(CLI::App& app);

}  // namespace siglab::cli
