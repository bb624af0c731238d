# cmake -D SOURCE_DIR=... -D OUTPUT=... -P ParprimGitRevision.cmake
# Writes #define PARPRIM_GIT_REVISION "<git describe>" (or "" outside a git checkout or
# without git) to OUTPUT, touching the file only when the text changes.
set(revision "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=10
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE failed ERROR_QUIET)
  if(failed)
    set(revision "")
  endif()
endif()
set(text "#pragma once\n#define PARPRIM_GIT_REVISION \"${revision}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${text}")
