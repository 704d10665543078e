#pragma once
// The command-line reference as Markdown (the user guide's reference pages): every command with its
// options, every stage with its parameters, every engine and every file format, read from the
// commands and the registries themselves.
#include <CLI/CLI.hpp>

#include <ostream>

namespace siglab::cli {

void writeMarkdownReference(std::ostream& out, CLI::App& app);

}  // namespace siglab::cli
