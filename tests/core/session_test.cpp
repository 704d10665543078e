#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "siglab/errors.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/session.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

Session aSession() {
  Session s;
  s.signalPath = "/data/recording.wav";
  s.read.format = FileFormat::raw;
  s.read.rawType = SampleType::i16;
  s.read.rawOffset = 44;
  s.read.channel = 2;
  s.read.column = 3;
  s.read.skipHeader = true;
  s.read.decimal = ',';
  s.read.allowNonFinite = true;
  s.read.oneChannel = false;
  s.read.columns = {2, 3};
  s.read.rawChannels = 4;
  s.chain = parseChain("median 5 mode reflect; butter 4,0.1,0.3 zero-phase");
  s.stage = parseChain("gaussian 2.5 mode reflect").stages.front();
  s.repeat = 3;
  s.engines = {"cpu-serial", "gpu-tuned"};
  s.view = ViewRange{100.5, 2000};
  s.stacked = true;
  return s;
}

void expectSame(const Session& a, const Session& b) {
  EXPECT_EQ(a.signalPath, b.signalPath);
  EXPECT_EQ(a.read.format, b.read.format);
  EXPECT_EQ(a.read.rawType, b.read.rawType);
  EXPECT_EQ(a.read.rawOffset, b.read.rawOffset);
  EXPECT_EQ(a.read.channel, b.read.channel);
  EXPECT_EQ(a.read.column, b.read.column);
  EXPECT_EQ(a.read.skipHeader, b.read.skipHeader);
  EXPECT_EQ(a.read.decimal, b.read.decimal);
  EXPECT_EQ(a.read.allowNonFinite, b.read.allowNonFinite);
  EXPECT_EQ(a.read.oneChannel, b.read.oneChannel);
  EXPECT_EQ(a.read.columns, b.read.columns);
  EXPECT_EQ(a.read.rawChannels, b.read.rawChannels);
  EXPECT_EQ(chainText(a.chain), chainText(b.chain));
  ASSERT_EQ(a.stage.has_value(), b.stage.has_value());
  if (a.stage) {
    EXPECT_EQ(a.stage->kind, b.stage->kind);
    EXPECT_EQ(a.stage->values, b.stage->values);
  }
  EXPECT_EQ(a.repeat, b.repeat);
  EXPECT_EQ(a.engines, b.engines);
  ASSERT_EQ(a.view.has_value(), b.view.has_value());
  if (a.view) {
    EXPECT_EQ(a.view->first, b.view->first);
    EXPECT_EQ(a.view->last, b.view->last);
  }
  EXPECT_EQ(a.stacked, b.stacked);
}

