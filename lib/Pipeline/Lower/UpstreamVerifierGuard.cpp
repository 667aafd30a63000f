//===- UpstreamVerifierGuard.cpp - Checks before upstream verifiers -------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Pipeline/Lower/UpstreamVerifierGuard.h"

#include "mlir/Dialect/XeGPU/IR/XeGPU.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::xpu;

namespace {

/// LoadNdOp::verify stores element counts in an `int` and divides by them.
constexpr int64_t kMaxXeGPUElements = std::numeric_limits<int32_t>::max();

/// Why `layout` would crash an upstream verifier, if it would.
std::optional<std::string> describeBadLayout(xegpu::LayoutAttr layout) {
  std::pair<llvm::StringRef, DenseI32ArrayAttr> sizes[] = {
      {"sg_layout", layout.getSgLayout()},
      {"sg_data", layout.getSgData()},
      {"inst_data", layout.getInstData()},
      {"lane_layout", layout.getLaneLayout()},
      {"lane_data", layout.getLaneData()}};
  for (auto [name, field] : sizes)
    for (int32_t value : field ? field.asArrayRef() : ArrayRef<int32_t>())
      if (value < 1)
        return ("xegpu layout field '" + name + "' must be positive, got " +
                llvm::Twine(value))
            .str();
  if (DenseI32ArrayAttr order = layout.getOrder()) {
    ArrayRef<int32_t> values = order.asArrayRef();
    for (int32_t value : values)
      if (value < 0 || value >= static_cast<int64_t>(values.size()) ||
          llvm::count(values, value) != 1)
        return ("xegpu layout field 'order' must be a permutation of 0.." +
                llvm::Twine(values.size() - 1) + ", got " + llvm::Twine(value))
            .str();
  }
  return std::nullopt;
}

/// The element count of a vector or tensor descriptor (times its array
/// length), if it exceeds kMaxXeGPUElements or is not positive.
std::optional<int64_t> getExcessiveElementCount(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isa<VectorType, xegpu::TensorDescType>(type) ||
      !shaped.hasStaticShape())
    return std::nullopt;
  int64_t count = 1;
  auto multiply = [&](int64_t factor) {
    if (factor < 1 || llvm::MulOverflow(count, factor, count) ||
        count > kMaxXeGPUElements)
      count = kMaxXeGPUElements + 1;
  };
  for (int64_t dim : shaped.getShape())
    multiply(dim);
  if (auto tdesc = dyn_cast<xegpu::TensorDescType>(type))
    if (auto block = dyn_cast_if_present<xegpu::BlockTensorDescAttr>(
            tdesc.getEncoding()))
      multiply(block.getArrayLength().getInt());
  if (count > kMaxXeGPUElements)
    return count;
  return std::nullopt;
}

LogicalResult checkLayouts(Operation *op) {
  std::optional<std::string> problem;
  auto visit = [&](xegpu::LayoutAttr layout) {
    if (!problem)
      problem = describeBadLayout(layout);
  };
  op->getAttrDictionary().walk(visit);
  for (Type type : op->getResultTypes())
    type.walk(visit);
  for (Type type : op->getOperandTypes())
    type.walk(visit);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Type type : block.getArgumentTypes())
        type.walk(visit);
  if (problem)
    return op->emitError(*problem);
  return success();
}

LogicalResult checkElementCounts(Operation *op) {
  if (!isa<xegpu::XeGPUDialect>(op->getDialect()))
    return success();
  for (TypeRange types :
       {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
    for (Type type : types)
      if (getExcessiveElementCount(type))
        return op->emitOpError()
               << "operand or result " << type << " has more than "
               << kMaxXeGPUElements << " elements (or a count below 1)";
  return success();
}

} // namespace

LogicalResult mlir::xpu::checkUpstreamVerifierInputs(Operation *root) {
  // Without the dialect loaded, no xegpu attribute or type can exist.
  if (!root->getContext()->getLoadedDialect<xegpu::XeGPUDialect>())
    return success();
  bool failed = false;
  root->walk([&](Operation *op) {
    if (mlir::failed(checkLayouts(op)) || mlir::failed(checkElementCounts(op)))
      failed = true;
  });
  return failure(failed);
}
