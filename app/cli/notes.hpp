#pragma once
// What a command says about its run that is neither its result nor an error ("wrote ...", "engine:
// ...", "verify: ...", "stream: ...", "note: ..."): every command's -q/--quiet silences it, so a
// quiet run prints nothing but errors and the result asked for on standard output.
#include <CLI/CLI.hpp>

#include <ostream>

namespace siglab::cli {

// Standard error, or a stream that drops everything once --quiet was given.
std::ostream& notes();
// Where a command's own notes go when its result may take standard output (-o -): standard error
// then, else standard output; nowhere when quiet.
std::ostream& notesBeside(bool resultOnStandardOutput);

// Gives every command of `app` a -q,--quiet flag (those that have one keep it) that silences
// notes() and the progress line. Called once, after every command is added.
void addQuietToEveryCommand(CLI::App& app);

bool quiet();

}  // namespace siglab::cli
