#include "siglab/session.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/signal_formats.hpp"
#include "siglab/json_number.hpp"
#include "siglab/markers.hpp"
#include "siglab/stage_registry.hpp"
#include "siglab/taps.hpp"
#include "io/json_file.hpp"

namespace siglab {
namespace {

using nlohmann::json;

// Deeper than any session: a hostile file's nesting is refused while parsing, before any code
// that walks the values recursively (dump(), the destructor of older nlohmann versions) sees it.
constexpr int kDeepestNesting = 32;

// A value as a message shows it: short, whatever its size (a string cut, an array or object
// counted, never written out).
std::string shown(const json& value) {
  constexpr std::size_t kLongestString = 40;
  if (value.is_array()) return "an array of " + std::to_string(value.size()) + " values";
  if (value.is_object()) return "an object of " + std::to_string(value.size()) + " keys";
  if (value.is_string() && value.get_ref<const std::string&>().size() > kLongestString) {
    return json(value.get_ref<const std::string&>().substr(0, kLongestString)).dump() + "... (" +
           std::to_string(value.get_ref<const std::string&>().size()) + " characters)";
  }
  return value.dump();
}

std::string formatName(FileFormat f) { return f.isAutomatic() ? "automatic" : std::string(f.name()); }

// Reads session keys, each error naming the file and the key's path ("filter.window").
class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw InputError(path_, "session key \"" + key + "\": " + what);
  }
  const json& member(const json& object, const std::string& parent, const char* name, json::value_t type,
                     const char* expected) const {
    const std::string key = parent.empty() ? name : parent + "." + name;
    if (!object.contains(name)) fail(key, "missing");
    const json& value = object.at(name);
    const bool numberOk = type == json::value_t::number_float && value.is_number();
    const bool unsignedOk = type == json::value_t::number_unsigned && value.is_number_integer() &&
                            (value.is_number_unsigned() || value.get<std::int64_t>() >= 0);
    if (value.type() != type && !numberOk && !unsignedOk) fail(key, std::string("expected ") + expected + ", found " + shown(value));
    return value;
  }
  std::string string(const json& o, const std::string& parent, const char* name) const {
    return member(o, parent, name, json::value_t::string, "a string").get<std::string>();
  }
  std::uint64_t count(const json& o, const std::string& parent, const char* name) const {
    return member(o, parent, name, json::value_t::number_unsigned, "a whole number 0 or more").get<std::uint64_t>();
  }
  double number(const json& o, const std::string& parent, const char* name) const {
    return member(o, parent, name, json::value_t::number_float, "a number").get<double>();
  }
  bool flag(const json& o, const std::string& parent, const char* name) const {
    return member(o, parent, name, json::value_t::boolean, "true or false").get<bool>();
  }
  const json& object(const json& o, const std::string& parent, const char* name) const {
    return member(o, parent, name, json::value_t::object, "an object");
  }
  Pipeline pipeline(const json& o, const char* name) const {
    const json& value = object(o, "", name);
    try {
      return pipelineFromJson(value, path_);
    } catch (const StageError& e) {
      const std::string what = e.what();
      fail(name, what.starts_with(path_ + ": ") ? what.substr(path_.size() + 2) : what);
    }
  }

 private:
  const std::string& path_;
};

