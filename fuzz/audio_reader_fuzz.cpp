// The audio readers besides WAV (libsndfile underneath: FLAC, Ogg Vorbis/Opus, AIFF, CAF, W64, AU),
// through readChannels so that detection by content and the container checks are fuzzed too: the
// bytes go to a file in the temporary folder, rewritten for every input.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"

namespace {

const std::string& inputPath() {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("siglab-fuzz-audio-" + std::to_string(getpid()) + ".input")).string();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(inputPath(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const siglab::Channels read = siglab::readChannels(inputPath());
    for (const auto& channel : read.channels) {
      if (channel.size() != read.channels.front().size()) std::abort();
      for (const double v : channel) {
        if (!std::isfinite(v)) std::abort();
      }
    }
  } catch (const siglab::InputError& e) {
    if (e.path() != inputPath()) std::abort();
  }
  return 0;
}
