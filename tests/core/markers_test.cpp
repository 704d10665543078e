// Cursors, markers and regions (issue 29, items 3 and 4): what a pair of cursors reads, the span
// they select, markers and regions through CSV and the session, and peaks as markers.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "input_error.hpp"
#include "siglab/cursor_readout.hpp"
#include "siglab/errors.hpp"
#include "siglab/ladder.hpp"
#include "siglab/markers.hpp"
#include "siglab/session.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

const std::vector<Marker> kMarkers{{120, "onset", std::nullopt}, {480, "a, \"quoted\" label", 960}, {7, "", std::nullopt}};

using test::errorOf;

TEST(Markers, RoundTripThroughCsvInSecondsAndInSamples) {
  EXPECT_EQ(markersFromCsv(markersToCsv(kMarkers, 8000.0), 8000.0, "m.csv"), kMarkers);
  EXPECT_EQ(markersFromCsv(markersToCsv(kMarkers, std::nullopt), std::nullopt, "m.csv"), kMarkers);
  const std::string csv = markersToCsv(kMarkers, 8000.0);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "time_s,label,end_s");
  EXPECT_NE(csv.find("0.014999999999999999,onset,\n"), std::string::npos) << csv;  // 120 / 8000 s
  test::TempDir dir;
  saveMarkersCsv(dir.file("m.csv"), kMarkers, 44100.0);
  EXPECT_EQ(loadMarkersCsv(dir.file("m.csv"), 44100.0), kMarkers);
}

TEST(Markers, BadCsvNamesTheFileTheLineAndWhy) {
  EXPECT_NE(errorOf([] { markersFromCsv("time_s,label,end_s\n1,a\nx,b\n", 10.0, "m.csv"); }).find("m.csv:3"), std::string::npos);
  EXPECT_NE(errorOf([] { markersFromCsv("time_s,label,end_s\n1,a\nx,b\n", 10.0, "m.csv"); }).find("\"x\" is not a finite number"),
            std::string::npos);
  EXPECT_NE(errorOf([] { markersFromCsv("time_s,label\n", std::nullopt, "m.csv"); }).find("expected the header"), std::string::npos);
  EXPECT_NE(errorOf([] { markersFromCsv("time_s,label,end_s\n1,a\n", std::nullopt, "m.csv"); }).find("sample rate"),
            std::string::npos);
  EXPECT_NE(errorOf([] { markersFromCsv("sample,label,end_sample\n5,r,2\n", std::nullopt, "m.csv"); }).find("ends before"),
            std::string::npos);
  EXPECT_NE(errorOf([] { markersFromCsv("sample,label,end_sample\n5,\"open\n", std::nullopt, "m.csv"); }).find("not closed"),
            std::string::npos);
  EXPECT_NE(errorOf([] { loadMarkersCsv("/nonexistent-folder/m.csv", std::nullopt); }).find("/nonexistent-folder/m.csv"),
            std::string::npos);
}

TEST(Markers, RoundTripThroughTheSession) {
  Session session;
  session.signalPath = "s.txt";
  session.markers = kMarkers;
  EXPECT_EQ(sessionFromJson(sessionToJson(session), "s.siglab").markers, kMarkers);
  nlohmann::json bad = sessionToJson(session);
  bad["markers"][1]["at"] = "soon";
  EXPECT_NE(errorOf([&] { sessionFromJson(bad, "s.siglab"); }).find("markers[1].at"), std::string::npos);
  session.markers.clear();
  EXPECT_FALSE(sessionToJson(session).contains("markers")) << "an older SigLab still reads it";
}

TEST(Cursors, DeltaReciprocalAndSpan) {
  const CursorDelta rated = cursorDelta(100, 300, 1000.0);
  EXPECT_EQ(rated.samples, 200);
  EXPECT_DOUBLE_EQ(*rated.seconds, 0.2);
  EXPECT_DOUBLE_EQ(*rated.reciprocal, 5.0);
  const CursorDelta backwards = cursorDelta(300, 100, std::nullopt);
  EXPECT_EQ(backwards.samples, -200);
  EXPECT_FALSE(backwards.seconds);
  EXPECT_DOUBLE_EQ(*backwards.reciprocal, 1.0 / 200);
  EXPECT_FALSE(cursorDelta(5, 5, 10.0).reciprocal) << "A on B: no 1/delta";

  EXPECT_EQ(spanBetween(300.4, 99.6, 1000).begin, 100u);
  EXPECT_EQ(spanBetween(300.4, 99.6, 1000).end, 301u) << "both cursors' samples included";
  EXPECT_EQ(spanBetween(-5, 5000, 1000).end, 1000u);
  EXPECT_EQ(spanBetween(1, 2, 0).end, 0u);
  EXPECT_EQ(rangeOf({480, "r", 960}, 1000).end, 961u);
  EXPECT_EQ(withSiPrefix(0.0025, "s"), "2.5 ms");
  EXPECT_EQ(withSiPrefix(12500, "Hz"), "12.5 kHz");
  const std::vector<double> frequencies{0, 10, 20, 30};
  EXPECT_EQ(nearestIndex(frequencies, 14), 1u);
  EXPECT_EQ(nearestIndex(frequencies, 16), 2u);
  EXPECT_EQ(nearestIndex(frequencies, 99), 3u);
}

TEST(Markers, PeaksAreTheFindPeaksStagesPeaks) {
  std::vector<double> signal(5000);
  for (std::size_t i = 0; i < signal.size(); ++i) signal[i] = std::sin(static_cast<double>(i) * 2 * M_PI / 250.0);
  const auto read = [&](std::size_t first, std::span<double> out) {
    std::copy_n(signal.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
  };
  PeakOptions options;
  options.prominence = 0.5;
  const std::vector<Marker> peaks = peakMarkers(read, signal.size(), options);
  ASSERT_EQ(peaks.size(), 20u);
  EXPECT_NEAR(peaks[3].at, 3 * 250 + 62.5, 0.5);
  EXPECT_EQ(peaks[3].label, "peak");
  EXPECT_THROW(peakMarkers(read, signal.size(), options, 10), std::length_error) << "a list is for reading";
}

TEST(Lab, ABandTimedRungSaysSoAndScalesToTheWholeProblem) {
  LadderRung band;
  band.time.medianMs = 10.0;
  band.timedShare = 0.1;
  band.timedPart = "a band: rows 0..99 of 1000";
  EXPECT_EQ(timedText(band), "a band: rows 0..99 of 1000");
  EXPECT_DOUBLE_EQ(wholeProblemMs(band), 100.0);
  LadderRung whole;
  whole.time.medianMs = 3.0;
  EXPECT_EQ(timedText(whole), "the whole problem");
  EXPECT_DOUBLE_EQ(wholeProblemMs(whole), 3.0);
}

}  // namespace
}  // namespace siglab
