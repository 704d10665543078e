// compare, response, spectrum and stats take their stages as filter does (one-stage options,
// --chain, --pipeline): compare reports a section per stage, response multiplies the stages'
// responses, spectrum and stats analyse the chain's output; the help lists every engine.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "all_backends.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Outcome = test::CliOutcome;
using test::runCli;

using test::writeInput;

// The CSV table a command wrote: its rows of numbers, the header skipped.
std::vector<std::vector<double>> readCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) row.push_back(std::stod(field));
    rows.push_back(row);
  }
  return rows;
}

TEST(CommandsCli, CompareOfAChainReportsASectionPerStage) {
  test::TempDir dir;
  const std::string in = writeInput(dir, 3000);
  const std::string compare = "compare " + in + " -q -r 1 -b cpu-serial,cpu-parallel --chain \"butter 4,0.2; median 5; detrend\"";
  const Outcome json = runCli(compare + " --report " + dir.file("r.json"), dir);
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_NE(json.out.find("stage 3 (detrend): detrend"), std::string::npos) << json.out;
  const nlohmann::json report = nlohmann::json::parse(test::readFile(dir.file("r.json")));
  ASSERT_EQ(report["stages"].size(), 3u);
  EXPECT_EQ(report["stages"][0]["kind"], "butterworth");
  EXPECT_EQ(report["stages"][1]["kind"], "median");
  EXPECT_EQ(report["stages"][2]["kind"], "detrend");
  for (const auto& stage : report["stages"]) {
    ASSERT_EQ(stage["backends"].size(), 2u) << stage.dump();
    EXPECT_EQ(stage["backends"][1]["name"], "cpu-parallel");
    EXPECT_TRUE(stage["backends"][1]["agrees"].get<bool>()) << stage.dump();
  }
  ASSERT_EQ(runCli(compare + " --report " + dir.file("r.csv"), dir).exitCode, 0);
  const std::string csv = test::readFile(dir.file("r.csv"));
  EXPECT_TRUE(csv.starts_with("stage,stage_chain,input,")) << csv;
  for (const char* line : {"\n1,\"butter 4,0.2\",", "\n2,\"median 5\",", "\n3,\"detrend linear\","}) {
    EXPECT_NE(csv.find(line), std::string::npos) << line << "\n" << csv;
  }
}

TEST(CommandsCli, CompareOfDetrendRunsCpuSerialAndCpuParallel) {
  test::TempDir dir;
  const std::string in = writeInput(dir, 2000);
  const Outcome o = runCli("compare " + in + " -q -r 1 --detrend constant --report " + dir.file("r.json"), dir);
  ASSERT_EQ(o.exitCode, 0) << o.err;
  const nlohmann::json report = nlohmann::json::parse(test::readFile(dir.file("r.json")));
  ASSERT_EQ(report["backends"].size(), 2u) << report.dump();
  EXPECT_EQ(report["backends"][0]["name"], "cpu-serial");
  EXPECT_EQ(report["backends"][1]["name"], "cpu-parallel");
  EXPECT_TRUE(report["backends"][1]["bit_identical"].get<bool>());
  EXPECT_EQ(report["filter"], "detrend constant");
}

TEST(CommandsCli, ResponseOfAChainIsTheProductOfItsStages) {
  test::TempDir dir;
  const auto response = [&](const std::string& stage, const std::string& file) {
    const Outcome o = runCli("response -n 32 -o " + dir.file(file) + " " + stage, dir);
    EXPECT_EQ(o.exitCode, 0) << stage << ": " << o.err;
    return readCsv(dir.file(file));
  };
  const auto chain = response("--chain \"butter 4,0.2; mean 5\"", "chain.csv");
  const auto butter = response("--butter 4,0.2", "butter.csv");
  const auto mean = response("--window 5", "mean.csv");
  ASSERT_EQ(chain.size(), 32u);
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const double db = butter[i][1] + mean[i][1];
    if (std::isfinite(db)) {
      EXPECT_NEAR(chain[i][1], db, 1e-9) << i;
    }
    const double phase = std::remainder(chain[i][2] - butter[i][2] - mean[i][2], 2 * M_PI);
    EXPECT_NEAR(phase, 0.0, 1e-9) << i;
  }
}

TEST(CommandsCli, ResponseRefusesAMedianNamingIt) {
  test::TempDir dir;
  const Outcome chain = runCli("response -o " + dir.file("r.csv") + " --chain \"butter 4,0.2; median 5\"", dir);
  EXPECT_EQ(chain.exitCode, 2);
  EXPECT_TRUE(chain.err.starts_with("siglab-cli response: stage 2 (median): a median has no frequency response")) << chain.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.csv")));
}

TEST(CommandsCli, SpectrumAndStatsOfAChainAreThoseOfItsOutput) {
  test::TempDir dir;
  const std::string in = writeInput(dir, 4000);
  ASSERT_EQ(runCli("filter " + in + " -q --chain \"mean 5; detrend\" -o " + dir.file("f.npy"), dir).exitCode, 0);
  ASSERT_EQ(runCli("spectrum " + in + " --segment 256 --engine cpu --chain \"mean 5; detrend\" -o " + dir.file("a.csv"), dir).exitCode, 0);
  ASSERT_EQ(runCli("spectrum " + dir.file("f.npy") + " --segment 256 --engine cpu -o " + dir.file("b.csv"), dir).exitCode, 0);
  EXPECT_EQ(test::readFile(dir.file("a.csv")), test::readFile(dir.file("b.csv")));
  const Outcome chained = runCli("stats " + in + " -q --json --chain \"mean 5; detrend\"", dir);
  const Outcome filtered = runCli("stats " + dir.file("f.npy") + " -q --json", dir);
  ASSERT_EQ(chained.exitCode, 0) << chained.err;
  nlohmann::json a = nlohmann::json::parse(chained.out), b = nlohmann::json::parse(filtered.out);
  a.erase("input");
  b.erase("input");
  EXPECT_EQ(a, b);
}

TEST(CommandsCli, HelpListsEveryEngine) {
  test::TempDir dir;
  const BackendList engines = makeAllBackends();
  for (const char* command : {"filter", "compare"}) {
    const Outcome help = runCli(std::string(command) + " --help", dir);
    for (const auto& engine : engines) {
      EXPECT_NE(help.out.find(std::string(engine->name())), std::string::npos) << command << " --help lacks " << engine->name();
    }
  }
}

}  // namespace
}  // namespace siglab
