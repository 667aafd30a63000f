# External dependencies beyond LLVM/MLIR. All come from Debian packages that
# tools/xpu-dev installs (see docs/Building.md).

# SPIRV-Tools: the validator that screens SPIR-V before it reaches IGC.
find_package(SPIRV-Tools REQUIRED CONFIG)

# libocloc (intel-opencl-icd): IGC's offline compiler API. Only the header is
# needed at build time; the worker loads the library at run time so that a
# missing or broken runtime is a diagnostic, not a link failure.
find_path(OCLOC_INCLUDE_DIR ocloc_api.h REQUIRED)

# Level Zero loader (libze1, libze-dev): the worker's Level Zero backend links
# it; the offline Level Zero driver only needs its headers.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LEVEL_ZERO REQUIRED level-zero)

# hiredis (libhiredis-dev): the client of the shared cache tier
# (`cache-url=redis://...`, lib/Compiler/Cache/RedisClient.cpp). Required, so
# that every build (and CI) has and tests the tier; 0.14 (Debian 12) and 1.x
# both work.
pkg_check_modules(HIREDIS REQUIRED hiredis>=0.14)

# OpenSSL 3 (libssl-dev): TLS to the shared tier (`rediss://`, under our own
# socket I/O, since Debian 12's hiredis has none) and Ed25519 signatures of
# its entries (lib/Compiler/Cache/RedisTLS.cpp, EntrySigning.cpp).
find_package(OpenSSL 3.0 REQUIRED)

if (XPU_ENABLE_TESTS)
  find_package(GTest REQUIRED)
  # lit: Debian ships it as <llvm>/bin/lit (llvm-22-tools), not llvm-lit.
  if (NOT LLVM_EXTERNAL_LIT OR NOT EXISTS "${LLVM_EXTERNAL_LIT}")
    unset(LLVM_EXTERNAL_LIT CACHE)
    find_program(LLVM_EXTERNAL_LIT NAMES lit llvm-lit
      HINTS ${LLVM_TOOLS_BINARY_DIR}
      DOC "The lit test runner")
  endif()
  if (NOT LLVM_EXTERNAL_LIT)
    message(FATAL_ERROR "lit not found (Debian: llvm-22-tools installs "
      "${LLVM_TOOLS_BINARY_DIR}/lit); set LLVM_EXTERNAL_LIT or "
      "-DXPU_ENABLE_TESTS=OFF")
  endif()
  message(STATUS "XPUCodegen: lit: ${LLVM_EXTERNAL_LIT}")
endif()

if (XPU_ENABLE_PYTHON OR XPU_ENABLE_TESTS)
  include(XPUCodegenPython)
endif()