std::string errorOf(const nlohmann::json& j) {
  try {
    sessionFromJson(j, "s.siglab");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Session, RoundTripsThroughAFile) {
  test::TempDir dir;
  const Session saved = aSession();
  saveSession(dir.file("a.siglab"), saved);
  expectSame(loadSession(dir.file("a.siglab")), saved);
  Session noView = saved;
  noView.view.reset();
  noView.read.rawType.reset();
  noView.chain.stages.clear();  // nothing applied, and no stage the form could show
  noView.stage.reset();
  saveSession(dir.file("b.siglab"), noView);
  expectSame(loadSession(dir.file("b.siglab")), noView);
}

TEST(Session, ARelativeSignalPathIsTakenFromTheSessionsFolder) {
  test::TempDir dir;
  Session s = aSession();
  s.signalPath = "signals/x.txt";
  saveSession(dir.file("rel.siglab"), s);
  EXPECT_EQ(loadSession(dir.file("rel.siglab")).signalPath, (std::filesystem::path(dir.file("signals")) / "x.txt").string());
}

TEST(Session, BadSessionsAreRejectedNamingTheFileTheKeyAndTheAllowedValues) {
  const nlohmann::json good = sessionToJson(aSession());
  auto with = [&](const char* section, const char* key, nlohmann::json value) {
    nlohmann::json j = good;
    (section[0] ? j[section][key] : j[key]) = std::move(value);
    return errorOf(j);
  };
  EXPECT_NE(with("", "repeat", 0).find("from 1 to 100000"), std::string::npos);
  EXPECT_NE(with("signal", "raw_type", "f16").find("is not f64, f32"), std::string::npos);
  EXPECT_NE(with("signal", "channel", 0).find("\"signal.channel\""), std::string::npos);
  EXPECT_NE(with("", "siglab_session", 3).find("version 3"), std::string::npos);
  nlohmann::json chain = good["chain"];
  chain["stages"][0]["kind"] = "kalman";
  EXPECT_NE(with("", "chain", chain).find("session key \"chain\""), std::string::npos) << with("", "chain", chain);
  EXPECT_NE(with("", "chain", chain).find("kalman"), std::string::npos) << with("", "chain", chain);
  EXPECT_NE(with("", "stage", good["chain"]).find("\"stage\": expected one stage, found 2"), std::string::npos);
  nlohmann::json missing = good;
  missing["signal"].erase("path");
  EXPECT_NE(errorOf(missing).find("s.siglab"), std::string::npos);
  EXPECT_NE(errorOf(missing).find("\"signal.path\": missing"), std::string::npos);
  EXPECT_NE(errorOf(nlohmann::json::array()).find("not a SigLab session"), std::string::npos);
}

// Sessions keep how a signal's channels were read (issue 25); one written before signals had
// channels read one channel (`channel`), and still does.
TEST(Session, ChannelChoicesRoundTripAndAnOlderSessionReadsOneChannel) {
  const nlohmann::json good = sessionToJson(aSession());
  nlohmann::json older = good;
  for (const char* key : {"one_channel", "columns", "raw_channels"}) older["signal"].erase(key);
  const Session read = sessionFromJson(older, "s.siglab");
  EXPECT_TRUE(read.read.oneChannel);
  EXPECT_TRUE(read.read.columns.empty());
  EXPECT_EQ(read.read.rawChannels, 1u);
  nlohmann::json bad = good;
  bad["signal"]["columns"] = {2, 0};
  EXPECT_NE(errorOf(bad).find("\"signal.columns\": columns count from 1"), std::string::npos) << errorOf(bad);
  bad = good;
  bad["signal"]["raw_channels"] = 0;
  EXPECT_NE(errorOf(bad).find("\"signal.raw_channels\""), std::string::npos) << errorOf(bad);
}

// A version-1 session (one filter, before stages), with `key` of its filter set to `value`.
nlohmann::json oldSession(const char* key = nullptr, nlohmann::json value = {}) {
  nlohmann::json j = sessionToJson(aSession());
  j["siglab_session"] = 1;
  j.erase("chain");
  j.erase("stage");
  j.erase("repeat");
  j["filter"] = {{"taps", "mean"}, {"window", 5}, {"sigma", 1.0}, {"custom_taps", nlohmann::json::array()},
                 {"mode", "zero"}, {"repeat", 10}};
  if (key) j["filter"][key] = std::move(value);
  return j;
}

TEST(Session, AVersion1SessionsFilterIsCheckedAsBefore) {
  EXPECT_NE(errorOf(oldSession("window", 4)).find("\"filter.window\": must be odd"), std::string::npos);
  EXPECT_NE(errorOf(oldSession("window", -5)).find("\"filter.window\": expected a whole number"), std::string::npos);
  EXPECT_NE(errorOf(oldSession("mode", "circular")).find("is not zero, reflect, mirror, nearest or wrap"), std::string::npos);
  EXPECT_NE(errorOf(oldSession("taps", "kalman")).find("\"filter.taps\""), std::string::npos);
  EXPECT_NE(errorOf(oldSession("mode", "interp")).find("\"filter.mode\""), std::string::npos);  // savgol's only
  EXPECT_NE(errorOf(oldSession("repeat", 0)).find("from 1 to 100000"), std::string::npos);
  // A session with order 20000 froze the GUI fitting its coefficients; sigma 1e19 made a 1-tap filter.
  EXPECT_NE(errorOf(oldSession("savgol", {{"order", 20000}, {"deriv", 0}})).find("\"filter.savgol.order\": must be at most 32"),
            std::string::npos);
  EXPECT_NE(errorOf(oldSession("sigma", 1e19)).find("\"filter.sigma\": Gaussian sigma 1e+19 needs"), std::string::npos);
  // Custom taps written in the session: the taps stage reads a file, so the session says what to do.
  nlohmann::json custom = oldSession("taps", "custom");
  custom["filter"]["custom_taps"] = {0.25, 0.5, 0.25};
  EXPECT_NE(errorOf(custom).find("\"filter\": custom taps written in the session (3 weights)"), std::string::npos)
      << errorOf(custom);
}

TEST(Session, AFileThatIsNotJsonSaysWhere) {
  test::TempDir dir;
  std::ofstream(dir.file("bad.siglab")) << "{\"siglab_session\": 1,";
  try {
    loadSession(dir.file("bad.siglab"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.siglab"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(loadSession(dir.file("missing.siglab")), InputError);
}

std::string loadError(const std::string& path) {
  try {
    loadSession(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Issue 24: 200,000 nested arrays crashed the GUI (a recursive dump for the error message).
TEST(Session, DeepNestingIsRefusedWhileParsingNamingTheFile) {
  test::TempDir dir;
  const std::size_t depth = 200'000;
  test::writeFile(dir.file("deep.siglab"), "{\"siglab_session\": " + std::string(depth, '[') + std::string(depth, ']') + "}");
  EXPECT_EQ(loadError(dir.file("deep.siglab")),
            dir.file("deep.siglab") + ": not a SigLab session: arrays or objects nested more than 32 deep");
  test::writeFile(dir.file("nested.siglab"), "{\"siglab_session\": [[[1]]]}");  // shallow: the usual message
  EXPECT_EQ(loadError(dir.file("nested.siglab")),
            dir.file("nested.siglab") + ": session key \"siglab_session\": expected a whole number 0 or more, "
                                        "found an array of 1 values");
}

TEST(Session, AHugeValueIsCutInTheMessage) {
  test::TempDir dir;
  test::writeFile(dir.file("long.siglab"), "{\"siglab_session\": \"" + std::string(1'000'000, 'x') + "\"}");
  EXPECT_EQ(loadError(dir.file("long.siglab")),
            dir.file("long.siglab") + ": session key \"siglab_session\": expected a whole number 0 or more, found \"" +
                std::string(40, 'x') + "\"... (1000000 characters)");
  nlohmann::json j = sessionToJson(aSession());
  j["engines"] = nlohmann::json::array({nlohmann::json::array({1, 2, 3})});
  EXPECT_NE(errorOf(j).find("expected engine names, found an array of 3 values"), std::string::npos) << errorOf(j);
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

TEST(Session, DescribesTheFilterForTitles) {
  EXPECT_EQ(describe(FilterSettings{}), "mean, W = 5, zero boundary");
  EXPECT_EQ(describe(FilterSettings{"gaussian", 5, 2.0, {}, "reflect", 10}), "Gaussian, sigma 2 (17 taps), reflect boundary");
  EXPECT_EQ(describe(FilterSettings{"custom", 5, 1.0, {1, 2, 1}, "wrap", 10}), "custom, 3 taps, wrap boundary");
  EXPECT_EQ(describe(FilterSettings{"median", 101, 1.0, {}, "reflect", 10}), "median, W = 101, reflect boundary");
  EXPECT_EQ(describe(FilterSettings{"savgol", 11, 1.0, {}, "interp", 10, 3, 1}),
            "Savitzky-Golay, W = 11, order 3, deriv 1, interp boundary");
}

TEST(Session, AVersion1SessionsFilterIsReadAsAChainOfThatOneStageWhichTheFormShows) {
  nlohmann::json butter = oldSession("taps", "butter");
  butter["filter"]["repeat"] = 3;
  butter["filter"]["butter"] = {{"order", 8}, {"band", "bandstop"}, {"cutoff", 0.15}, {"cutoff2", 0.35}, {"zero_phase", false}};
  const Session back = sessionFromJson(butter, "old.siglab");
  ASSERT_EQ(back.chain.stages.size(), 1u);
  EXPECT_EQ(chainText(back.chain), chainText(parseChain("butter 8,0.15,0.35,bandstop")));
  ASSERT_TRUE(back.stage);
  EXPECT_EQ(back.stage->values, back.chain.stages.front().values);
  EXPECT_EQ(back.repeat, 3);
  nlohmann::json savgol = oldSession("taps", "savgol");
  savgol["filter"]["window"] = 9;
  savgol["filter"]["mode"] = "interp";
  savgol["filter"]["savgol"] = {{"order", 4}, {"deriv", 2}};
  EXPECT_EQ(chainText(sessionFromJson(savgol, "old.siglab").chain), chainText(parseChain("savgol 9,4,2 mode interp")));
  nlohmann::json lowpass = oldSession("taps", "butter");  // a lowpass's unused second cutoff is no band edge
  lowpass["filter"]["butter"] = {{"order", 4}, {"band", "lowpass"}, {"cutoff", 0.2}, {"cutoff2", 0.4}, {"zero_phase", true}};
  EXPECT_EQ(chainText(sessionFromJson(lowpass, "old.siglab").chain), chainText(parseChain("butter 4,0.2 zero-phase")));
  // Sessions from before the other kinds have no "savgol" or "butter": the defaults stand.
  const nlohmann::json older = oldSession("taps", "gaussian");
  EXPECT_EQ(chainText(sessionFromJson(older, "old.siglab").chain), chainText(parseChain("gaussian 1")));
  nlohmann::json badOrder = oldSession("taps", "butter");
  badOrder["filter"]["butter"] = {{"order", 40}, {"band", "lowpass"}, {"cutoff", 0.2}, {"cutoff2", 0.4}, {"zero_phase", true}};
  EXPECT_THROW(sessionFromJson(badOrder, "bad.siglab"), InputError);
}

}  // namespace
}  // namespace siglab
