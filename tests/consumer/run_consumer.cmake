# ctest driver for the consumer projects:
#   cmake -D MODE=install|subdirectory -D PARPRIM_SOURCE_DIR=... -D PARPRIM_BINARY_DIR=...
#         -D WORK_DIR=... -D GENERATOR=... -D CXX_COMPILER=... [-D CXX_LAUNCHER=...]
#         -P run_consumer.cmake
# install:      cmake --install into WORK_DIR/staging, move that tree to WORK_DIR/prefix (the
#               package must be relocatable), then build and run find_package/ against it and
#               the same program through pkg-config.
# subdirectory: build and run subdirectory/, which adds parprim's source tree, with the
#               system prefixes hidden so that no application or test dependency can be found.
cmake_minimum_required(VERSION 3.24)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE failed)
  if(failed)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "failed (${failed}): ${shown}")
  endif()
endfunction()

set(here "${CMAKE_CURRENT_LIST_DIR}")
file(REMOVE_RECURSE "${WORK_DIR}")
set(common_args -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
if(CXX_LAUNCHER)
  list(APPEND common_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER}")
endif()

if(MODE STREQUAL "install")
  run("${CMAKE_COMMAND}" --install "${PARPRIM_BINARY_DIR}" --prefix "${WORK_DIR}/staging")
  file(RENAME "${WORK_DIR}/staging" "${WORK_DIR}/prefix")
  set(prefix "${WORK_DIR}/prefix")
  foreach(installed IN ITEMS include/parprim/parprim.hpp include/parprim/version.hpp
                             lib/cmake/parprim/parprimConfig.cmake
                             lib/cmake/parprim/parprimConfigVersion.cmake lib/pkgconfig/parprim.pc)
    if(NOT EXISTS "${prefix}/${installed}")
      message(FATAL_ERROR "cmake --install did not install ${installed}")
    endif()
  endforeach()

  run("${CMAKE_COMMAND}" -S "${here}/find_package" -B "${WORK_DIR}/find_package" ${common_args}
      "-DCMAKE_PREFIX_PATH=${prefix}")
  run("${CMAKE_COMMAND}" --build "${WORK_DIR}/find_package")
  run("${WORK_DIR}/find_package/consumer")

  find_program(PKG_CONFIG pkg-config REQUIRED)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${prefix}/lib/pkgconfig"
                          "${PKG_CONFIG}" --cflags --libs parprim
                  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "pkg-config does not find the installed parprim.pc")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("${CXX_COMPILER}" -std=c++17 "${here}/consumer.cpp" -o "${WORK_DIR}/pkg_config_consumer" ${flags})
  run("${WORK_DIR}/pkg_config_consumer")
elseif(MODE STREQUAL "subdirectory")
  # Only the compiler's own directories remain searchable: OpenMP and threads come with it.
  set(hidden "/usr;/usr/local;/opt;${PARPRIM_SOURCE_DIR}/.deps/usr")
  run("${CMAKE_COMMAND}" -S "${here}/subdirectory" -B "${WORK_DIR}/subdirectory" ${common_args}
      "-DPARPRIM_SOURCE_DIR=${PARPRIM_SOURCE_DIR}" -DPARPRIM_CUDA=OFF
      "-DCMAKE_IGNORE_PREFIX_PATH=${hidden}")
  run("${CMAKE_COMMAND}" --build "${WORK_DIR}/subdirectory")
  run("${WORK_DIR}/subdirectory/consumer")
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -N --test-dir "${WORK_DIR}/subdirectory"
                  OUTPUT_VARIABLE listed)
  if(NOT listed MATCHES "Total Tests: 0")
    message(FATAL_ERROR "parprim added tests to the consumer's ctest:\n${listed}")
  endif()
else()
  message(FATAL_ERROR "MODE must be install or subdirectory, not '${MODE}'")
endif()
