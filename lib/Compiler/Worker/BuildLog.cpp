//===- BuildLog.cpp - A compiler's log, bounded for people ----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/BuildLog.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

/// Moves `cut` back to the start of the UTF-8 character it falls in.
static size_t toCharStart(StringRef text, size_t cut) {
  while (cut > 0 && cut < text.size() && (uint8_t(text[cut]) & 0xC0) == 0x80)
    --cut;
  return cut;
}

std::string mlir::xpu::boundBuildLog(StringRef log, size_t endBytes) {
  if (log.size() <= 2 * endBytes)
    return log.str();
  // The head ends after its last full line, the tail starts at a line.
  size_t headEnd = log.take_front(endBytes).rfind('\n');
  headEnd =
      headEnd == StringRef::npos ? toCharStart(log, endBytes) : headEnd + 1;
  size_t tailStart = log.size() - endBytes;
  size_t lineStart = log.find('\n', tailStart - 1);
  tailStart = lineStart == StringRef::npos || lineStart + 1 == log.size()
                  ? toCharStart(log, tailStart)
                  : lineStart + 1;
  StringRef head = log.take_front(headEnd);
  StringRef tail = log.drop_front(tailStart);
  std::string marker =
      (Twine("[... ") + Twine(log.size() - head.size() - tail.size()) +
       " bytes of the build log dropped ...]\n")
          .str();
  if (!head.empty() && !head.ends_with("\n"))
    marker.insert(marker.begin(), '\n');
  return (head + marker + tail).str();
}