// A version-1 session's "filter", checked as it was then.
FilterSettings readFilterSettings(const Reader& r, const json& j) {
  FilterSettings f;
  const json& filter = r.object(j, "", "filter");
  f.taps = r.string(filter, "filter", "taps");
  if (f.taps != "mean" && f.taps != "gaussian" && f.taps != "custom" && f.taps != "median" &&
      f.taps != "savgol" && f.taps != "butter") {
    r.fail("filter.taps", "\"" + f.taps + "\" is not mean, gaussian, custom, median, savgol or butter");
  }
  f.window = r.count(filter, "filter", "window");
  if (f.window % 2 == 0) r.fail("filter.window", "must be odd, found " + std::to_string(f.window));
  f.sigma = r.number(filter, "filter", "sigma");
  if (!(f.sigma > 0) || !std::isfinite(f.sigma)) r.fail("filter.sigma", "must be a positive number");
  try {
    gaussianWindow(f.sigma);
  } catch (const std::invalid_argument& e) {
    r.fail("filter.sigma", e.what());
  }
  const json& taps = r.member(filter, "filter", "custom_taps", json::value_t::array, "an array of numbers");
  for (const json& t : taps) {
    if (!t.is_number()) r.fail("filter.custom_taps", "expected numbers, found " + shown(t));
    f.customTaps.push_back(t.get<double>());
  }
  f.mode = r.string(filter, "filter", "mode");
  // Sessions from before the other kinds have no "savgol" or "butter": the defaults stand.
  if (filter.contains("savgol")) {
    const json& savgol = r.object(filter, "filter", "savgol");
    f.savgolOrder = r.count(savgol, "filter.savgol", "order");
    f.savgolDeriv = r.count(savgol, "filter.savgol", "deriv");
    if (f.savgolOrder > kMaxSavgolOrder) {
      r.fail("filter.savgol.order", "must be at most " + std::to_string(kMaxSavgolOrder) + ", found " +
                                        std::to_string(f.savgolOrder));
    }
  }
  if (filter.contains("butter")) {
    const json& butter = r.object(filter, "filter", "butter");
    const std::uint64_t order = r.count(butter, "filter.butter", "order");
    if (order < 1 || order > 32) r.fail("filter.butter.order", "must be from 1 to 32, found " + std::to_string(order));
    f.butterOrder = static_cast<int>(order);
    f.butterBand = r.string(butter, "filter.butter", "band");
    if (!parseBandType(f.butterBand)) {
      r.fail("filter.butter.band", "\"" + f.butterBand + "\" is not lowpass, highpass, bandpass or bandstop");
    }
    f.cutoff = r.number(butter, "filter.butter", "cutoff");
    f.cutoff2 = r.number(butter, "filter.butter", "cutoff2");
    f.zeroPhase = r.flag(butter, "filter.butter", "zero_phase");
  }
  if (!parseBoundaryMode(f.mode) && !(f.mode == "interp" && f.taps == "savgol")) r.fail("filter.mode", "\"" + f.mode + "\" is not zero, reflect, mirror, nearest or wrap");
  const std::uint64_t repeat = r.count(filter, "filter", "repeat");
  if (repeat < 1 || repeat > 100000) r.fail("filter.repeat", "must be from 1 to 100000, found " + std::to_string(repeat));
  f.repeat = static_cast<int>(repeat);

  return f;
}

}  // namespace

std::string describe(const FilterSettings& f) {
  std::ostringstream text;
  if (f.taps == "gaussian") {
    text << "Gaussian, sigma " << f.sigma << " (" << gaussianWindow(f.sigma) << " taps)";
  } else if (f.taps == "custom") {
    text << "custom, " << f.customTaps.size() << " taps";
  } else if (f.taps == "median") {
    text << "median, W = " << f.window;
  } else if (f.taps == "savgol") {
    text << "Savitzky-Golay, W = " << f.window << ", order " << f.savgolOrder << ", deriv " << f.savgolDeriv;
  } else if (f.taps == "butter") {
    text << "Butterworth " << f.butterBand << ", order " << f.butterOrder << ", cutoff " << f.cutoff;
    if (f.butterBand == "bandpass" || f.butterBand == "bandstop") text << "-" << f.cutoff2;
    text << " x Nyquist" << (f.zeroPhase ? ", zero phase" : "");
    return text.str();
  } else {
    text << "mean, W = " << f.window;
  }
  text << ", " << f.mode << " boundary";
  return text.str();
}

