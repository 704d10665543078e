#pragma once
// What front-ends show of the registered signal formats (core/src/io/format_list.cpp): names for
// options and sessions, and file dialog filters. No front-end lists a format by hand.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/io/file_format.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab {

// Every registered format's name, in the registry's order ("npy", "wav", ...).
std::vector<std::string_view> signalFormatNames();
// The format named `name` ("automatic" too), or nullopt.
std::optional<FileFormat> signalFormatNamed(std::string_view name);
// Its description for dialogs ("WAV audio"); "automatic" for FileFormat::automatic.
std::string_view signalFormatDescription(FileFormat format);

// An open dialog's filters, ";;"-separated: every readable extension first, then one a format.
std::string openFileFilters();
// A save dialog's filters for `channels` channels: the formats that write them (those holding
// several first where channels > 1), the one `preferredExtension` (".raw") names first of all.
std::string saveFileFilters(std::size_t channels, std::string_view preferredExtension = {});

// What a user should know of `path` written with `options` (FLAC: its samples are quantised), or
// empty; the pipeline tells it as a note, front-ends show it beside the file.
std::string outputNote(const std::string& path, const WriteOptions& options);

}  // namespace siglab
