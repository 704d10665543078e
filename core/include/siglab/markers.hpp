#pragma once
// Markers and labelled regions on a signal: what the user marked (or the peak stage found), kept in
// sample indices so a changed sample rate moves nothing, written to CSV in seconds where the signal
// has a rate (sample indices where not) and to the session as JSON.
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "siglab/find_peaks.hpp"
#include "siglab/statistics.hpp"

namespace siglab {

/// A marker at one sample, or a labelled region from `at` to `end`.
struct Marker {
  double at = 0;               // sample index (fractional where read from seconds)
  std::string label;
  std::optional<double> end;   // a region's last sample index; none for a marker
  bool isRegion() const { return end.has_value(); }
  bool operator==(const Marker&) const = default;
};

// Samples [first, last] (both included, rounded and clamped to a signal of `size` samples), the
// range a pair of cursors or a region selects; an empty range where the signal is empty.
SampleRange spanBetween(double first, double last, std::size_t size);
SampleRange rangeOf(const Marker& marker, std::size_t size);  // a marker: its one sample

// CSV with a header naming the unit: "time_s,label,end_s" with a rate, "sample,label,end_sample"
// without; a region has an end, a marker leaves it empty. Labels are quoted where they need it.
std::string markersToCsv(const std::vector<Marker>& markers, std::optional<double> sampleRate);
// Reads either header (seconds need `sampleRate`); throws InputError naming `pathForMessages`, the
// line and what was wrong.
std::vector<Marker> markersFromCsv(const std::string& text, std::optional<double> sampleRate,
                                   const std::string& pathForMessages);
void saveMarkersCsv(const std::string& path, const std::vector<Marker>& markers, std::optional<double> sampleRate);
std::vector<Marker> loadMarkersCsv(const std::string& path, std::optional<double> sampleRate);

// The peaks find_peaks finds (SciPy's semantics) in a signal of `size` samples, read block by block
// by `read(first, out)`, as markers labelled "peak". Throws std::length_error saying so where there
// are more than `limit` (a marker list is for reading, not for every ripple of a noisy signal).
using BlockReader = std::function<void(std::size_t first, std::span<double> out)>;
std::vector<Marker> peakMarkers(const BlockReader& read, std::size_t size, const PeakOptions& options,
                                std::size_t limit = 10000);

// The session's "markers" array: [{"at": 120, "label": "onset", "end": 480}, ...].
nlohmann::json markersToJson(const std::vector<Marker>& markers);
// Throws InputError naming `pathForMessages` and the key ("markers[2].at").
std::vector<Marker> markersFromJson(const nlohmann::json& json, const std::string& pathForMessages);

}  // namespace siglab
