# External dependencies beyond LLVM/MLIR. All come from Debian packages that
# tools/xpu-dev installs (see README.md).

# SPIRV-Tools: the validator that screens SPIR-V before it reaches IGC.
find_package(SPIRV-Tools REQUIRED CONFIG)

# libocloc (intel-opencl-icd): IGC's offline compiler API. Only the header is
# needed at build time; the worker loads the library at run time so that a
# missing or broken runtime is a diagnostic, not a link failure.
find_path(OCLOC_INCLUDE_DIR ocloc_api.h REQUIRED)

find_package(GTest REQUIRED)

# Level Zero loader (libze1, libze-dev): the worker's Level Zero backend links
# it; the offline Level Zero driver only needs its headers.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LEVEL_ZERO REQUIRED level-zero)
