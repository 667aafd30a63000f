//===- XPUAttrs.cpp - XPU attributes --------------------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.h"
#include "XPUCodegen/Device/BuildFlags.h"
#include "XPUCodegen/Device/DeviceTable.h"
#include "XPUCodegen/Dialect/XPU/IR/XPUDialect.h"
#include "XPUCodegen/Support/BoundedJSON.h"
#include "XPUCodegen/Support/ReportSchema.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::xpu;

#define GET_ATTRDEF_CLASSES
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.cpp.inc"

FailureOr<GRFMode> mlir::xpu::parseGRFMode(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  uint64_t registers = 0;
  OptionalParseResult number = parser.parseOptionalInteger(registers);
  if (number.has_value()) {
    if (failed(*number))
      return failure();
    if (std::optional<GRFMode> mode = getGRFModeForRegisters(
            registers > UINT32_MAX ? 0 : static_cast<unsigned>(registers)))
      return *mode;
    return parser.emitError(loc)
           << "no register count " << registers
           << " per thread: counts are 32, 64, 96, 128, 160, 192, 256, 512";
  }
  std::string keyword;
  if (failed(parser.parseKeywordOrString(&keyword)))
    return failure();
  if (std::optional<GRFMode> mode = symbolizeGRFMode(keyword))
    return *mode;
  return parser.emitError(loc)
         << "expected a GRF mode (small, large, xlarge, auto, default) or a "
            "register count (32, 64, 96, 128, 160, 192, 256, 512), got '"
         << keyword << "'";
}

void mlir::xpu::printGRFMode(AsmPrinter &printer, GRFMode mode) {
  printer << stringifyGRFMode(mode);
}

void XPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "XPUCodegen/Dialect/XPU/IR/XPUAttrs.cpp.inc"
      >();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef arch, GRFMode grfMode,
                                 std::optional<unsigned> subgroupSize,
                                 StringRef flags) {
  const DeviceInfo *device = lookupDevice(arch);
  if (!device)
    return emitError() << describeUnknownDevice(arch);
  // IGC silently ignores the 256-GRF flag on these devices and would build a
  // 128-register kernel: refuse instead of reporting a mode that is not real.
  if ((grfMode == GRFMode::Large && !device->supportsLargeGRF()) ||
      (grfMode == GRFMode::XLarge && !device->supportsXLargeGRF()))
    return emitError() << describeMissingRegisterCount(
               *device, arch, getGRFModeRegisters(grfMode));
  unsigned registers = getGRFModeRegisters(grfMode);
  if (registers && !device->getThreadsPerEU(registers))
    return emitError() << describeMissingRegisterCount(*device, arch,
                                                       registers);
  if (subgroupSize && *subgroupSize != 0 &&
      !device->supportsSubgroupSize(*subgroupSize))
    return emitError() << describeUnsupportedSubgroupSize(*device, arch,
                                                          *subgroupSize);
  // The mode alone decides the register file and the thread count.
  if (llvm::Error error = checkExtraFlags(flags))
    return emitError() << llvm::toString(std::move(error));
  return success();
}

std::optional<unsigned> TargetAttr::getEffectiveSubgroupSize() const {
  if (std::optional<unsigned> size = getSubgroupSize())
    return *size == 0 ? std::nullopt : size;
  return lookupDevice(getArch())->getDefaultSubgroupSize();
}

LogicalResult SpillAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                GRFMode grfMode, int64_t spillSize,
                                int64_t grfCount, int64_t simd,
                                int64_t privateSize,
                                std::optional<int64_t> threadsPerEU) {
  if (grfMode == GRFMode::Auto)
    return emitError() << "a spill measurement needs the GRF mode the build "
                          "used, not 'auto'";
  if (spillSize < 0)
    return emitError() << "spill_size must be >= 0 bytes, got " << spillSize;
  if (grfCount <= 0 || grfCount > 512)
    return emitError() << "grf_count must be in [1, 512], got " << grfCount;
  // A mode that pins the register file bounds what a binary built in it has
  // (IGC's auto flag may give a kernel fewer).
  if (unsigned registers = getGRFModeRegisters(grfMode);
      registers && grfCount > registers)
    return emitError() << "grf_count " << grfCount << " exceeds the "
                       << registers << " registers of GRF mode '"
                       << stringifyGRFMode(grfMode) << "'";
  if (!llvm::is_contained({1, 8, 16, 32}, simd))
    return emitError() << "simd must be 1, 8, 16 or 32, got " << simd;
  if (privateSize < 0)
    return emitError() << "private_size must be >= 0 bytes, got "
                       << privateSize;
  // The device table's counts: 2 (512 registers) to 10 (Xe3, few registers).
  if (threadsPerEU && (*threadsPerEU <= 0 || *threadsPerEU > 16))
    return emitError() << "threads_per_eu must be in [1, 16], got "
                       << *threadsPerEU;
  return success();
}

