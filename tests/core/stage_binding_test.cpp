// Binding each kind to a signal: what it builds, and what it refuses, naming the parameter.
#include <gtest/gtest.h>

#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/taps.hpp"
#include "siglab/stage_registry.hpp"

namespace siglab {
namespace {

StageContext ofLength(std::uint64_t samples, std::optional<double> rate = std::nullopt) {
  StageContext context;
  context.samples = samples;
  context.sampleRate = rate;
  return context;
}

std::unique_ptr<BoundStage> bound(std::string_view kind, std::string_view value, StageContext context,
                                  StageParameters more = {}) {
  const StageKind* found = findStageKind(kind);
  if (!found) throw std::logic_error("no kind " + std::string(kind));
  StageParameters values = found->parseValue(value);
  values.merge(more);
  values = completeParameters(*found, values);
  found->check(values);
  return found->bind(values, context);
}

std::string bindError(std::string_view kind, std::string_view value, StageContext context, StageParameters more = {}) {
  try {
    bound(kind, value, context, std::move(more));
  } catch (const StageError& e) {
    return e.what();
  }
  return "(bound)";
}

TEST(StageBinding, MeanCropsToTheSignalAndSaysSoAndRefusesAnEvenWindow) {
  const auto mean = bound("window", "101", ofLength(10));
  EXPECT_EQ(mean->filterSpec()->window(), 19u);
  EXPECT_NE(mean->note().find("cropped to the 19"), std::string::npos) << mean->note();
  EXPECT_EQ(bound("mean", "5", {})->filterSpec()->window(), 5u);
  EXPECT_EQ(bindError("mean", "4", {}), "W must be odd, got 4");
  EXPECT_EQ(bindError("mean", "x", {}), "W must be a whole number from 1 to 4611686018427387903, got \"x\"");
  EXPECT_EQ(bindError("mean", "99999999", ofLength(3), {{"mode", std::string("reflect")}}).rfind("W 99999999 is too long for 3 samples", 0), 0u)
      << bindError("mean", "99999999", ofLength(3), {{"mode", std::string("reflect")}});
  EXPECT_NE(bindError("mean", "2000001", {}).find("known length"), std::string::npos);
}


TEST(StageBinding, EachKindSaysWhatDidNotReadAsTheCliAlwaysHas) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"median 4", "W must be a positive odd number (1, 3, 5, ...) up to 16777216, got 4"},
      {"median 0", "W must be a positive odd number (1, 3, 5, ...) up to 16777216, got 0"},
      {"median five", "W must be a positive odd number (1, 3, 5, ...) up to 16777216, got \"five\""},
      {"savgol 8,2", "W must be a positive odd number (1, 3, 5, ...), got 8"},
      {"savgol 7,7", "ORDER (below W = 7) must be a whole number from 0 to 6, got \"7\""},
      {"savgol 7,2,3", "DERIV (at most ORDER = 2) must be a whole number from 0 to 2, got \"3\""},
      {"savgol 7", "takes W,ORDER[,DERIV], got \"7\""},
      {"butter 0,0.2", "ORDER must be a whole number from 1 to 32, got \"0\""},
      {"butter 4,x", "CUTOFF must be a number, got \"x\""},
      {"butter 4,0.1,lowpass,0.2", "takes ORDER,CUTOFF[,CUTOFF2][,lowpass|highpass|bandpass|bandstop], got \"4,0.1,lowpass,0.2\""},
      {"butter 4,0.1,bandpass", "bandpass needs two cutoffs: ORDER,LOW,HIGH"},
      {"butter 4,0.1,0.2,highpass", "highpass takes one cutoff: ORDER,CUTOFF"},
      {"gaussian -1", "sigma must be a finite number from 0 to 1e+17, got -1"},
      {"gaussian 0", "Gaussian sigma must be a positive number, got 0"},
      {"gaussian nan", "SIGMA must be a number, got \"nan\""},
  };
  for (const auto& [chain, message] : cases) {
    const std::size_t space = chain.find(' ');
    EXPECT_EQ(bindError(chain.substr(0, space), chain.substr(space + 1), {}), message) << chain;
  }
  EXPECT_EQ(bindError("gaussian", "2", {}, {{"window", std::int64_t{4}}}), "window must be odd, got 4");
  EXPECT_EQ(bindError("median", "5", {}, {{"mode", std::string("interp")}}),
            "mode must be one of zero, reflect, mirror, nearest, wrap, got \"interp\"");
}

