#pragma once
#include <memory>
#include <stdexcept>
#include <string>

#include "siglab/job.hpp"
#include "siglab/stage.hpp"

namespace siglab::gui {

// A job as set (input and engines apart): the form's stage, checked but not bound. Binding may
// take a while (a Savitzky-Golay's coefficients, up to 0.2 s; a taps file read), so the task that
// runs it binds it first, on its worker thread, never the main one.
struct JobDraft {
  Job job;  // job.spec empty
  Stage stage;
  StageContext context;  // the signal it runs on

  std::unique_ptr<BoundStage> bind() const { return stage.kind->bind(stage.values, context); }
  // The job with its filter: Compare measures the engines of a stage that is a filter.
  Job build() const {
    const std::unique_ptr<BoundStage> bound = bind();
    if (!bound->filterSpec()) throw StageError(std::string(stage.kind->name()) + " is no filter the engines compare");
    Job built = job;
    built.spec = *bound->filterSpec();
    return built;
  }
};

}  // namespace siglab::gui
