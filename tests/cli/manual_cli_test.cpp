// The manual's promises about the CLI: the reference and the completions come from the registries
// (a stage, engine, format or option missing from them fails here), a mistyped command or option
// is answered with the nearest one, --quiet prints nothing but errors, and the completions work
// in a bare bash (no bash-completion package) with the names each option takes.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "all_backends.hpp"
#include "cli_run.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/signal_formats.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/stage_registry.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::runCli;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The names a help text lists: its commands ("  filter   Filter a ...") or its options ("--window").
std::vector<std::string> commandsIn(const std::string& help) {
  std::vector<std::string> names;
  const std::string listing = help.substr(help.find("Subcommands:"));
  const std::regex line(R"(\n  ([a-z][a-z-]*) )");
  for (auto it = std::sregex_iterator(listing.begin(), listing.end(), line); it != std::sregex_iterator(); ++it) {
    names.push_back((*it)[1]);
  }
  return names;
}

std::set<std::string> optionsIn(const std::string& help) {
  std::set<std::string> names;
  const std::regex option(R"((^|\n) +(-[A-Za-z]|--[A-Za-z][A-Za-z0-9-]*)((,-[A-Za-z]|,--[A-Za-z][A-Za-z0-9-]*)*))");
  for (auto it = std::sregex_iterator(help.begin(), help.end(), option); it != std::sregex_iterator(); ++it) {
    const std::string all = (*it)[2].str() + (*it)[3].str();
    std::size_t start = 0;
    for (std::size_t comma = all.find(','); ; comma = all.find(',', start)) {
      names.insert(all.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return names;
}

// The part of the reference about command `name`: from its heading to the next one.
std::string section(const std::string& reference, const std::string& heading) {
  const std::size_t start = reference.find(heading + "\n");
  if (start == std::string::npos) return {};
  return reference.substr(start, reference.find("\n## ", start + 1) - start);
}

TEST(ManualCli, TheReferenceNamesEveryCommandOptionStageEngineAndFormat) {
  test::TempDir dir;
  const test::CliOutcome reference = runCli("reference --markdown", dir);
  ASSERT_EQ(reference.exitCode, 0) << reference.err;
  const std::string& md = reference.out;
  const test::CliOutcome help = runCli("--help", dir);
  const std::vector<std::string> commands = commandsIn(help.out);
  ASSERT_GE(commands.size(), 9u) << help.out;
  for (const std::string& command : commands) {
    const std::string part = section(md, "## siglab-cli " + command);
    ASSERT_FALSE(part.empty()) << command << " is missing from the reference";
    for (const std::string& option : optionsIn(runCli(command + " --help", dir).out)) {
      EXPECT_TRUE(has(part, "`" + option + "`")) << command << " " << option << " is missing from the reference";
    }
  }
  for (const StageKind* kind : stageKinds()) {
    const std::string part = section(md, "### " + std::string(kind->name()));
    ASSERT_FALSE(part.empty()) << kind->name() << " is missing from the reference";
    EXPECT_TRUE(has(part, "`--" + std::string(kind->optionName()) + " ")) << kind->name();
    for (const ParameterInfo& p : kind->parameters()) EXPECT_TRUE(has(part, "| `" + p.name + "` |")) << kind->name() << " " << p.name;
  }
  for (const auto& engine : makeAllBackends()) EXPECT_TRUE(has(md, "| `" + std::string(engine->name()) + "` |")) << engine->name();
  for (const std::string_view format : signalFormatNames()) EXPECT_TRUE(has(md, "| `" + std::string(format) + "` |")) << format;
  EXPECT_FALSE(has(help.out, "\n  reference ")) << "the reference command is for the build, not listed in help";
}

TEST(ManualCli, AMistypedCommandOrOptionSuggestsTheNearestOne) {
  test::TempDir dir;
  const std::string in = dir.file("in.txt"), out = dir.file("out.txt");
  const test::CliOutcome command = runCli("filtr " + in, dir);
  EXPECT_EQ(command.exitCode, 2);
  EXPECT_TRUE(has(command.err, "unknown command \"filtr\"; did you mean \"filter\"?")) << command.err;
  const test::CliOutcome inner = runCli("lab revrese", dir);
  EXPECT_EQ(inner.exitCode, 2);
  EXPECT_TRUE(has(inner.err, "did you mean \"reverse\"?")) << inner.err;
  const test::CliOutcome option = runCli("filter " + in + " -o " + out + " --windw 5", dir);
  EXPECT_EQ(option.exitCode, 2);
  EXPECT_TRUE(has(option.err, "siglab-cli filter: unknown option \"--windw\"; did you mean \"--window\"?")) << option.err;
  const test::CliOutcome far = runCli("stats " + in + " --frobnicate", dir);
  EXPECT_EQ(far.exitCode, 2);
  EXPECT_TRUE(has(far.err, "unknown option \"--frobnicate\" (siglab-cli stats --help lists them)")) << far.err;
  const test::CliOutcome stage = runCli("filter " + in + " -o " + out + " --chain \"medain 5\"", dir);
  EXPECT_EQ(stage.exitCode, 2);
  EXPECT_TRUE(has(stage.err, "did you mean \"median\"?")) << stage.err;
}

TEST(ManualCli, QuietPrintsNothingButErrors) {
  test::TempDir dir;
  GenerateOptions options;
  options.count = 2000;
  const std::string in = dir.file("in.npy");
  writeSignal(in, generateSignal(options));
  const std::string runs[] = {"filter " + in + " -o " + dir.file("out.npy") + " --median 5 -q",
                              "filter " + in + " -o " + dir.file("out.npy") + " -q --chain \"mean 5; detrend\"",
                              "spectrum " + in + " -o " + dir.file("s.csv") + " -q",
                              "response --butter 4,0.2 -o " + dir.file("r.csv") + " -q",
                              "generate -n 100 -o " + dir.file("g.txt") + " -q",
                              "compare " + in + " -r 1 -b cpu-serial -o " + dir.file("c.npy") + " --report " + dir.file("c.json") + " -q"};
  for (const std::string& args : runs) {
    const test::CliOutcome run = runCli(args, dir);
    EXPECT_EQ(run.exitCode, 0) << args << "\n" << run.err;
    EXPECT_EQ(run.err, "") << args;
    if (!args.starts_with("compare")) EXPECT_EQ(run.out, "") << args;  // compare's table is its result
    EXPECT_FALSE(has(run.out, "wrote")) << args;
  }
  const test::CliOutcome error = runCli("filter " + dir.file("missing.npy") + " -o " + dir.file("out2.npy") + " -q", dir);
  EXPECT_EQ(error.exitCode, 3);
  EXPECT_TRUE(has(error.err, "missing.npy")) << "errors still print";
}

// COMPREPLY of the generated completion for the words typed, in a bash with no startup files and
// so no bash-completion package.
std::string complete(const test::TempDir& dir, const std::string& words, int current) {
  const std::string script = dir.file("complete.sh");
  std::ofstream(script) << "source " << dir.file("siglab-cli.bash") << "\nCOMP_WORDS=(" << words << ")\nCOMP_CWORD="
                        << current << "\n_siglab_cli\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
  const std::string out = dir.file("completion.txt");
  const std::string command = "cd " + dir.path().string() + " && bash --norc --noprofile " + script + " >" + out + " 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0);
  return test::readFile(out);
}

TEST(ManualCli, CompletionsOfferTheNamesEachOptionTakesInABareBash) {
  test::TempDir dir;
  const test::CliOutcome written = runCli("reference --completion bash > " + dir.file("siglab-cli.bash"), dir);
  ASSERT_EQ(written.exitCode, 0) << written.err;
  std::ofstream(dir.file("zz-a-file.txt")) << "1\n";
  const std::string engines = complete(dir, "siglab-cli filter x.txt --engine ''", 4);
  for (const auto& engine : makeAllBackends()) EXPECT_TRUE(has(engines, std::string(engine->name()) + "\n")) << engines;
  EXPECT_FALSE(has(engines, "zz-a-file")) << "--engine takes engines, not files";
  EXPECT_FALSE(has(engines, "command not found")) << engines;
  EXPECT_TRUE(has(complete(dir, "siglab-cli compare x.txt -b cpu-serial,gpu-t", 4), "cpu-serial,gpu-tuned\n"));
  EXPECT_TRUE(has(complete(dir, "siglab-cli filter x.txt --mode r", 4), "reflect\n"));
  EXPECT_TRUE(has(complete(dir, "siglab-cli spectrum x.txt --window h", 4), "hann\n"));
  EXPECT_TRUE(has(complete(dir, "siglab-cli filter x.txt --chain me", 4), "median\n"));
  EXPECT_TRUE(has(complete(dir, "siglab-cli fil", 1), "filter\n"));
  EXPECT_TRUE(has(complete(dir, "siglab-cli filter --win", 2), "--window\n"));
  EXPECT_TRUE(has(complete(dir, "siglab-cli filter x.txt -o zz", 4), "zz-a-file.txt\n")) << "-o takes a file";
}

}  // namespace
}  // namespace siglab