LogicalResult PressureAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t liveBytes, int64_t simd,
                                   int64_t smallBudget,
                                   GRFPrediction prediction) {
  if (liveBytes < 0)
    return emitError() << "live_bytes must be >= 0, got " << liveBytes;
  if (!llvm::is_contained({1, 8, 16, 32}, simd))
    return emitError() << "simd must be 1, 8, 16 or 32, got " << simd;
  if (smallBudget <= 0)
    return emitError() << "small_budget must be > 0 bytes per lane, got "
                       << smallBudget;
  return success();
}

LogicalResult FailureAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  FailureStage stage, StringRef message) {
  // The report and the diagnostics give the message: a blank one says
  // nothing about what failed.
  if (message.trim().empty())
    return emitError() << "a module failure needs a message";
  return success();
}

static ReplayedSeverity getReplayedSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return ReplayedSeverity::Note;
  case DiagnosticSeverity::Warning:
    return ReplayedSeverity::Warning;
  case DiagnosticSeverity::Error:
    return ReplayedSeverity::Error;
  case DiagnosticSeverity::Remark:
    return ReplayedSeverity::Remark;
  }
  llvm_unreachable("unknown diagnostic severity");
}

ReplayedDiagnosticAttr ReplayedDiagnosticAttr::get(MLIRContext *context,
                                                   DiagnosticSeverity severity,
                                                   StringRef message,
                                                   StringRef module,
                                                   StringRef kernel) {
  auto nameOrNull = [&](StringRef name) {
    return name.empty() ? StringAttr() : StringAttr::get(context, name);
  };
  return get(context, getReplayedSeverity(severity), message,
             nameOrNull(module), nameOrNull(kernel));
}

DiagnosticSeverity ReplayedDiagnosticAttr::getDiagnosticSeverity() const {
  switch (getSeverity()) {
  case ReplayedSeverity::Note:
    return DiagnosticSeverity::Note;
  case ReplayedSeverity::Warning:
    return DiagnosticSeverity::Warning;
  case ReplayedSeverity::Error:
    return DiagnosticSeverity::Error;
  case ReplayedSeverity::Remark:
    return DiagnosticSeverity::Remark;
  }
  llvm_unreachable("unknown replayed severity");
}

LogicalResult
ModuleCacheHitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           StringRef report, ArrayAttr diagnostics) {
  // The report comes from a cache or a file: bounded before it is parsed,
  // and held to the schema every reader of it relies on.
  llvm::Expected<llvm::json::Value> parsed = parseBoundedJSON(report);
  if (!parsed)
    return emitError() << "report is not JSON: "
                       << llvm::toString(parsed.takeError());
  if (llvm::Error error = checkCachedReport(*parsed))
    return emitError() << "cache hit report: "
                       << llvm::toString(std::move(error));
  for (Attribute diagnostic : diagnostics) {
    auto replayed = dyn_cast<ReplayedDiagnosticAttr>(diagnostic);
    if (!replayed)
      return emitError() << "diagnostics must be #xpu.replayed_diagnostic "
                            "attributes";
    // A module whose build reported an error is never cached.
    if (replayed.getSeverity() == ReplayedSeverity::Error)
      return emitError() << "a cache hit cannot replay an error (the cache "
                            "keeps compiled modules only)";
  }
  return success();
}

llvm::json::Array ModuleCacheHitAttr::getReportEntries() const {
  llvm::Expected<llvm::json::Value> parsed = parseBoundedJSON(getReport());
  if (!parsed || !parsed->getAsArray()) {
    // Unreachable for a verified attribute.
    llvm::consumeError(parsed.takeError());
    return {};
  }
  return std::move(*parsed->getAsArray());
}
