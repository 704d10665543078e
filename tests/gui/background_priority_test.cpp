// Work no view waits for (a mapped file's index, a mapped range's statistics) runs on a thread of
// its own at kBackgroundNice, so a zoom step's tiles and points take the cores first; the caller's
// priority is left as it was, and the work's result or failure comes back to it.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "background_priority.hpp"
#include "siglab/progress.hpp"

namespace siglab::gui {
namespace {

int niceOfThisThread() {
  errno = 0;
  return ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
}

TEST(BackgroundPriority, WorkRunsOnAThreadOfItsOwnAtBackgroundNiceAndItsResultComesBack) {
  const int callerNice = niceOfThisThread();
  if (callerNice >= kBackgroundNice) GTEST_SKIP() << "this test already runs at nice " << callerNice;
  const std::thread::id caller = std::this_thread::get_id();
  const auto [nice, elsewhere] = atBackgroundPriority([&] {
    return std::pair(niceOfThisThread(), std::this_thread::get_id() != caller);
  });
  EXPECT_EQ(nice, kBackgroundNice);
  EXPECT_TRUE(elsewhere);
  EXPECT_EQ(niceOfThisThread(), callerNice) << "the caller's priority changed";
}

TEST(BackgroundPriority, WhatTheWorkThrowsIsThrownToTheCallerAsItself) {
  EXPECT_THROW(atBackgroundPriority([]() -> int { throw Cancelled(); }), Cancelled);  // Esc still reads as Esc
}

}  // namespace
}  // namespace siglab::gui
