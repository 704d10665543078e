#pragma once
// siglab-cli's bash completion script, written from its commands and the registries: commands,
// each command's options, and for an option's value the engine, stage, window or other names it
// takes (files only where it takes a file). Plain bash: no bash-completion package needed.
#include <CLI/CLI.hpp>

#include <ostream>

namespace siglab::cli {

void writeBashCompletion(std::ostream& out, CLI::App& app);

}  // namespace siglab::cli
