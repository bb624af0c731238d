# NCCL for GPU groups (device_group::cuda, cuda_process). Looked for, in order: PARPRIM_NCCL_ROOT,
# the CUDA toolkit's own directories, the nvidia-nccl-cu13 (or -cu12) Python package
# (`python3 -c "import nvidia.nccl"`), and the system paths. Without NCCL, GPU groups are off
# and say so at run time; CPU groups (the in-process communicator) always build.
# Included after src/ so that it can add the NCCL communicator to the parprim target.
set(PARPRIM_NCCL "AUTO" CACHE STRING "Build GPU groups with NCCL: AUTO, ON or OFF")
set_property(CACHE PARPRIM_NCCL PROPERTY STRINGS AUTO ON OFF)

set(PARPRIM_HAVE_NCCL 0)
set(PARPRIM_NCCL_STATUS "off (needs the CUDA backend)")
if(PARPRIM_HAVE_CUDA AND NOT PARPRIM_NCCL STREQUAL "OFF")
  set(_parprim_nccl_hints "")
  if(PARPRIM_NCCL_ROOT)
    list(APPEND _parprim_nccl_hints "${PARPRIM_NCCL_ROOT}")
  endif()
  list(APPEND _parprim_nccl_hints "${CUDAToolkit_LIBRARY_ROOT}" "${CUDAToolkit_TARGET_DIR}")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(
      COMMAND "${Python3_EXECUTABLE}" -c
              "import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))"
      OUTPUT_VARIABLE _parprim_nccl_py OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE _parprim_nccl_py_rc ERROR_QUIET)
    if(_parprim_nccl_py_rc EQUAL 0 AND _parprim_nccl_py)
      list(APPEND _parprim_nccl_hints "${_parprim_nccl_py}")
    endif()
  endif()
  find_path(PARPRIM_NCCL_INCLUDE_DIR nccl.h HINTS ${_parprim_nccl_hints} PATH_SUFFIXES include)
  find_library(PARPRIM_NCCL_LIBRARY NAMES nccl libnccl.so.2
               HINTS ${_parprim_nccl_hints} PATH_SUFFIXES lib lib64)
  if(PARPRIM_NCCL_INCLUDE_DIR AND PARPRIM_NCCL_LIBRARY)
    set(PARPRIM_HAVE_NCCL 1)
    set(PARPRIM_NCCL_STATUS "on (${PARPRIM_NCCL_LIBRARY})")
    target_sources(parprim PRIVATE "${PROJECT_SOURCE_DIR}/src/cuda/nccl_comm.cpp")
    target_include_directories(parprim PRIVATE "${PARPRIM_NCCL_INCLUDE_DIR}")
    target_link_libraries(parprim PUBLIC "${PARPRIM_NCCL_LIBRARY}")
  elseif(PARPRIM_NCCL STREQUAL "ON")
    message(FATAL_ERROR "PARPRIM_NCCL=ON but nccl.h or libnccl was not found (set PARPRIM_NCCL_ROOT)")
  else()
    set(PARPRIM_NCCL_STATUS "off (NCCL not found): GPU groups unavailable, CPU groups built")
  endif()
endif()
target_compile_definitions(parprim PRIVATE PARPRIM_HAVE_NCCL=${PARPRIM_HAVE_NCCL})
message(STATUS "parprim: NCCL ${PARPRIM_NCCL_STATUS}")
