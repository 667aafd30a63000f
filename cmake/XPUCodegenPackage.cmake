# What `cmake --install` adds beyond the targets (installed where they are
# declared, cmake/AddXPUCodegen.cmake): the umbrella target, the headers
# (generated ones included) and the CMake package
# <prefix>/lib/cmake/XPUCodegen/XPUCodegenConfig.cmake.

# XPUCodegen::XPUCodegen: everything a tool needs for the dialect, the passes
# and the pipeline (XPUCodegen/InitAllXPU.h).
set(XPU_UMBRELLA_LIBRARIES
  MLIRXPUDialect
  MLIRXPUEnums
  MLIRXPUAnalysis
  MLIRXPUTransforms
  MLIRXPUTarget
  MLIRXPUSPIRVEmitter
  XPUCodegenDriver
  XPUCodegenCache
  XPUCodegenNative
  XPUCodegenWorker
  XPUCodegenDeviceTable
  XPUCodegenSPIRVValidator
)
# A library declared with LLVM's or MLIR's own function by mistake (rather
# than cmake/AddXPUCodegen.cmake's) is exported here all the same.
get_property(XPU_EXPORTS GLOBAL PROPERTY XPU_EXPORTS)
foreach (lib ${XPU_UMBRELLA_LIBRARIES})
  if (NOT lib IN_LIST XPU_EXPORTS)
    xpu_install_target(${lib})
  endif()
endforeach()
add_library(XPUCodegen INTERFACE)
add_library(XPUCodegen::XPUCodegen ALIAS XPUCodegen)
target_link_libraries(XPUCodegen INTERFACE ${XPU_UMBRELLA_LIBRARIES})
target_compile_features(XPUCodegen INTERFACE cxx_std_17)
# A program linking the static libraries finds the package's worker: see
# cmake/RegisterPackageWorker.cpp.
set(XPU_REGISTER_WORKER_SOURCE RegisterPackageWorker.cpp)
target_sources(XPUCodegen INTERFACE
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/cmake/${XPU_REGISTER_WORKER_SOURCE}>"
  "$<INSTALL_INTERFACE:${XPU_INSTALL_CMAKEDIR}/${XPU_REGISTER_WORKER_SOURCE}>")
target_compile_definitions(XPUCodegen INTERFACE
  "$<BUILD_INTERFACE:XPU_CODEGEN_PACKAGE_WORKER=\"$<TARGET_FILE:xpu-compile-worker>\">"
  "$<INSTALL_INTERFACE:XPU_CODEGEN_PACKAGE_WORKER=\"$<INSTALL_PREFIX>/${XPU_INSTALL_BINDIR}/xpu-compile-worker\">")
install(TARGETS XPUCodegen EXPORT XPUCodegenTargets COMPONENT XPUCodegen)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/${XPU_REGISTER_WORKER_SOURCE}
  DESTINATION ${XPU_INSTALL_CMAKEDIR}
  COMPONENT XPUCodegen)

# Headers: the sources' and the generated .inc files.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/XPUCodegen
  DESTINATION ${XPU_INSTALL_INCLUDEDIR}
  COMPONENT XPUCodegen
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/XPUCodegen
  DESTINATION ${XPU_INSTALL_INCLUDEDIR}
  COMPONENT XPUCodegen
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)

# The package.
get_property(XPU_EXPORTS GLOBAL PROPERTY XPU_EXPORTS)
set(XPU_EXPORTED_LIBRARIES)
foreach (target ${XPU_EXPORTS})
  get_target_property(type ${target} TYPE)
  if (type STREQUAL "STATIC_LIBRARY")
    list(APPEND XPU_EXPORTED_LIBRARIES ${target})
  endif()
endforeach()
list(APPEND XPU_EXPORTED_LIBRARIES XPUCodegen)
install(EXPORT XPUCodegenTargets
  NAMESPACE XPUCodegen::
  DESTINATION ${XPU_INSTALL_CMAKEDIR}
  COMPONENT XPUCodegen)
include(CMakePackageConfigHelpers)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/XPUCodegenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/XPUCodegen/XPUCodegenConfig.cmake
  INSTALL_DESTINATION ${XPU_INSTALL_CMAKEDIR}
  PATH_VARS XPU_INSTALL_INCLUDEDIR XPU_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/XPUCodegen/XPUCodegenConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/XPUCodegen/XPUCodegenConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/XPUCodegen/XPUCodegenConfigVersion.cmake
  DESTINATION ${XPU_INSTALL_CMAKEDIR}
  COMPONENT XPUCodegen)
