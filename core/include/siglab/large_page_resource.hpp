#pragma once
// Where a large new result lives: from one large page (2 MiB) up, a LargePageBuffer of its own
// (2 MiB pages, 512 times fewer first-touch faults than 4 KiB ones: a fresh 80 MB result cost
// sosfilt about as much processor time in the kernel as its filtering), smaller ones from
// operator new.
#include <memory_resource>

namespace siglab {

std::pmr::memory_resource& largePageResource();

// The resource for a stage's or a chain's new result: largePageResource(), unless the process has
// chosen its own default (Python's module does), which is then kept.
std::pmr::memory_resource* resultMemory();

}  // namespace siglab
