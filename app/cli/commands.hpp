#pragma once
#include <CLI/CLI.hpp>

namespace siglab::cli {

// Each command registers its options on `app` and returns the exit code through `exitCode`
// when it runs.
void addGenerateCommand(CLI::App& app, int& exitCode);
void addFilterCommand(CLI::App& app, int& exitCode);
void addCompareCommand(CLI::App& app, int& exitCode);
void addDevicesCommand(CLI::App& app, int& exitCode);
void addStatsCommand(CLI::App& app, int& exitCode);
void addReduceCommand(CLI::App& app, int& exitCode);
void addLabCommand(CLI::App& app, int& exitCode);
void addSpectrumCommand(CLI::App& app, int& exitCode);
void addResponseCommand(CLI::App& app, int& exitCode);
void addReferenceCommand(CLI::App& app, int& exitCode);  // hidden: the guide's reference, the completions

}  // namespace siglab::cli
