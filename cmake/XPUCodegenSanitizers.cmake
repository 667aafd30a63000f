# Host-safety builds (tools/ci-sanitize):
#   XPU_ENABLE_SANITIZERS  AddressSanitizer + UndefinedBehaviorSanitizer on
#                          everything this project compiles (GCC or clang).
#   XPU_ENABLE_FUZZERS     the libFuzzer targets of test/Fuzz (clang only),
#                          with the project's code instrumented for them.
option(XPU_ENABLE_SANITIZERS
  "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(XPU_ENABLE_FUZZERS "Build the libFuzzer targets in test/Fuzz (clang)"
  OFF)

if(XPU_ENABLE_SANITIZERS)
  # -O1 keeps the sanitized build fast to compile and its reports readable;
  # any UB aborts the test that hits it.
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=undefined -O1)
  add_link_options(-fsanitize=address,undefined)
endif()

if(XPU_ENABLE_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "XPU_ENABLE_FUZZERS needs clang (e.g. "
      "-DCMAKE_CXX_COMPILER=clang++-22), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
