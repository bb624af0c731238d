# `cmake --install`: public headers, libparprim, the parprim program, a relocatable CMake
# package (find_package(parprim CONFIG) -> parprim::parprim) and parprim.pc for pkg-config.
include(CMakePackageConfigHelpers)
set(PARPRIM_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/parprim")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/parprim" "${PARPRIM_GENERATED_INCLUDE}/parprim"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")
install(TARGETS parprim EXPORT parprimTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
if(TARGET parprim_cli)
  install(TARGETS parprim_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()
install(EXPORT parprimTargets NAMESPACE parprim:: DESTINATION "${PARPRIM_CMAKE_DIR}")

configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/parprimConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/parprimConfig.cmake" INSTALL_DESTINATION "${PARPRIM_CMAKE_DIR}")
# 0.x releases may change the API between minor versions.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/parprimConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/parprimConfig.cmake"
              "${PROJECT_BINARY_DIR}/parprimConfigVersion.cmake"
        DESTINATION "${PARPRIM_CMAKE_DIR}")

# pkg-config: the library is static, so its link dependencies go in Libs. Paths are relative
# to the .pc file's own place (${pcfiledir}), which keeps the installed tree relocatable.
set(PARPRIM_PC_LIBS "-lparprim ${OpenMP_CXX_FLAGS} -lpthread")
set(PARPRIM_PC_CFLAGS "${OpenMP_CXX_FLAGS}")
if(PARPRIM_HAVE_CUDA)
  string(APPEND PARPRIM_PC_LIBS
         " -L${CUDAToolkit_LIBRARY_DIR} -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR} -lcudart")
endif()
file(RELATIVE_PATH PARPRIM_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
if(PARPRIM_HAVE_NCCL)
  # By full path: the nvidia-nccl package ships only the versioned libnccl.so.2.
  get_filename_component(PARPRIM_NCCL_LIBRARY_DIR "${PARPRIM_NCCL_LIBRARY}" DIRECTORY)
  string(APPEND PARPRIM_PC_LIBS " ${PARPRIM_NCCL_LIBRARY} -Wl,-rpath,${PARPRIM_NCCL_LIBRARY_DIR}")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/parprim.pc.in" "${PROJECT_BINARY_DIR}/parprim.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/parprim.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
