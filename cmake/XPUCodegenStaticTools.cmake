# XPU_LINK_STATIC_LLVM: link the programs (xpu-opt, xpu-spirv-emitter,
# xpu-compile-worker) against LLVM's and MLIR's static libraries instead of
# libLLVM.so and libMLIR.so.
#
# Why: the dynamic loader's symbol lookups for those two libraries take
# about 28 ms of every xpu-opt start and 17 ms of every emitter and worker
# start (Debian's LLVM 22, measured with `perf stat` on a program that only
# links them), which is a third of a warm pipeline run. A statically linked
# program starts in about 1 ms. The libraries, the plugin and the Python
# extension still link libMLIR.so: they share registries with the process
# that loads them (mlir-opt, Python).
#
# The libraries' objects are the same either way; only the link line of the
# three programs changes: the project's archives and every libMLIR*.a and
# libLLVM*.a of the installation in one archive group (the linker takes from
# them only what is referenced), then the other libraries they need.

set(_xpu_static_default OFF)
if (EXISTS "${LLVM_LIBRARY_DIR}/libLLVMSupport.a" AND
    EXISTS "${LLVM_LIBRARY_DIR}/libMLIRIR.a")
  set(_xpu_static_default ON)
endif()
option(XPU_LINK_STATIC_LLVM
  "Link xpu-opt and its worker programs against LLVM's and MLIR's static libraries (faster process start); ON when they are installed"
  ${_xpu_static_default})
if (XPU_LINK_STATIC_LLVM)
  message(STATUS "XPUCodegen: xpu-opt and its worker programs link LLVM's and "
                 "MLIR's static libraries (XPU_LINK_STATIC_LLVM)")
endif()

# True for the libraries the static archives replace: LLVM's and MLIR's
# imported targets and the paths of their shared libraries.
function(_xpu_is_llvm_library item out)
  set(result OFF)
  if (TARGET ${item})
    get_target_property(imported ${item} IMPORTED)
    if (imported AND item MATCHES "^(LLVM|MLIR)")
      set(result ON)
    endif()
  elseif (item MATCHES "/lib(LLVM|MLIR)[^/]*\\.so")
    set(result ON)
  endif()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Replaces `tool`'s link libraries: the project's archives it uses
# (transitively) and LLVM's and MLIR's static archives in one group, then
# every other library those archives name. STATIC_CXX_RUNTIME links the C++
# runtime statically too (3 ms of xpu-opt's start are libstdc++'s symbol
# lookups); not for a program that loads a compiler built against its own
# libstdc++.so (xpu-compile-worker loads IGC).
function(xpu_link_static_llvm tool)
  cmake_parse_arguments(ARG "STATIC_CXX_RUNTIME" "" "" ${ARGN})
  get_target_property(pending ${tool} LINK_LIBRARIES)
  set(seen)
  set(archives)
  set(external)
  set(usesMLIR OFF)
  while (pending)
    list(POP_FRONT pending item)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if (item STREQUAL "" OR item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${item}")
    _xpu_is_llvm_library("${item}" isLLVM)
    if (isLLVM)
      if (item MATCHES "MLIR")
        set(usesMLIR ON)
      endif()
      continue()
    endif()
    if (TARGET ${item})
      get_target_property(imported ${item} IMPORTED)
      get_target_property(type ${item} TYPE)
      if (NOT imported AND type STREQUAL "STATIC_LIBRARY")
        list(APPEND archives "$<TARGET_FILE:${item}>")
        add_dependencies(${tool} ${item})
        get_target_property(deps ${item} INTERFACE_LINK_LIBRARIES)
        if (deps)
          list(APPEND pending ${deps})
        endif()
        continue()
      endif()
    endif()
    list(APPEND external "${item}")
  endwhile()

  file(GLOB llvmArchives "${LLVM_LIBRARY_DIR}/libLLVM*.a")
  set(mlirArchives)
  if (usesMLIR)
    file(GLOB mlirArchives "${LLVM_LIBRARY_DIR}/libMLIR*.a")
  endif()
  # What LLVM's static Support library needs from the system (its imported
  # target names them); --as-needed drops the ones nothing references.
  get_target_property(supportDeps LLVMSupport INTERFACE_LINK_LIBRARIES)
  list(FILTER supportDeps EXCLUDE REGEX "^LLVM")
  if ("zstd::libzstd_shared" IN_LIST supportDeps AND
      NOT TARGET zstd::libzstd_shared)
    # LLVMConfig names zstd's CMake target without finding it; the runtime
    # library is enough (Debian 12 has no libzstd.so without libzstd-dev).
    find_library(XPU_ZSTD_LIBRARY NAMES zstd libzstd.so.1 REQUIRED)
    list(TRANSFORM supportDeps REPLACE "^zstd::libzstd_shared$"
      "${XPU_ZSTD_LIBRARY}")
  endif()
  set_target_properties(${tool} PROPERTIES LINK_LIBRARIES
    "-Wl,--start-group;${archives};${mlirArchives};${llvmArchives};-Wl,--end-group;${external};${supportDeps};pthread")
  # Position-dependent: a 245 MB PIE spends 4-5 ms of every start applying
  # its relative relocations (and copying the pages they touch). Debian
  # builds python3 and gcc without PIE for the same reason.
  target_link_options(${tool} PRIVATE "-Wl,--as-needed" "-no-pie")
  if (ARG_STATIC_CXX_RUNTIME)
    target_link_options(${tool} PRIVATE "-static-libstdc++" "-static-libgcc")
  endif()
endfunction()
