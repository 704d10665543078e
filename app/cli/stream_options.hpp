#pragma once
// `filter`'s --stream and --stream-block: how core's runPipeline plans the run.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

#include "siglab/pipeline_run.hpp"

namespace siglab::cli {

struct StreamOptions {
  std::string mode = "auto";  // auto, always, never
  std::size_t blockSamples = PipelineOptions{}.blockSamples;

  Streaming streaming() const;
};

void addStreamOptions(CLI::App& command, StreamOptions& options);

}  // namespace siglab::cli
