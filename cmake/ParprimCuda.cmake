# Decides whether the CUDA backend is built: PARPRIM_CUDA=AUTO (the default for parprim's own
# build; OFF when parprim is a subproject) builds it when an nvcc is found, ON requires it, OFF
# skips it. nvcc need not be on PATH: the toolkit's usual place is tried too.
set(PARPRIM_CUDA "${PARPRIM_CUDA_DEFAULT}" CACHE STRING "Build the CUDA backend: AUTO, ON or OFF")
set_property(CACHE PARPRIM_CUDA PROPERTY STRINGS AUTO ON OFF)

set(PARPRIM_HAVE_CUDA 0)
set(PARPRIM_CUDA_STATUS "off (PARPRIM_CUDA=OFF)")
if(NOT PARPRIM_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    find_program(PARPRIM_NVCC nvcc HINTS /usr/local/cuda/bin ENV CUDA_PATH PATH_SUFFIXES bin)
    if(PARPRIM_NVCC)
      set(CMAKE_CUDA_COMPILER "${PARPRIM_NVCC}" CACHE FILEPATH "CUDA compiler")
    endif()
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(PARPRIM_HAVE_CUDA 1)
    set(PARPRIM_CUDA_STATUS "on (${CMAKE_CUDA_COMPILER}, architectures ${CMAKE_CUDA_ARCHITECTURES})")
    # CCCL (CUB, Thrust) and cuBLAS are yardsticks and test oracles only, never used by the
    # library's own algorithms. CUDA 13 keeps CCCL's headers under include/cccl.
    find_package(CCCL CONFIG HINTS "${CUDAToolkit_LIBRARY_DIR}/cmake")
  elseif(PARPRIM_CUDA STREQUAL "ON")
    message(FATAL_ERROR "PARPRIM_CUDA=ON but no CUDA compiler (nvcc) was found")
  else()
    set(PARPRIM_CUDA_STATUS "off (no nvcc found): building the CPU backend only")
  endif()
endif()
