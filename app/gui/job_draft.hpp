#pragma once
#include <functional>

#include "siglab/filter_spec.hpp"
#include "siglab/job.hpp"

namespace siglab::gui {

// The filter as set, checked on the cheap (ranges, the coefficient work's bound), its spec still to
// build: a Savitzky-Golay's coefficients take up to 0.2 s, so the GUI builds it on a worker thread,
// never the main one. Throws std::invalid_argument as the kind's maker does.
using SpecBuilder = std::function<FilterSpec()>;

// A job as set (input and engines apart), its filter still to build: the task that runs it calls
// build() first, on its worker thread.
struct JobDraft {
  Job job;  // job.spec empty
  SpecBuilder spec;

  Job build() const {
    Job built = job;
    built.spec = spec();
    return built;
  }
};

}  // namespace siglab::gui
