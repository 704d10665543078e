#pragma once
// One engine filtering the blocks of a stream, each block checked against its own input as
// applyFilter checks a whole signal: what streamApply runs for one filter and the streamed
// pipeline runs for each of its stages.
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "siglab/job.hpp"
#include "siglab/stream_filter.hpp"

namespace siglab::detail {

// An engine's failure while filtering a block (not a cancel, not bad input): the streamed
// pipeline tries the stage's next engine then, as applyJob does in memory.
class BlockEngineFailed : public std::runtime_error {
 public:
  BlockEngineFailed(std::size_t failedStage, std::exception_ptr thrown, const std::string& what)
      : std::runtime_error(what), stage(failedStage), original(std::move(thrown)) {}
  std::size_t stage;            // the stage of the chain whose engine failed
  std::exception_ptr original;  // what the engine threw, for when no engine can take its place
};

// Filters blocks with `engine` as job says (float32 narrowed per block, naming job.input and the
// sample for one float32 cannot hold) and, unless job.verify is false, verifies each. Sums phases,
// verification and blocks into `result` (the caller's, alive while the filter is). The engine
// reports to `progress` where the block is the whole signal (one block: the stream's own
// progress would jump from 0 to 1), else only looks at its cancel. With `stage`, an engine's own
// failure is thrown as BlockEngineFailed naming that stage.
PlacedBlockFilter verifiedBlockFilter(FilterBackend& engine, const Job& job, ApplyResult& result, std::size_t& blocks,
                                      const Progress& progress, std::optional<std::size_t> stage = std::nullopt);

}  // namespace siglab::detail
