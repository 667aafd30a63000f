# How this project declares its libraries and tools, so that each one is
# installed and exported as XPUCodegen::<name> by one export set
# (XPUCodegenTargets, written by cmake/XPUCodegenPackage.cmake). LLVM's and
# MLIR's functions would install them into LLVM's and MLIR's export sets
# instead; like CIRCT, we wrap them with their own installation turned off.

# Install layout (relative to the prefix; docs/Building.md lists it).
set(XPU_INSTALL_BINDIR bin)
set(XPU_INSTALL_LIBDIR lib${LLVM_LIBDIR_SUFFIX})
set(XPU_INSTALL_INCLUDEDIR include)
set(XPU_INSTALL_CMAKEDIR ${XPU_INSTALL_LIBDIR}/cmake/XPUCodegen)

# Installed programs find libMLIR.so where this build found it; $ORIGIN/../lib
# first, for the libraries installed beside them.
if (NOT CMAKE_INSTALL_RPATH)
  set(CMAKE_INSTALL_RPATH "\$ORIGIN/../${XPU_INSTALL_LIBDIR}" "${LLVM_LIBRARY_DIR}")
endif()

# Installs `name` into the export set and names it XPUCodegen::<name> in this
# build too (for projects that embed this one with add_subdirectory).
function(xpu_install_target name)
  get_target_property(type ${name} TYPE)
  install(TARGETS ${name}
    EXPORT XPUCodegenTargets
    COMPONENT XPUCodegen
    LIBRARY DESTINATION ${XPU_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${XPU_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${XPU_INSTALL_BINDIR})
  if (type STREQUAL "EXECUTABLE")
    add_executable(XPUCodegen::${name} ALIAS ${name})
  else()
    add_library(XPUCodegen::${name} ALIAS ${name})
    # Headers: the source and build trees (with LLVM's and MLIR's, which
    # their imported targets do not carry) for a project embedding this one;
    # <prefix>/include installed (XPUCodegenConfig.cmake adds LLVM's and
    # MLIR's after it finds MLIR).
    if (NOT type STREQUAL "MODULE_LIBRARY")
      target_include_directories(${name} INTERFACE
        $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
        $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
        $<INSTALL_INTERFACE:${XPU_INSTALL_INCLUDEDIR}>)
      foreach (dir ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
        target_include_directories(${name} INTERFACE
          $<BUILD_INTERFACE:${dir}>)
      endforeach()
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY XPU_EXPORTS ${name})
endfunction()

# A library without MLIR: add_llvm_library's arguments (SHARED, MODULE,
# LINK_COMPONENTS, LINK_LIBS, ADDITIONAL_HEADER_DIRS, ...).
function(add_xpu_library name)
  cmake_parse_arguments(ARG "SHARED;MODULE" "" "" ${ARGN})
  set(type)
  if (ARG_MODULE)
    set(type MODULE)
  elseif (ARG_SHARED)
    set(type SHARED)
  endif()
  llvm_add_library(${name} ${type} ${ARG_UNPARSED_ARGUMENTS})
  xpu_install_target(${name})
endfunction()

# An MLIR library: add_mlir_library's arguments.
function(add_xpu_mlir_library name)
  add_mlir_library(${name} ${ARGN} DISABLE_INSTALL)
  xpu_install_target(${name})
endfunction()

# An MLIR dialect library: add_mlir_dialect_library's arguments.
function(add_xpu_dialect_library name)
  add_mlir_dialect_library(${name} ${ARGN} DISABLE_INSTALL)
  xpu_install_target(${name})
endfunction()

# An installed tool: add_llvm_executable's arguments.
function(add_xpu_tool name)
  add_llvm_executable(${name} ${ARGN})
  llvm_update_compile_flags(${name})
  xpu_install_target(${name})
endfunction()
