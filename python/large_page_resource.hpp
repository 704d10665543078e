#pragma once
// Memory for the results SigLab's core makes for Python: from one large page (2 MiB) up, each
// block a LargePageBuffer (2 MiB-aligned, asked for in 2 MiB pages), so a result is handed to
// NumPy as it is, without a copy; smaller blocks from operator new. The module makes it the
// process's default std::pmr resource, which core's result vectors (SampleVector) allocate from.
#include <memory_resource>

namespace siglab::python {

std::pmr::memory_resource& largePageResource();

}  // namespace siglab::python
