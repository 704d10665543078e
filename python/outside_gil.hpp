#pragma once
// Long work from Python, run without the GIL and still interruptible: the work runs on another
// thread (one kept from call to call, kept_threads.hpp) while Python's thread waits, looks at Python's signals (Ctrl-C) every 20 ms and hands
// progress reports to a Python callback, in order, on Python's own thread. A KeyboardInterrupt
// or an exception from the callback sets the work's cancel flag; once the work has stopped (core
// work throws Cancelled within a millisecond or so), that Python exception is raised.
#include <pybind11/pybind11.h>

#include <functional>

#include "siglab/pipeline_run.hpp"

namespace siglab::python {

// Runs `work` with an observer whose cancel flag and progress are Python's. `progress`: None or a
// callable progress(phase: str, fraction: float). Rethrows work's own exception.
void runOutsideGil(const std::function<void(const PipelineObserver&)>& work, const pybind11::object& progress);

}  // namespace siglab::python
