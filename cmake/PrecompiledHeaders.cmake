# siglab_precompile(target header...): the heavy third-party and standard headers that most of a
# target's files include (gtest, Qt and QCustomPlot, CLI11), parsed once per target
# instead of once per file: issue 30, CI on two cores. A new file of the target gets them too, with
# nothing to list. Only headers from outside the project: a change to the project's own headers never
# rebuilds a precompiled header. -DSIGLAB_PCH=OFF builds without, e.g. to check that each file
# includes what it uses.
option(SIGLAB_PCH "Precompile each target's heavy third-party headers" ON)

function(siglab_precompile target)
  if(NOT SIGLAB_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE ${ARGN})
  if(SIGLAB_CCACHE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # ccache caches a file compiled with a precompiled header only with GCC's -fpch-preprocess
    # (and the sloppiness set beside the launcher in CMakeLists.txt).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fpch-preprocess>)
  endif()
endfunction()

# The standard headers that most test files include besides gtest (tests/support/test_support.hpp's).
set(SIGLAB_TEST_PCH <gtest/gtest.h> <algorithm> <cmath> <cstdint> <filesystem> <fstream> <limits> <random>
                    <sstream> <string> <vector>)
# Qt Widgets, Print Support (QCustomPlot includes both whole) and Concurrent: the desktop's files.
set(SIGLAB_QT_PCH <qcustomplot.h> <QtConcurrent>)
