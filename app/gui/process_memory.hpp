#pragma once

namespace siglab::gui {

// Blocks of 1 MiB and more go back to the system when freed. glibc's default raises that threshold
// to the largest block freed so far, and then every thread's arena (the index's, the statistics',
// OpenMP's) keeps tens of MiB of freed blocks resident: the desktop of a file larger than memory
// must not hold them. Call once, first thing in main.
void returnLargeBlocksToTheSystem();

}  // namespace siglab::gui
