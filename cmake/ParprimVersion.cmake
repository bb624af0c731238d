# parprim/version.hpp from the project version, into the build tree's include directory
# (installed beside the other public headers).
set(PARPRIM_GENERATED_INCLUDE "${PROJECT_BINARY_DIR}/include")
configure_file("${PROJECT_SOURCE_DIR}/include/parprim/version.hpp.in"
               "${PARPRIM_GENERATED_INCLUDE}/parprim/version.hpp" @ONLY)

# The git revision for `parprim --version`, refreshed on every build (a commit does not re-run
# CMake) and rewritten only when it changes, so nothing recompiles needlessly.
set(PARPRIM_GIT_REVISION_HEADER "${PROJECT_BINARY_DIR}/generated/parprim_git_revision.hpp")
add_custom_target(parprim_git_revision
  COMMAND "${CMAKE_COMMAND}" -D "SOURCE_DIR=${PROJECT_SOURCE_DIR}"
          -D "OUTPUT=${PARPRIM_GIT_REVISION_HEADER}"
          -P "${CMAKE_CURRENT_LIST_DIR}/ParprimGitRevision.cmake"
  BYPRODUCTS "${PARPRIM_GIT_REVISION_HEADER}"
  COMMENT "parprim: git revision"
  VERBATIM)
