# siglab_test_binaries_settings(): called (deferred) at the end of tests/CMakeLists.txt, so that every
# gtest binary defined there, a new one included, gets the same build settings with nothing to add
# (issue 30: CI on two cores):
# - in a Release build, the tests' own code is compiled at -O1: a test file at -O3 costs 1.3-1.8x
#   the CPU and runs no faster (docs/perf/ci-timing-2026-11-27.txt); the code under test (core,
#   the CLI, the desktop library) stays at -O3.
# - a binary of more than two files gets SIGLAB_TEST_PCH precompiled, and Qt's headers too where it
#   links the desktop library; for one or two files the precompiled header costs more than it saves.
# - with SIGLAB_UNITY (CI), a binary of more than two files is compiled a batch of files at a time,
#   but those of SIGLAB_UNITY_NOT_YET: their files still define the same helper names in their
#   anonymous namespaces (the core tests'; the GUI tests' once gui29b's spectrogram_cursors_test.cpp
#   is merged: mouse(), as cursors_markers_gui_test.cpp: docs/perf/ci-timing-session19.txt).
#   Rename or share them in tests/support, then remove the binary here.
set(SIGLAB_UNITY_NOT_YET siglab-core-tests siglab-gui-tests)
function(siglab_test_binaries_settings)
  get_property(targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(libraries ${target} LINK_LIBRARIES)
    if(NOT type STREQUAL "EXECUTABLE" OR NOT libraries MATCHES "GTest::")
      continue()
    endif()
    target_compile_options(${target} PRIVATE $<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:CXX>>:-O1>)
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.cpp$")
    list(LENGTH sources files)
    if(files GREATER 2)
      set(headers ${SIGLAB_TEST_PCH})
      if(libraries MATCHES "siglab_gui")
        list(APPEND headers ${SIGLAB_QT_PCH})
      endif()
      siglab_precompile(${target} ${headers})
      if(NOT target IN_LIST SIGLAB_UNITY_NOT_YET)
        siglab_unity(${target})
      endif()
    endif()
  endforeach()
endfunction()
