# Third-party dependencies, all from distribution packages (scripts/install-deps.sh).
# PARPRIM_DEPS_PREFIX points at an unpacked copy of those packages for machines where they
# cannot be installed (scripts/fetch-deps-bundle.sh makes one).
set(PARPRIM_DEPS_PREFIX "${PROJECT_SOURCE_DIR}/.deps" CACHE PATH "Unpacked dependency packages")
if(EXISTS "${PARPRIM_DEPS_PREFIX}/usr")
  list(APPEND CMAKE_PREFIX_PATH "${PARPRIM_DEPS_PREFIX}/usr" "${PARPRIM_DEPS_PREFIX}/usr/share")
  list(APPEND CMAKE_LIBRARY_PATH "${PARPRIM_DEPS_PREFIX}/usr/lib/x86_64-linux-gnu")
  list(APPEND CMAKE_INCLUDE_PATH "${PARPRIM_DEPS_PREFIX}/usr/include")
endif()

# The library itself needs only OpenMP (and threads); the rest is looked for only when the
# parts that use it are built, so a library-only configure needs nothing else.
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)

if(PARPRIM_BUILD_APPS)
  find_package(PNG REQUIRED)
  find_package(CLI11 CONFIG QUIET)
  if(NOT TARGET CLI11::CLI11)
    find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
    add_library(CLI11::CLI11 INTERFACE IMPORTED)
    target_include_directories(CLI11::CLI11 INTERFACE "${CLI11_INCLUDE_DIR}")
  endif()
  find_package(nlohmann_json 3 CONFIG QUIET)
  if(NOT TARGET nlohmann_json::nlohmann_json)
    find_path(NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp REQUIRED)
    add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
    target_include_directories(nlohmann_json::nlohmann_json INTERFACE "${NLOHMANN_JSON_INCLUDE_DIR}")
  endif()
endif()

# GoogleTest: the installed package, or built from the googletest source package.
if(PARPRIM_BUILD_TESTS)
  find_package(GTest CONFIG QUIET)
  if(NOT TARGET GTest::gtest_main)
    # The source package's top directory builds both googletest and googlemock.
    find_path(PARPRIM_GTEST_SOURCE CMakeLists.txt
              PATHS "${PARPRIM_DEPS_PREFIX}/usr/src/googletest" /usr/src/googletest NO_DEFAULT_PATH)
    if(NOT PARPRIM_GTEST_SOURCE)
      message(FATAL_ERROR "GoogleTest not found: run scripts/install-deps.sh")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    add_subdirectory("${PARPRIM_GTEST_SOURCE}" "${PROJECT_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)
    add_library(GTest::gtest_main ALIAS gtest_main)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gmock ALIAS gmock)
  endif()
endif()
