#pragma once
// The stage every filter kind binds to: a FilterSpec run by today's engines (applyJob), described,
// verified and answered for as they do it. mean, gaussian, taps, median, savgol and butter bind to
// one of these; a front-end that already holds a spec (a session, Python) makes one directly.
#include <memory>
#include <optional>
#include <string>

#include "siglab/job.hpp"
#include "siglab/stage.hpp"

namespace siglab {

// `note`: what binding did to the spec (taps dropped), for people. `sampleRate`: the signal's, so
// the response's frequencies are in Hz.
std::unique_ptr<BoundStage> makeFilterStage(FilterSpec spec, std::string note = {},
                                            std::optional<double> sampleRate = std::nullopt);

// The job a stage's run of `spec` is: the engine, sample type and checks its options ask for.
Job jobOfStage(const FilterSpec& spec, const StageRunOptions& options);

}  // namespace siglab
