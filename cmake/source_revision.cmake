# Run at build time (cmake -P), not configure time: writes OUT, a header that says which
# source revision the lab was built from, as `git describe --always --dirty` gives it, or that
# the tree is not a git checkout of its own (a release tarball: one unpacked inside another
# project's repository must not take that repository's revision). OUT is rewritten only when
# its text changes, so an unchanged tree recompiles nothing.
#   cmake -DSOURCE_DIR=... -DOUT=... -P source_revision.cmake
set(revision "unknown (not a git checkout)")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(rc EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty
                            --abbrev=12
                    OUTPUT_VARIABLE described RESULT_VARIABLE rc
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(rc EQUAL 0 AND NOT described STREQUAL "")
      set(revision "git ${described}")
    endif()
  endif()
endif()
set(text "/* Generated at build time by cmake/source_revision.cmake: do not edit. */\n"
         "#define CSUM_LAB_SOURCE_REVISION \"${revision}\"\n")
string(CONCAT text ${text})
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
