#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "siglab/io/signal_io.hpp"
#include "siglab/markers.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/progress.hpp"

namespace siglab {

// The filter of a version-1 session (one filter, before stages): which kind, and each kind's
// parameter. Such a session is read as a chain of that one stage (stageOf).
struct FilterSettings {
  std::string taps = "mean";        // "mean", "gaussian", "custom", "median", "savgol" or "butter"
  std::size_t window = 5;           // mean, median, savgol: odd
  double sigma = 1.0;               // gaussian
  std::vector<double> customTaps;   // custom: an odd count
  std::string mode = "zero";        // a boundary mode's name; "interp" too for savgol
  int repeat = 10;                  // timed runs per engine
  std::size_t savgolOrder = 2;      // savgol: below window
  std::size_t savgolDeriv = 0;      // savgol: at most savgolOrder
  int butterOrder = 4;              // butter: 1..32
  std::string butterBand = "lowpass";  // butter: lowpass, highpass, bandpass or bandstop
  double cutoff = 0.2;              // butter: fractions of Nyquist
  double cutoff2 = 0.4;             // butter: the upper edge of a band
  bool zeroPhase = true;            // butter: sosfiltfilt
};

// A short description for titles: "mean, W = 5, zero boundary", "Gaussian, sigma 2 (17 taps), ...".
std::string describe(const FilterSettings& filter);

// The stage `filter` is (custom taps written in the session: the taps kind takes a file, so they
// are refused, naming what to do). Throws StageError.
Stage stageOf(const FilterSettings& filter);

struct ViewRange {
  double first = 0;  // sample indices shown, left and right edge
  double last = 0;
};

// A `.siglab` session: the signal (path and how to read it), the chain applied to it, the stage
// the form shows, the engines chosen and the view. Saved as JSON with a format version; a relative
// signal path is taken from the folder the session file is in.
struct Session {
  std::string signalPath;
  ReadOptions read;
  Pipeline chain;              // the stages applied in turn: applied again when the session opens
  std::optional<Stage> stage;  // the stage the form shows
  int repeat = 10;             // Compare: timed runs per engine
  std::vector<std::string> engines;
  std::optional<ViewRange> view;
  bool stacked = false;
  std::vector<Marker> markers;  // markers and labelled regions, in sample indices
};

// 2: the chain and the form's stage as pipelines (pipeline.hpp); 1: one FilterSettings, still read.
inline constexpr int kSessionVersion = 2;

nlohmann::json sessionToJson(const Session& session);
// Throws InputError naming `pathForMessages`, the key and what was wrong (and the allowed values).
Session sessionFromJson(const nlohmann::json& json, const std::string& pathForMessages);

// Atomically, reporting and stopping at `progress`'s cancel as writeFileAtomically does.
void saveSession(const std::string& path, const Session& session, const Progress& progress = {});
Session loadSession(const std::string& path);  // relative signal paths resolved against the file's folder

}  // namespace siglab
