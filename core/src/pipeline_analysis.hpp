#pragma once
// runPipeline for a chain that ends in an analysis stage (analysis_stage.hpp).
#include "siglab/analysis_stage.hpp"
#include "siglab/pipeline_run.hpp"

namespace siglab::detail {

PipelineReport runAnalysis(const Pipeline& pipeline, const PipelineSource& source, const PipelineSink& sink,
                           const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer);

}  // namespace siglab::detail