Stage stageOf(const FilterSettings& f) {
  if (f.taps == "custom") {
    throw StageError("custom taps written in the session (" + std::to_string(f.customTaps.size()) +
                     " weights) are read from a file now: save them one a line and choose that file as the taps "
                     "stage's file");
  }
  const auto whole = [](auto v) { return ParameterValue(static_cast<std::int64_t>(v)); };
  StageParameters values;
  if (f.taps == "butter") {
    const bool band = f.butterBand == "bandpass" || f.butterBand == "bandstop";
    values = {{"order", whole(f.butterOrder)}, {"cutoff", f.cutoff}, {"cutoff2", band ? f.cutoff2 : 0.0},
              {"type", f.butterBand}, {"zero-phase", f.zeroPhase}};
  } else {
    values["mode"] = f.mode;
    if (f.taps == "gaussian") values["sigma"] = f.sigma;
    else values["window"] = whole(f.window);
    if (f.taps == "savgol") {
      values["order"] = whole(f.savgolOrder);
      values["deriv"] = whole(f.savgolDeriv);
    }
  }
  const StageKind* kind = findStageKind(f.taps);
  if (!kind) throw StageError("\"" + f.taps + "\" is no stage kind (known: " + stageKindNames() + ")");
  Stage stage{kind, completeParameters(*kind, std::move(values))};
  kind->check(stage.values);
  return stage;
}

json sessionToJson(const Session& s) {
  json signal = {{"path", s.signalPath},
                 {"format", formatName(s.read.format)},
                 {"column", s.read.column},
                 {"skip_header", s.read.skipHeader},
                 {"decimal", std::string(1, s.read.decimal)},
                 {"raw_offset", s.read.rawOffset},
                 {"channel", s.read.channel},
                 {"one_channel", s.read.oneChannel},
                 {"columns", s.read.columns},
                 {"raw_channels", s.read.rawChannels},
                 {"allow_nonfinite", s.read.allowNonFinite}};
  if (!s.read.dataset.empty()) signal["dataset"] = s.read.dataset;  // HDF5/MAT: the one opened
  if (!s.read.rateAttribute.empty()) signal["rate_attribute"] = s.read.rateAttribute;
  signal["raw_type"] = s.read.rawType ? json(std::string(sampleTypeName(*s.read.rawType))) : json(nullptr);
  json out = {{"siglab_session", kSessionVersion}, {"signal", signal}, {"chain", s.chain.stages.empty() ? json(nullptr) : pipelineToJson(s.chain)},
              {"stage", s.stage ? pipelineToJson(Pipeline{{*s.stage}}) : json(nullptr)}, {"repeat", s.repeat},
              {"engines", s.engines}, {"stacked", s.stacked}};
  if (s.view) out["view"] = {{"first", jsonNumber(s.view->first)}, {"last", jsonNumber(s.view->last)}};
  if (!s.markers.empty()) out["markers"] = markersToJson(s.markers);
  return out;
}

