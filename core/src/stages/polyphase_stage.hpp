#pragma once
// The bound stage of every FIR rate change (upfirdn, resample_poly, decimate with ftype fir): a
// Polyphase filter run on its engines, verified against the serial formula, streamed as a
// PolyphaseStream. Its engines are a list (rateEngines): a new engine is one entry there.
#include <memory>
#include <string>

#include "../rate_streams.hpp"
#include "siglab/polyphase.hpp"
#include "siglab/stage.hpp"

namespace siglab::stages {

// The engines of a rate-changing stage, in the order auto tries them: each output computed by
// Polyphase::outputAt, so every engine gives cpu-serial's bits.
struct RateEngine {
  std::string_view name;
  bool parallel;
};
inline constexpr RateEngine kRateEngines[] = {{"cpu-parallel", true}, {"cpu-serial", false}};

// The engine `name` ("auto": the first), or StageError naming `kind` and the ones it runs on.
const RateEngine& rateEngine(const std::string& name, std::string_view kind);
std::vector<std::string> rateEngineNames();

// `outputs`: the stage's output count for n inputs; `rate`: {up, down} as the rate changes.
std::unique_ptr<BoundStage> makePolyphaseStage(Polyphase fir, detail::OutputCount outputs,
                                               std::pair<std::size_t, std::size_t> rate, std::string description);

}  // namespace siglab::stages