TEST(StageBinding, RefusesASignalTooShortOrACutoffPastNyquistWithoutARate) {
  EXPECT_EQ(bindError("savgol", "11,3", ofLength(5)),
            "interp edges need at least W = 11 samples; the signal has 5 (use a smaller window or another --mode)");
  EXPECT_EQ(bindError("median", "16777215", ofLength(100), {{"mode", std::string("reflect")}}).rfind(
                "W 16777215 is too long for 100 samples in reflect mode", 0),
            0u);
  EXPECT_EQ(bindError("butter", "4,0.2", ofLength(10), {{"zero-phase", true}}).rfind("--zero-phase needs more than 15 samples", 0),
            0u);
  const std::string noRate = bindError("butter", "4,300", ofLength(1000));
  EXPECT_NE(noRate.find("butterworth cutoff must be"), std::string::npos) << noRate;
  EXPECT_NE(noRate.find("(without a rate, cutoffs are fractions of Nyquist, between 0 and 1)"), std::string::npos) << noRate;
  const auto hz = bound("butter", "4,300", ofLength(1000, 8000.0));
  EXPECT_EQ(hz->filterSpec()->sos.design.sampleRate, 8000.0);
  EXPECT_EQ(hz->historyBefore(), std::nullopt);
  EXPECT_THROW(bound("taps", "/no/such/taps.txt", {}), InputError);
}

TEST(StageBinding, EachKindBuildsTheFilterTodaysBuildersDo) {
  ButterworthSpec band;
  band.order = 4;
  band.cutoff = 0.1;
  band.cutoff2 = 0.3;
  band.type = BandType::Bandpass;
  const std::vector<std::pair<std::string, FilterSpec>> cases = {
      {"mean 7", makeMeanFilter(7)},
      {"gaussian 1.5", makeGaussianFilter(1.5)},
      {"median 9", makeMedianFilter(9, BoundaryMode::Zero)},
      {"savgol 11,3,1", makeSavgolFilter(11, 3, 1, true, BoundaryMode::Mirror)},
      {"butter 4,0.1,0.3", makeButterworthFilter(band, false)},
  };
  for (const auto& [chain, expected] : cases) {
    const std::size_t space = chain.find(' ');
    const auto stage = bound(chain.substr(0, space), chain.substr(space + 1), ofLength(1000));
    const FilterSpec& spec = *stage->filterSpec();
    EXPECT_EQ(describeFilter(spec), describeFilter(expected)) << chain;
    EXPECT_EQ(spec.taps, expected.taps) << chain;
    EXPECT_EQ(spec.sos.sections, expected.sos.sections) << chain;
    EXPECT_EQ(spec.accumulator, expected.accumulator) << chain;
  }
  StageContext float64Sums = ofLength(1000);
  float64Sums.accumulator = Accumulator::Float64;
  EXPECT_EQ(bound("gaussian", "2", float64Sums)->filterSpec()->accumulator, Accumulator::Float64);
}


TEST(StageBinding, TheIssuesChainBindsWithARateAndNamesTheStageWithoutOne) {
  const Pipeline chain = parseChain("butter 4,300,3000,bandpass zero-phase; median 5; detrend");
  ASSERT_EQ(chain.stages.size(), 3u);
  for (std::size_t k = 0; k < chain.stages.size(); ++k) EXPECT_NO_THROW(bindStage(chain.stages[k], k + 1, ofLength(1000, 44100.0)));
  try {
    bindStage(chain.stages[0], 1, ofLength(1000));
    FAIL() << "took cutoffs in Hz without a rate";
  } catch (const StageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("stage 1 (butter): butterworth cutoff must be", 0), 0u) << e.what();
  }
  // Savitzky-Golay's coefficient work is bounded before any of it is done.
  try {
    parseChain("savgol 20001,20");
    FAIL() << "took a Savitzky-Golay filter past its work bound";
  } catch (const StageError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("stage 1 (savgol): savgol W = 20001, order 20 with interp edges needs ", 0), 0u)
        << e.what();
  }
}

TEST(StageBinding, AStageOfAChainIsNamedByItsNumberAndKind) {
  const Pipeline chain = parseChain("mean 3; savgol 11,3");
  EXPECT_NO_THROW(bindStage(chain.stages[0], 1, ofLength(5)));
  try {
    bindStage(chain.stages[1], 2, ofLength(5));
    FAIL() << "bound a Savitzky-Golay filter longer than the signal";
  } catch (const StageError& e) {
    EXPECT_STREQ(e.what(), "stage 2 (savgol): interp edges need at least W = 11 samples; the signal has 5 "
                           "(use a smaller window or another --mode)");
  }
  // A whole number written as a real one (JSON, Python) is taken; a fraction is not.
  const StageKind& median = *findStageKind("median");
  EXPECT_EQ(completeParameters(median, {{"window", 5.0}}).at("window"), ParameterValue(std::int64_t{5}));
  EXPECT_THROW(completeParameters(median, {{"window", 5.5}}), StageError);
  // A band without its second cutoff, as a pipeline file may hold it.
  const StageKind& butter = *findStageKind("butter");
  const StageParameters band = completeParameters(
      butter, {{"order", std::int64_t{4}}, {"cutoff", 0.1}, {"type", std::string("bandpass")}});
  try {
    butter.check(band);
    FAIL() << "took a band of one cutoff";
  } catch (const StageError& e) {
    EXPECT_STREQ(e.what(), "bandpass needs two cutoffs: ORDER,LOW,HIGH");
  }
}

}  // namespace
}  // namespace siglab