Session sessionFromJson(const json& j, const std::string& path) {
  const Reader r(path);
  if (!j.is_object()) throw InputError(path, "not a SigLab session: expected a JSON object");
  const std::uint64_t version = r.count(j, "", "siglab_session");
  if (version != 1 && version != kSessionVersion) {
    r.fail("siglab_session", "version " + std::to_string(version) + " is not one this SigLab reads (1 or " +
                                 std::to_string(kSessionVersion) + ")");
  }
  Session s;
  const json& signal = r.object(j, "", "signal");
  s.signalPath = r.string(signal, "signal", "path");
  if (s.signalPath.empty()) r.fail("signal.path", "empty: name the signal file");
  const std::string format = r.string(signal, "signal", "format");
  const std::optional<FileFormat> named = signalFormatNamed(format);
  if (!named) {
    std::string known = "automatic";
    for (const std::string_view name : signalFormatNames()) known += ", " + std::string(name);
    r.fail("signal.format", "\"" + format + "\" is not one of " + known);
  }
  s.read.format = *named;
  s.read.column = r.count(signal, "signal", "column");
  s.read.skipHeader = r.flag(signal, "signal", "skip_header");
  if (signal.contains("decimal")) {  // sessions written before decimal commas were read have none: '.'
    const std::string decimal = r.string(signal, "signal", "decimal");
    if (decimal != "." && decimal != ",") r.fail("signal.decimal", "\"" + decimal + "\" is not . or ,");
    s.read.decimal = decimal.front();
  }
  if (signal.contains("dataset")) s.read.dataset = r.string(signal, "signal", "dataset");
  if (signal.contains("rate_attribute")) s.read.rateAttribute = r.string(signal, "signal", "rate_attribute");
  s.read.rawOffset = r.count(signal, "signal", "raw_offset");
  s.read.channel = r.count(signal, "signal", "channel");
  if (s.read.channel == 0) r.fail("signal.channel", "channels count from 1");
  // Sessions written before signals had channels read one: `channel` alone.
  s.read.oneChannel = !signal.contains("one_channel") || r.flag(signal, "signal", "one_channel");
  if (signal.contains("raw_channels")) {
    s.read.rawChannels = r.count(signal, "signal", "raw_channels");
    if (s.read.rawChannels == 0) r.fail("signal.raw_channels", "a raw file has at least one channel");
  }
  if (signal.contains("columns")) {
    const json& columns = signal.at("columns");
    if (!columns.is_array()) r.fail("signal.columns", "expected a list of column numbers");
    for (const json& column : columns) {
      if (!column.is_number_unsigned() || column.get<std::uint64_t>() == 0) {
        r.fail("signal.columns", "columns count from 1: " + column.dump());
      }
      s.read.columns.push_back(column.get<std::size_t>());
    }
  }
  s.read.allowNonFinite = r.flag(signal, "signal", "allow_nonfinite");
  if (signal.contains("raw_type") && !signal.at("raw_type").is_null()) {
    const std::string type = r.string(signal, "signal", "raw_type");
    s.read.rawType = parseSampleTypeName(type);
    if (!s.read.rawType) r.fail("signal.raw_type", "\"" + type + "\" is not f64, f32, i8, i16, i32, i64, u8, u16, u32 or u64");
  }

  if (version == 1) {
    // One filter, read as a chain of that one stage, which the form shows too.
    const FilterSettings filter = readFilterSettings(r, j);
    try {
      s.stage = stageOf(filter);
    } catch (const StageError& e) {
      r.fail("filter", e.what());
    }
    s.chain.stages.push_back(*s.stage);
    s.repeat = filter.repeat;
  } else {
    if (!j.contains("chain")) r.fail("chain", "missing");
    if (!j.at("chain").is_null()) s.chain = r.pipeline(j, "chain");
    if (!j.contains("stage")) r.fail("stage", "missing");
    if (!j.at("stage").is_null()) {
      const Pipeline one = r.pipeline(j, "stage");
      if (one.stages.size() != 1) r.fail("stage", "expected one stage, found " + std::to_string(one.stages.size()));
      s.stage = one.stages.front();
    }
    const std::uint64_t repeat = r.count(j, "", "repeat");
    if (repeat < 1 || repeat > 100000) r.fail("repeat", "must be from 1 to 100000, found " + std::to_string(repeat));
    s.repeat = static_cast<int>(repeat);
  }

  for (const json& e : r.member(j, "", "engines", json::value_t::array, "an array of engine names")) {
    if (!e.is_string()) r.fail("engines", "expected engine names, found " + shown(e));
    s.engines.push_back(e.get<std::string>());
  }
  if (j.contains("stacked")) s.stacked = r.flag(j, "", "stacked");
  if (j.contains("view")) {
    const json& view = r.object(j, "", "view");
    s.view = ViewRange{r.number(view, "view", "first"), r.number(view, "view", "last")};
    if (!(s.view->first < s.view->last)) r.fail("view", "first must be below last");
  }
  if (j.contains("markers")) s.markers = markersFromJson(j.at("markers"), path);
  return s;
}

void saveSession(const std::string& path, const Session& session, const Progress& progress) {
  writeFileAtomically(path, sessionToJson(session).dump(2) + "\n", progress);
}

Session loadSession(const std::string& path) {
  const json j = readJsonFile(path, "session", kDeepestNesting);
  Session s = sessionFromJson(j, path);
  const std::filesystem::path signal(s.signalPath);
  if (signal.is_relative()) s.signalPath = (std::filesystem::path(path).parent_path() / signal).lexically_normal().string();
  return s;
}

}  // namespace siglab
