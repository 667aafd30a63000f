//===- KernelOrigins.cpp - Where each kernel came from --------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/KernelOrigins.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::xpu;

static constexpr llvm::StringLiteral kModulePrefix = "xpu.module:";
static constexpr llvm::StringLiteral kKernelPrefix = "xpu.kernel:";

/// The parts of `loc`: a metadata-free FusedLoc's locations, else `loc`.
static SmallVector<Location> getParts(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc); fused && !fused.getMetadata())
    return SmallVector<Location>(fused.getLocations());
  return {loc};
}

/// Whether `loc` is a recorded origin (not the op's own location).
static bool isOrigin(Location loc) {
  auto named = dyn_cast<NameLoc>(loc);
  return named && (named.getName().getValue().starts_with(kModulePrefix) ||
                   named.getName().getValue().starts_with(kKernelPrefix));
}

static std::optional<Location> findEntry(Location loc, StringRef name) {
  for (Location part : getParts(loc))
    if (auto named = dyn_cast<NameLoc>(part);
        named && isOrigin(named) && named.getName().getValue() == name)
      return named.getChildLoc();
  return std::nullopt;
}

void mlir::xpu::recordKernelOrigins(gpu::GPUModuleOp module) {
  MLIRContext *context = module.getContext();
  std::string moduleKey = (kModulePrefix + module.getName()).str();
  Location loc = module.getLoc();
  if (findEntry(loc, moduleKey))
    return;
  SmallVector<Location> parts = getParts(loc);
  SmallVector<Location> own = llvm::filter_to_vector(
      parts, [](Location part) { return !isOrigin(part); });
  Location ownLoc = own.empty() ? loc : FusedLoc::get(context, own);
  parts.push_back(NameLoc::get(StringAttr::get(context, moduleKey), ownLoc));
  for (auto func : module.getOps<gpu::GPUFuncOp>())
    if (func.isKernel())
      parts.push_back(NameLoc::get(
          StringAttr::get(
              context,
              (kKernelPrefix + module.getName() + "::" + func.getName()).str()),
          func.getLoc()));
  module->setLoc(FusedLoc::get(context, parts));
}

Location mlir::xpu::mergeKernelOrigins(Location into, Location from) {
  SmallVector<Location> parts = getParts(into);
  for (Location part : getParts(from))
    if (isOrigin(part))
      parts.push_back(part);
  return FusedLoc::get(into.getContext(), parts);
}

std::optional<Location>
mlir::xpu::findKernelOrigin(Location loc, StringRef module, StringRef kernel) {
  if (std::optional<Location> found =
          findEntry(loc, (kKernelPrefix + module + "::" + kernel).str()))
    return found;
  return findModuleOrigin(loc, module);
}

std::optional<Location> mlir::xpu::findModuleOrigin(Location loc,
                                                    StringRef module) {
  return findEntry(loc, (kModulePrefix + module).str());
}

std::string mlir::xpu::findQuotedKernel(Location loc, StringRef module,
                                        StringRef message) {
  std::string prefix = (kKernelPrefix + module + "::").str();
  std::string first;
  size_t firstAt = StringRef::npos;
  for (Location part : getParts(loc)) {
    auto named = dyn_cast<NameLoc>(part);
    if (!named || !named.getName().getValue().starts_with(prefix))
      continue;
    StringRef kernel = named.getName().getValue().drop_front(prefix.size());
    if (size_t at = findQuotedName(message, kernel); at < firstAt) {
      firstAt = at;
      first = kernel.str();
    }
  }
  return first;
}

size_t mlir::xpu::findQuotedName(StringRef message, StringRef name) {
  return std::min(message.find(("'" + name + "'").str()),
                  message.find(("\"" + name + "\"").str()));
}
