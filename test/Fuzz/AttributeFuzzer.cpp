//===- AttributeFuzzer.cpp - libFuzzer target for the xpu attributes ------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The dialect's attributes come from files and caches (`#xpu.target` in a
// module, `#xpu.module_cache_hit` replayed from a cache). The input is
// screened as the tools screen MLIR text, parsed as an attribute (its
// parser and verifier) and checked as each of the dialect's discardable
// attributes on a gpu.binary. What the dialect accepts must print to text
// that parses back to the same attribute. The input is also read as a
// cache-hit report (bounded JSON, then the report schema).
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Support/BoundedJSON.h"
#include "XPUCodegen/Support/ReportSchema.h"
#include "XPUCodegen/Support/SourceScreening.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

namespace {
/// One context for every input (a context per input would be all the
/// fuzzer measures); diagnostics are swallowed.
struct Fixture {
  MLIRContext context;
  OwningOpRef<ModuleOp> holder;
  gpu::BinaryOp binary;
  xpu::XPUDialect *dialect;

  Fixture() {
    context.loadDialect<gpu::GPUDialect, xpu::XPUDialect>();
    context.getDiagEngine().registerHandler([](Diagnostic &) {});
    OpBuilder builder(&context);
    holder = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(holder->getBody());
    binary = builder.create<gpu::BinaryOp>(
        builder.getUnknownLoc(), "b", Attribute(),
        builder.getArrayAttr({gpu::ObjectAttr::get(
            &context,
            xpu::TargetAttr::get(&context, "pvc", xpu::GRFMode::Small),
            gpu::CompilationTarget::Binary, builder.getStringAttr("\x07"),
            nullptr, nullptr)}));
    dialect = context.getLoadedDialect<xpu::XPUDialect>();
  }
};

/// The discardable attribute names the dialect verifies.
constexpr llvm::StringLiteral kNames[] = {
    "xpu.grf_mode",   "xpu.device_arch",      "xpu.spill",
    "xpu.pressure",   "xpu.auto_plan",        "xpu.error",
    "xpu.duplicates", "xpu.module_cache_key", "xpu.module_cache_hit",
    "xpu.split_from", "xpu.linked",           "xpu.link_source"};

/// Whether the dialect takes `attr`: its own attribute (the parser
/// verified it), or a value one of its discardable attributes accepts.
bool isAccepted(Fixture &fixture, Attribute attr) {
  if (isa<xpu::XPUDialect>(attr.getDialect()))
    return true;
  for (llvm::StringLiteral name : kNames) {
    NamedAttribute named(StringAttr::get(&fixture.context, name), attr);
    if (succeeded(
            fixture.dialect->verifyOperationAttribute(fixture.binary, named)))
      return true;
  }
  return false;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Fixture fixture;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);

  if (llvm::Expected<llvm::json::Value> report = xpu::parseBoundedJSON(text))
    llvm::consumeError(xpu::checkCachedReport(*report));
  else
    llvm::consumeError(report.takeError());

  // What the tools refuse before parsing is never parsed.
  if (text.contains('\0') || xpu::screenSource(text))
    return 0;
  Attribute attr = parseAttribute(text, &fixture.context);
  if (!attr || !isAccepted(fixture, attr))
    return 0;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  attr.print(os);
  if (parseAttribute(printed, &fixture.context) != attr)
    __builtin_trap(); // Accepted, but its printed form is not the same.
  return 0;
}
