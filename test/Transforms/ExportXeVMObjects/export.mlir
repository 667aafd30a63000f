// RUN: xpu-opt %s --xpu-export-xevm-objects | FileCheck %s
// RUN: xpu-opt %s --xpu-export-xevm-objects=opt-level=3 | FileCheck %s --check-prefix=O3
// RUN: xpu-opt %s --xpu-export-xevm-objects | %mlir_translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// xpu-export-xevm-objects: every #xpu.target object becomes an object of
// upstream's #xevm.target with the same payload and format; chip is the
// arch, cmd-options the build flags the object was built with (else the
// target's flags); the properties keep the decision in builtin attributes
// (grf_mode as its keyword) plus the original target. Other xpu attributes
// go (xpu.* on ops, whose facts the properties hold) or become strings, so
// that Debian's stock mlir-translate reads the module and embeds the binary.
// A module that failed keeps its #xpu.target and its error
// (failed-module.mlir).

// CHECK-LABEL: gpu.binary @native [#gpu.object<#xevm.target<chip = "pvc", flags = {"cmd-options" = ["-cl-intel-256-GRF-per-thread", "-cl-fast-relaxed-math"]}>, properties = {build_flags = "-cl-intel-256-GRF-per-thread -cl-fast-relaxed-math", grf_mode = "large", kernels = {k = {grf_count = 256 : i64}}, n_regs = 256 : i32, pressure = "#xpu.pressure<{{.*}}>", xpu_target = "#xpu.target<arch = \22pvc\22, grf_mode = auto, flags = \22-cl-fast-relaxed-math\22>"}, bin = "\7FELF
// CHECK-NOT:   xpu.grf_mode
// bmg is #xevm.target's default chip, which it does not print.
// CHECK-LABEL: gpu.binary @spirv [#gpu.object<#xevm.target, properties = {xpu_target = "#xpu.target<arch = \22bmg\22, grf_mode = small>"}, "\03\02#\07
// CHECK-LABEL: gpu.binary @upstream [#gpu.object<#xevm.target<chip = "pvc">, "\03\02#\07
// CHECK-LABEL: llvm.func @host
// CHECK-SAME:    {note = "small"}

// O3: #xevm.target<O = 3, chip = "pvc"

// LLVM: @native_binary = internal constant [8 x i8] c"\7FELFabcd", align 8
// LLVM: @spirv_binary = internal constant [4 x i8] c"\03\02#\07", align 8
// LLVM-LABEL: define void @host(
// LLVM: call ptr @mgpuModuleGetFunction(ptr %{{.*}}, ptr @native_k_name)
// LLVM: call void @mgpuLaunchKernel(
// LLVM: call ptr @mgpuModuleLoad(ptr @native_binary, i64 8)

module attributes {gpu.container_module} {
  gpu.binary @native {xpu.grf_mode = #xpu.grf_mode<large>} [#gpu.object<#xpu.target<arch = "pvc", grf_mode = auto, flags = "-cl-fast-relaxed-math">, properties = {build_flags = "-cl-intel-256-GRF-per-thread -cl-fast-relaxed-math", grf_mode = #xpu.grf_mode<large>, kernels = {k = {grf_count = 256 : i64}}, n_regs = 256 : i32, pressure = #xpu.pressure<live_bytes = 100, simd = 16, small_budget = 512, prediction = small>}, bin = "\7FELFabcd">]
  gpu.binary @spirv [#gpu.object<#xpu.target<arch = "bmg", grf_mode = small>, "\03\02\23\07">]
  gpu.binary @upstream [#gpu.object<#xevm.target<chip = "pvc">, "\03\02\23\07">]
  llvm.func @host(%arg0: !llvm.ptr) attributes {note = #xpu.grf_mode<small>} {
    %c1 = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func @native::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%arg0 : !llvm.ptr)
    llvm.return
  }
}
