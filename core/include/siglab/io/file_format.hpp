#pragma once
#include <string_view>

namespace siglab {

// A signal file format, named as registered (core/src/io/format_list.cpp: "text", "npy", "raw",
// "wav", ...): what ReadOptions::format and WriteOptions::format choose and sessions store.
// `automatic`, no name, lets the file's content (reading) or its extension (writing) decide. A
// value type: the name's characters live as long as the program (a literal or a registered
// format's name).
class FileFormat {
 public:
  constexpr FileFormat() = default;
  constexpr explicit FileFormat(std::string_view name) : name_(name) {}
  constexpr std::string_view name() const { return name_; }
  constexpr bool isAutomatic() const { return name_.empty(); }
  constexpr bool operator==(const FileFormat&) const = default;

  static const FileFormat automatic, text, npy, raw, wav;

 private:
  std::string_view name_;
};

inline constexpr FileFormat FileFormat::automatic{};
inline constexpr FileFormat FileFormat::text{"text"};
inline constexpr FileFormat FileFormat::npy{"npy"};
inline constexpr FileFormat FileFormat::raw{"raw"};
inline constexpr FileFormat FileFormat::wav{"wav"};

}  // namespace siglab
