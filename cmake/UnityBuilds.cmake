# siglab_unity(target): with -DSIGLAB_UNITY=ON (CI: .ci/run exports SIGLAB_UNITY=ON, scripts/build.sh
# passes it on), the target's files are compiled a batch at a time, one translation unit per batch,
# so the inline code they all instantiate (CLI11's parser, gtest's assertions, the standard
# containers) is generated and instrumented once a batch instead of once a file (issue 30: CI on two
# cores; docs/perf/ci-timing-session19.txt). Off by default: an edit to one file would rebuild its
# whole batch. A batch puts the files' anonymous namespaces together, so two files of one target may
# not define the same name there; build with -DSIGLAB_UNITY=ON to check a new file.
option(SIGLAB_UNITY "Compile multi-file targets a batch of files at a time (CI)" OFF)
set(SIGLAB_UNITY_BATCH_SIZE 8 CACHE STRING "Files per unity batch (SIGLAB_UNITY)")

# siglab_unity(target [files per batch]): the CLI takes 14, two batches for two cores (its files
# are mostly CLI11's inline code, the part a batch shares).
function(siglab_unity target)
  if(NOT SIGLAB_UNITY)
    return()
  endif()
  set(batch ${SIGLAB_UNITY_BATCH_SIZE})
  if(ARGC GREATER 1)
    set(batch ${ARGV1})
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
endfunction()
