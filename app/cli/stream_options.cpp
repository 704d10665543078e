#include "stream_options.hpp"

#include "option_checks.hpp"

namespace siglab::cli {

Streaming StreamOptions::streaming() const {
  return mode == "always" ? Streaming::always : mode == "never" ? Streaming::never : Streaming::automatic;
}

void addStreamOptions(CLI::App& cmd, StreamOptions& s) {
  cmd.add_option("--stream", s.mode,
                 "auto (stream block by block wherever the result is the in-memory one's bits: exact engines, into "
                 "a file or a pipe; else in memory unless the signal would not fit), always, or never")
      ->capture_default_str()->check(oneOf({"auto", "always", "never"}));
  cmd.add_option("--stream-block", s.blockSamples, "Outputs a streamed block holds (memory: about 50 bytes each: three blocks read ahead, three being written)")
      ->capture_default_str()->check(wholeNumber(1, std::uint64_t{1} << 30, "2^30"));
}

}  // namespace siglab::cli
