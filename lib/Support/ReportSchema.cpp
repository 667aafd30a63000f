//===- ReportSchema.cpp - The shape every report reader relies on --------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Support/ReportSchema.h"
#include "XPUCodegen/Support/ResultFields.h"

#include "llvm/ADT/Twine.h"

using namespace mlir::xpu;
using llvm::json::Object;
using llvm::json::Value;

namespace {
/// What a key must hold.
enum class Kind { String, Count, Bool, StringOrNull, Array, Object };

struct Field {
  llvm::StringLiteral key;
  Kind kind;
  bool required;
};

// The fields of each object, as Report.cpp writes them and the readers
// (readCachedReport, Python's _module_from_entry) read them.
constexpr Field kModuleFields[] = {
    {fields::kModule, Kind::String, true},
    {fields::kArch, Kind::String, true},
    {fields::kBackend, Kind::String, true},
    {fields::kGRFMode, Kind::String, true},
    {fields::kNRegs, Kind::Count, true},
    {fields::kSpillSize, Kind::Count, true},
    {fields::kBuildFlags, Kind::String, true},
    {fields::kAttempts, Kind::Array, true},
    {fields::kKernels, Kind::Array, true},
    {fields::kBackendReason, Kind::String, false},
    {fields::kCompiler, Kind::String, false},
    {fields::kCache, Kind::String, false},
    {fields::kCacheLevel, Kind::String, false},
    {fields::kCacheTier, Kind::String, false},
    {fields::kDecision, Kind::String, false},
    {fields::kDecisionSource, Kind::String, false},
    {fields::kSubgroupSize, Kind::Count, false},
    {fields::kValidation, Kind::String, false},
    {fields::kWorkgroupLimit, Kind::String, false},
    {fields::kLaunchWarnings, Kind::Array, false},
    {fields::kPlan, Kind::String, false},
    {fields::kPressure, Kind::Object, false},
    {fields::kDeduplicatedFrom, Kind::String, false},
    {fields::kLinkedInto, Kind::String, false},
    {fields::kSplitInto, Kind::String, false},
};

constexpr Field kErrorFields[] = {
    {fields::kModule, Kind::String, true},
    {fields::kArch, Kind::String, true},
    {fields::kError, Kind::String, true},
    {fields::kOutOfResources, Kind::Object, false},
    {fields::kDeduplicatedFrom, Kind::String, false},
    {fields::kLinkedInto, Kind::String, false},
    {fields::kSplitInto, Kind::String, false},
};

constexpr Field kOutOfResourcesFields[] = {
    {fields::kResource, Kind::String, true},
    {fields::kRequired, Kind::Count, true},
    {fields::kLimit, Kind::Count, true},
};

constexpr Field kAttemptFields[] = {
    {fields::kGRFMode, Kind::String, true},
    {fields::kBuildFlags, Kind::String, true},
    {fields::kSpillSize, Kind::Count, true},
    {fields::kCompileMs, Kind::Count, true},
    {fields::kBuiltMs, Kind::Count, false},
    {fields::kCache, Kind::StringOrNull, false},
    {fields::kCacheTier, Kind::String, false},
    {fields::kReused, Kind::Bool, false},
    {fields::kUnusable, Kind::String, false},
};

constexpr Field kKernelFields[] = {
    {fields::kName, Kind::String, true},
    {fields::kGRFCount, Kind::Count, true},
    {fields::kSimd, Kind::Count, true},
    {fields::kSpillSize, Kind::Count, true},
    {fields::kPrivateSize, Kind::Count, true},
    {fields::kNSpills, Kind::Count, true},
    {fields::kScratchSize, Kind::Count, false},
    {fields::kSubgroupSize, Kind::Count, false},
    {fields::kThreadsPerEU, Kind::Count, false},
    {fields::kLinkedName, Kind::String, false},
    {fields::kSpillNote, Kind::String, false},
};
} // namespace

static bool hasKind(const Value &value, Kind kind) {
  switch (kind) {
  case Kind::String:
    return value.getAsString().has_value();
  case Kind::Count: {
    std::optional<int64_t> count = value.getAsInteger();
    return count && *count >= 0;
  }
  case Kind::Bool:
    return value.getAsBoolean().has_value();
  case Kind::StringOrNull:
    return value.getAsString() || value.getAsNull();
  case Kind::Array:
    return value.getAsArray() != nullptr;
  case Kind::Object:
    return value.getAsObject() != nullptr;
  }
  return false;
}

static llvm::StringRef describe(Kind kind) {
  switch (kind) {
  case Kind::String:
    return "a string";
  case Kind::Count:
    return "an integer >= 0";
  case Kind::Bool:
    return "a boolean";
  case Kind::StringOrNull:
    return "a string or null";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "";
}

/// Checks `value` is an object whose `fields` have their kinds; `what`
/// names it in the message.
static llvm::Error checkObject(const Value &value, llvm::ArrayRef<Field> fields,
                               const llvm::Twine &what) {
  const Object *object = value.getAsObject();
  if (!object)
    return llvm::createStringError(what + " is not an object");
  for (const Field &field : fields) {
    const Value *member = object->get(field.key);
    if (!member) {
      if (field.required)
        return llvm::createStringError(what + " has no \"" + field.key + "\"");
      continue;
    }
    if (!hasKind(*member, field.kind))
      return llvm::createStringError(what + ": \"" + field.key + "\" must be " +
                                     describe(field.kind));
  }
  return llvm::Error::success();
}

/// Checks every element of `object[key]` (an array already checked).
static llvm::Error checkElements(const Object &object, llvm::StringRef key,
                                 llvm::ArrayRef<Field> fields,
                                 llvm::StringRef what) {
  for (auto [index, element] : llvm::enumerate(*object.getArray(key)))
    if (llvm::Error error = checkObject(
            element, fields, llvm::Twine(what) + " " + llvm::Twine(index)))
      return error;
  return llvm::Error::success();
}

llvm::Error mlir::xpu::checkReportEntry(const Value &entry) {
  const Object *object = entry.getAsObject();
  if (!object)
    return llvm::createStringError("a report entry is not an object");
  if (object->get(fields::kError)) {
    if (llvm::Error error = checkObject(entry, kErrorFields, "a failed entry"))
      return error;
    if (const Value *resources = object->get(fields::kOutOfResources))
      return checkObject(*resources, kOutOfResourcesFields, "out_of_resources");
    return llvm::Error::success();
  }
  if (llvm::Error error = checkObject(entry, kModuleFields, "a report entry"))
    return error;
  if (llvm::Error error =
          checkElements(*object, fields::kAttempts, kAttemptFields, "attempt"))
    return error;
  return checkElements(*object, fields::kKernels, kKernelFields, "kernel");
}

llvm::Error mlir::xpu::checkCachedReport(const Value &report) {
  const llvm::json::Array *entries = report.getAsArray();
  if (!entries || entries->empty())
    return llvm::createStringError(
        "must be a non-empty JSON array of report entries");
  for (const Value &entry : *entries) {
    if (llvm::Error error = checkReportEntry(entry))
      return error;
    const Object &object = *entry.getAsObject();
    if (object.get(fields::kError))
      return llvm::createStringError(
          "holds a failed module's entry (the cache keeps compiled modules "
          "only)");
    if (object.getString(fields::kModule)->empty())
      return llvm::createStringError("holds an entry without a module name");
  }
  return llvm::Error::success();
}
