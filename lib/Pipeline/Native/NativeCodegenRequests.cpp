//===- NativeCodegenRequests.cpp - Objects to compile requests ------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The first step of xpu-native-codegen: every SPIR-V (or #xevm.target)
// object of the module becomes a compile request with its report slots in
// IR order; a module that failed earlier, or a payload that is neither
// SPIR-V nor a native binary of this pass, becomes a failure entry. Linked
// modules keep a way to emit each part alone.
//
//===----------------------------------------------------------------------===//

#include "NativeCodegenRun.h"

#include "XPUCodegen/Compiler/SPIRV/SPIRVValidator.h"
#include "XPUCodegen/Dialect/XPU/IR/SubgroupSize.h"
#include "XPUCodegen/Pipeline/Link/LinkedParts.h"
#include "XPUCodegen/Pipeline/ModuleFailures.h"
#include "XPUCodegen/Pipeline/PassWork.h"
#include "XPUCodegen/Support/ResultFields.h"
#include "XPUCodegen/Target/GPUTarget/NativeObject.h"
#include "XPUCodegen/Target/SPIRV/SPIRVEmitter.h"

#include "mlir/Dialect/LLVMIR/XeVMDialect.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::xpu;
using namespace mlir::xpu::detail;

/// Whether `bytes` look like a zebin: an ELF image for Intel GPUs
/// (EM_INTELGT), so a non-SPIR-V payload is never taken as native blindly.
static bool isZebin(ArrayRef<char> bytes) {
  constexpr uint16_t kMachineIntelGT = 205;
  if (bytes.size() < 20 || StringRef(bytes.data(), 4) != "\x7f"
                                                         "ELF")
    return false;
  return llvm::support::endian::read16le(bytes.data() + 18) == kMachineIntelGT;
}

/// The report slots of `binary` (or of part `part` of it, described by
/// `record`) and of the modules xpu-dedupe-modules folded into it
/// (`xpu.duplicates` on the binary, or `duplicates` in the part's record).
static void addReportSlots(gpu::BinaryOp binary, DictionaryAttr record,
                           size_t request, size_t part,
                           std::vector<ReportSlot> &slots) {
  slots.push_back({std::nullopt, request, part, "", binary});
  ArrayAttr duplicates =
      record
          ? record.getAs<ArrayAttr>("duplicates")
          : binary->getAttrOfType<ArrayAttr>(XPUDialect::kDuplicatesAttrName);
  if (!duplicates)
    return;
  for (Attribute record : duplicates) {
    std::optional<DuplicateModule> duplicate = readDuplicateModule(record);
    if (!duplicate) // Refused by the verifier.
      continue;
    ReportSlot &slot = slots.emplace_back(ReportSlot{
        std::nullopt, request, part, duplicate->name.str(), binary, {}});
    for (auto [own, kept] : duplicate->renamedKernels)
      slot.duplicateKernels.emplace_back(kept.str(), own.str());
  }
}

/// One part of an `xpu.linked` record.
static LinkedPart getLinkedPart(DictionaryAttr record) {
  LinkedPart part;
  part.name = record.getAs<StringAttr>("module").str();
  for (NamedAttribute kernel : record.getAs<DictionaryAttr>("kernels")) {
    part.originalKernels.push_back(kernel.getName().str());
    part.kernels.push_back(cast<StringAttr>(kernel.getValue()).str());
  }
  if (auto pressure = record.getAs<PressureAttr>("pressure"))
    part.pressure = getPressureEstimate(pressure);
  return part;
}

void NativeCodegenRun::collectRequests(
    SmallVectorImpl<ObjectSlot> &slots,
    std::vector<ModuleCompileRequest> &requests,
    std::vector<ReportSlot> &reportSlots) {
  getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
    countVisitedOps();
    if (auto module = dyn_cast<gpu::GPUModuleOp>(op)) {
      // Failed in an earlier stage (its error was reported there).
      // A linked module fails for every module linked into it.
      if (std::optional<StringRef> message = getModuleFailure(module)) {
        for (TargetAttr target : getXPUTargets(module)) {
          auto parts =
              module->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName);
          if (!parts) {
            addFailure(module, module.getName(), target.getArch(), *message,
                       reportSlots, /*diagnose=*/false);
            continue;
          }
          for (auto part : parts.getAsRange<DictionaryAttr>()) {
            addFailure(module, part.getAs<StringAttr>("module"),
                       target.getArch(), *message, reportSlots,
                       /*diagnose=*/false);
            reportSlots.back().ready->linkedInto = module.getName().str();
          }
        }
      }
      return WalkResult::skip();
    }
    if (auto binary = dyn_cast<gpu::BinaryOp>(op))
      collectBinary(binary, slots, requests, reportSlots);
    return WalkResult::advance();
  });
}

