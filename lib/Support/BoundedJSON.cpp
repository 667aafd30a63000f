//===- BoundedJSON.cpp - JSON from untrusted text, bounded in depth -------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Support/BoundedJSON.h"

using namespace mlir::xpu;

unsigned mlir::xpu::getJSONNestingDepth(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i; // The escaped character never ends the string.
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '[':
    case '{':
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return limit + 1;
      break;
    case ']':
    case '}':
      // Unbalanced text is the parser's to refuse.
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return deepest;
}

llvm::Expected<llvm::json::Value>
mlir::xpu::parseBoundedJSON(llvm::StringRef text, unsigned maxNesting) {
  if (getJSONNestingDepth(text, maxNesting) > maxNesting)
    return llvm::createStringError("JSON nested deeper than " +
                                   llvm::Twine(maxNesting) + " levels");
  return llvm::json::parse(text);
}
