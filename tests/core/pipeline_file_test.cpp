#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "siglab/errors.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/stage_registry.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using nlohmann::json;

std::string fromJsonError(const std::string& text) {
  try {
    pipelineFromJson(json::parse(text), "p.json");
  } catch (const StageError& e) {
    return e.what();
  }
  return "(read)";
}

TEST(PipelineFile, WritesEveryValueAndReadsItBack) {
  const Pipeline p = parseChain("median 5; butter 4,0.1,0.3 zero-phase; savgol 11,3 mode wrap; gaussian 2 window 9");
  const json j = pipelineToJson(p);
  EXPECT_EQ(j["stages"][0].dump(), R"({"kind":"median","mode":"zero","window":5})");
  EXPECT_EQ(j["siglab-pipeline"], 1);
  const Pipeline back = pipelineFromJson(json::parse(j.dump()), "p.json");
  EXPECT_EQ(chainText(back), chainText(p));
  ASSERT_EQ(back.stages.size(), p.stages.size());
  for (std::size_t k = 0; k < p.stages.size(); ++k) EXPECT_EQ(back.stages[k].values, p.stages[k].values);
  // Defaults may be left out; a whole number may be written for a real one.
  const Pipeline brief = pipelineFromJson(
      json::parse(R"({"siglab-pipeline": 1, "stages": [{"kind": "butter", "order": 2, "cutoff": 300}]})"), "p.json");
  EXPECT_EQ(chainText(brief), "butter 2,300");
}

TEST(PipelineFile, RefusesUnknownFieldsKindsAndVersionsNamingTheFileAndStage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"([1])", "p.json: not a SigLab pipeline (expected {\"siglab-pipeline\": 1, \"stages\": [...]})"},
      {R"({"siglab-pipeline": 2, "stages": []})", "p.json: pipeline version 2 is not known (this SigLab reads 1)"},
      {R"({"siglab-pipeline": 1, "stages": [], "extra": 1})",
       "p.json: unknown field \"extra\" (a pipeline has \"siglab-pipeline\" and \"stages\")"},
      {R"({"siglab-pipeline": 1, "stages": []})", "p.json: \"stages\" must be a list of one stage or more"},
      {R"({"siglab-pipeline": 1, "stages": [{"kind": "median", "window": 5}, {"kind": "blur"}]})",
       "p.json: stage 2: unknown kind \"blur\" (known: " + stageKindNames() + ")"},
      {R"({"siglab-pipeline": 1, "stages": [{"window": 5}]})", "p.json: stage 1: \"kind\" (a string) is missing"},
      {R"({"siglab-pipeline": 1, "stages": [{"kind": "median", "window": 5, "size": 3}]})",
       "p.json: stage 1 (median): unknown parameter \"size\" (median takes window, mode)"},
      {R"({"siglab-pipeline": 1, "stages": [{"kind": "median", "window": 5.5}]})",
       "p.json: stage 1 (median): window must be a whole number, got 5.5"},
      {R"({"siglab-pipeline": 1, "stages": [{"kind": "median", "window": 4}]})",
       "p.json: stage 1 (median): W must be a positive odd number (1, 3, 5, ...) up to 16777216, got 4"},
      {R"({"siglab-pipeline": 1, "stages": [{"kind": "median", "window": null}]})",
       "p.json: stage 1 (median): window must be a number, a string or true/false, not null"},
      {R"({"siglab-pipeline": 1, "stages": [{"kind": "butter", "order": 4, "cutoff": 0.1, "zero-phase": "yes"}]})",
       "p.json: stage 1 (butter): zero-phase must be a flag (on or off), got \"yes\""},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(fromJsonError(text), message) << text;
}

TEST(PipelineFile, SavesAtomicallyAndLoadsWithTapsBesideTheFile) {
  test::TempDir dir;
  const std::string path = dir.file("chain.json");
  test::writeFile(path, "old");
  const Pipeline p = parseChain("taps t.txt mode reflect; median 3");
  savePipeline(path, p);
  const Pipeline back = loadPipeline(path);
  EXPECT_EQ(std::get<std::string>(back.stages[0].values.at("file")), dir.file("t.txt"));
  EXPECT_EQ(back.stages[1].values, p.stages[1].values);
  test::writeFile(path, "{\"siglab-pipeline\": 1,");
  try {
    loadPipeline(path);
    FAIL() << "read a broken file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("chain.json: not valid JSON at byte"), std::string::npos) << e.what();
  }
  EXPECT_THROW(loadPipeline(dir.file("missing.json")), InputError);
  test::writeFile(path, "{\"siglab-pipeline\": 1, \"stages\": " + std::string(10000, '[') + std::string(10000, ']') + "}");
  try {
    loadPipeline(path);
    FAIL() << "read a file nested 10000 deep";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nested more than 8 deep"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace siglab