void NativeCodegenRun::collectBinary(
    gpu::BinaryOp binary, SmallVectorImpl<ObjectSlot> &slots,
    std::vector<ModuleCompileRequest> &requests,
    std::vector<ReportSlot> &reportSlots) {
  if (binary->hasAttr(XPUDialect::kModuleCacheHitAttrName)) {
    replayModuleCacheHit(binary, reportSlots);
    return;
  }
  for (auto [index, attr] : llvm::enumerate(binary.getObjects())) {
    auto object = cast<gpu::ObjectAttr>(attr);
    TargetAttr target = dyn_cast<TargetAttr>(object.getTarget());
    std::string arch = target ? target.getArch().str() : "";
    FailureOr<std::vector<char>> spirv =
        target ? getXPUPayload(binary, object, index, target, reportSlots)
               : getXeVMPayload(binary, object, target, arch, reportSlots);
    if (failed(spirv) || spirv->empty())
      continue;
    slots.push_back({binary, static_cast<unsigned>(index), target});
    ModuleCompileRequest request =
        getCompileRequest(binary, binary.getName(), target, *spirv);
    auto linked = binary->getAttrOfType<ArrayAttr>(XPUDialect::kLinkedAttrName);
    if (!linked) {
      addReportSlots(binary, nullptr, requests.size(), 0, reportSlots);
    } else {
      for (auto [i, record] :
           llvm::enumerate(linked.getAsRange<DictionaryAttr>())) {
        request.parts.push_back(getLinkedPart(record));
        addReportSlots(binary, record, requests.size(), i, reportSlots);
      }
      std::string name = binary.getName().str();
      request.emitPart = [this, name, parts = request.parts](size_t part) {
        return emitLinkedPart(name, parts[part]);
      };
    }
    requests.push_back(std::move(request));
  }
}

FailureOr<std::vector<char>>
NativeCodegenRun::getXPUPayload(gpu::BinaryOp binary, gpu::ObjectAttr object,
                                size_t index, TargetAttr target,
                                std::vector<ReportSlot> &reportSlots) {
  StringRef payload = object.getObject().getValue();
  ArrayRef<char> bytes(payload.data(), payload.size());
  if (isSPIRV(bytes))
    return std::vector<char>(bytes.begin(), bytes.end());
  // Already native (this pass ran before), checked to be a zebin.
  if (object.getProperties() &&
      object.getProperties().contains(fields::kNRegs) && isZebin(bytes))
    return std::vector<char>();
  addFailure(binary, binary.getName(), target.getArch(),
             llvm::formatv("object {0} holds neither SPIR-V nor a native "
                           "binary from this pass",
                           index)
                 .str(),
             reportSlots);
  return failure();
}

FailureOr<std::vector<char>>
NativeCodegenRun::getXeVMPayload(gpu::BinaryOp binary, gpu::ObjectAttr object,
                                 TargetAttr &target, std::string &arch,
                                 std::vector<ReportSlot> &reportSlots) {
  auto xevmTarget = dyn_cast<xevm::XeVMTargetAttr>(object.getTarget());
  if (!xevmTarget)
    return std::vector<char>();
  arch = xevmTarget.getChip().str();
  std::string targetError;
  target = TargetAttr::getChecked(
      [&] {
        return mlir::emitError(getLineLoc(binary)) << "xpu-native-codegen: ";
      },
      &getContext(), xevmTarget.getChip(), grfMode, std::optional<unsigned>(),
      StringRef());
  if (!target) {
    addFailure(binary, binary.getName(), arch,
               "the #xevm.target chip is not a device this compiler knows",
               reportSlots, /*diagnose=*/false);
    return failure();
  }
  StringRef payload = object.getObject().getValue();
  ArrayRef<char> bytes(payload.data(), payload.size());
  if (isSPIRV(bytes))
    return std::vector<char>(bytes.begin(), bytes.end());
  llvm::Expected<std::vector<char>> assembled = assembleSPIRV(payload);
  if (!assembled) {
    addFailure(binary, binary.getName(), arch,
               "#xevm.target object holds neither SPIR-V nor SPIR-V "
               "assembly: " +
                   llvm::toString(assembled.takeError()),
               reportSlots);
    return failure();
  }
  return std::move(*assembled);
}

void NativeCodegenRun::collectLinkSources() {
  linkSources.clear();
  for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
    countVisitedOps();
    if (auto source = module->getAttrOfType<DictionaryAttr>(
            XPUDialect::kLinkSourceAttrName))
      linkSources[source.getAs<StringAttr>("binary").getValue()] = module;
  }
}

llvm::Expected<std::vector<char>>
NativeCodegenRun::emitLinkedPart(StringRef binary, const LinkedPart &part) {
  // Parts emit in parallel only where the context is thread-safe; the
  // clone itself uniques names, so it is always made under the lock.
  std::unique_lock<std::mutex> lock(emitMutex);
  gpu::GPUModuleOp source = linkSources.lookup(binary);
  if (!source)
    return llvm::createStringError(
        "no lowered form of linked module '" + binary + "' to build part '" +
        part.name +
        "' alone from (xpu-emit-spirv keeps it for linked modules)");
  OwningOpRef<gpu::GPUModuleOp> clone(source.clone());
  keepOnlyKernels(*clone, part.kernels);
  int optLevel =
      source->getAttrOfType<DictionaryAttr>(XPUDialect::kLinkSourceAttrName)
          .getAs<IntegerAttr>("opt_level")
          .getInt();
  if (getContext().isMultithreadingEnabled())
    lock.unlock();
  FirstErrorRecorder recorder(&getContext());
  FailureOr<SmallVector<char, 0>> spirv = emitSPIRV(*clone, optLevel);
  if (failed(spirv))
    return llvm::createStringError(
        recorder.getMessage("emitting part '" + part.name + "' failed"));
  return std::vector<char>(spirv->begin(), spirv->end());
}
