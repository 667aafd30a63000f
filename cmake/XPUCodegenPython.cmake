# Chooses the Python 3 interpreter that the xpu_codegen package is built for
# and that the tests run with (lit's %python, pytest). One interpreter for
# both: an extension built for one Python cannot be tested with another.
#
# -DPython3_EXECUTABLE=... decides. Otherwise the candidates are the python3
# first on PATH, then the system's /usr/bin/python3, and the first that has
# what this configuration needs wins: Python headers and pybind11 for the
# package, pytest for its tests. (A pyenv or venv python3 on PATH often has
# neither pytest nor pybind11; Debian's has both from python3-pytest and
# pybind11-dev.)

# Prints what `python` lacks for this configuration into `out` (empty: nothing).
function(_xpu_python_lacks python out)
  set(lacks)
  if (XPU_ENABLE_PYTHON)
    execute_process(
      COMMAND "${python}" -c
        "import os, sysconfig; p = sysconfig.get_paths()['include']; assert os.path.exists(os.path.join(p, 'Python.h'))"
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if (NOT rc EQUAL 0)
      list(APPEND lacks "Python headers")
    endif()
    # pybind11: its Python module, or a pybind11 CMake package (Debian's
    # pybind11-dev) that works with any interpreter.
    execute_process(COMMAND "${python}" -c "import pybind11"
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if (NOT rc EQUAL 0 AND NOT XPU_PYBIND11_CONFIG)
      list(APPEND lacks "pybind11")
    endif()
  endif()
  if (XPU_ENABLE_TESTS AND XPU_ENABLE_PYTHON)
    execute_process(COMMAND "${python}" -c "import pytest"
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if (NOT rc EQUAL 0)
      list(APPEND lacks "pytest")
    endif()
  endif()
  list(JOIN lacks ", " lacks)
  set(${out} "${lacks}" PARENT_SCOPE)
endfunction()

if (XPU_ENABLE_PYTHON)
  find_file(XPU_PYBIND11_CONFIG pybind11Config.cmake
    PATH_SUFFIXES lib/cmake/pybind11 share/cmake/pybind11
    DOC "pybind11's CMake package (pybind11-dev)")
  mark_as_advanced(XPU_PYBIND11_CONFIG)
endif()

set(_xpu_python_why "")
if (Python3_EXECUTABLE AND Python3_EXECUTABLE STREQUAL XPU_PYTHON_CHOSEN)
  # Chosen by an earlier configure of this build directory.
  set(_xpu_python_why "${XPU_PYTHON_CHOSEN_WHY}")
elseif (Python3_EXECUTABLE)
  set(_xpu_python_why "given by Python3_EXECUTABLE")
else()
  find_program(XPU_PATH_PYTHON3 python3 DOC "python3 first on PATH")
  mark_as_advanced(XPU_PATH_PYTHON3)
  set(_xpu_candidates)
  foreach (candidate ${XPU_PATH_PYTHON3} /usr/bin/python3)
    if (EXISTS "${candidate}" AND NOT candidate IN_LIST _xpu_candidates)
      list(APPEND _xpu_candidates "${candidate}")
    endif()
  endforeach()
  set(_xpu_chosen)
  set(_xpu_skipped)
  foreach (candidate ${_xpu_candidates})
    _xpu_python_lacks("${candidate}" lacks)
    if (lacks STREQUAL "")
      set(_xpu_chosen "${candidate}")
      break()
    endif()
    list(APPEND _xpu_skipped "${candidate} lacks ${lacks}")
  endforeach()
  if (_xpu_chosen)
    if (_xpu_skipped)
      list(JOIN _xpu_skipped "; " _xpu_python_why)
      set(_xpu_python_why "chosen because ${_xpu_python_why}")
    elseif (_xpu_chosen STREQUAL XPU_PATH_PYTHON3)
      set(_xpu_python_why "python3 on PATH")
    endif()
  elseif (_xpu_candidates)
    # None has everything: keep the first; what is missing is reported below.
    list(GET _xpu_candidates 0 _xpu_chosen)
  endif()
  if (_xpu_chosen)
    set(Python3_EXECUTABLE "${_xpu_chosen}" CACHE FILEPATH
        "Python 3 for the xpu_codegen package and the tests")
    set(XPU_PYTHON_CHOSEN "${_xpu_chosen}" CACHE INTERNAL "")
    set(XPU_PYTHON_CHOSEN_WHY "${_xpu_python_why}" CACHE INTERNAL "")
  endif()
endif()

if (XPU_ENABLE_PYTHON)
  find_package(Python3 REQUIRED COMPONENTS Interpreter Development.Module)
else()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()
message(STATUS "XPUCodegen: Python for the package and the tests: "
  "${Python3_EXECUTABLE} (${Python3_VERSION})")
if (_xpu_python_why)
  message(STATUS "XPUCodegen:   (${_xpu_python_why})")
endif()
_xpu_python_lacks("${Python3_EXECUTABLE}" _xpu_lacks)
if (_xpu_lacks)
  message(WARNING "${Python3_EXECUTABLE} lacks ${_xpu_lacks}: install them "
    "for that interpreter (Debian: python3-dev, pybind11-dev, python3-pytest), "
    "choose another with -DPython3_EXECUTABLE=..., or leave the parts out with "
    "-DXPU_ENABLE_PYTHON=OFF / -DXPU_ENABLE_TESTS=OFF")
endif()

if (XPU_ENABLE_PYTHON)
  find_package(pybind11 CONFIG)
  if (NOT pybind11_FOUND)
    message(FATAL_ERROR "pybind11 not found (Debian: pybind11-dev): install "
      "it or configure with -DXPU_ENABLE_PYTHON=OFF")
  endif()
endif()

# Where the package is installed, relative to the prefix: where the chosen
# interpreter looks. Debian's python3 reads <prefix>/lib/python3/dist-packages
# for /usr (and any prefix named on PYTHONPATH) and
# /usr/local/lib/python3.X/dist-packages; other interpreters read
# <prefix>/lib/python3.X/site-packages.
if (XPU_ENABLE_PYTHON AND NOT XPU_PYTHON_INSTALL_DIR)
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" -c
      "import sys; print(int('/usr/lib/python3/dist-packages' in sys.path))"
    OUTPUT_VARIABLE _xpu_debian_python OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(_xpu_py "python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
  if (_xpu_debian_python AND CMAKE_INSTALL_PREFIX STREQUAL "/usr/local")
    set(_xpu_python_dir "lib/${_xpu_py}/dist-packages")
  elseif (_xpu_debian_python)
    set(_xpu_python_dir "lib/python3/dist-packages")
  else()
    set(_xpu_python_dir "lib/${_xpu_py}/site-packages")
  endif()
  set(XPU_PYTHON_INSTALL_DIR "${_xpu_python_dir}" CACHE STRING
      "Where the xpu_codegen package is installed (relative to the prefix)")
endif()
if (XPU_ENABLE_PYTHON)
  message(STATUS "XPUCodegen: Python package installs into "
    "<prefix>/${XPU_PYTHON_INSTALL_DIR}")
endif()
