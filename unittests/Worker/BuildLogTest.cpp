//===- BuildLogTest.cpp - Bounded build log tests -------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Worker/BuildLog.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ConvertUTF.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mlir::xpu;

namespace {

TEST(BuildLogTest, ShortLogsAreKeptWhole) {
  EXPECT_EQ(boundBuildLog(""), "");
  std::string log(2 * kBuildLogEndBytes, 'a');
  EXPECT_EQ(boundBuildLog(log), log);
}

/// The parts of a bounded log: what it kept of the head, the marker line
/// and what it kept of the tail.
struct BoundedParts {
  StringRef head, marker, tail;
};

BoundedParts split(StringRef bounded) {
  size_t at = bounded.find("[... ");
  if (at == StringRef::npos)
    return {bounded, "", ""};
  size_t end = bounded.find('\n', at) + 1;
  return {bounded.take_front(at), bounded.slice(at, end),
          bounded.drop_front(end)};
}

TEST(BuildLogTest, HugeLogKeepsBothEndsAndSaysWhatWasDropped) {
  // A 200 MB log once went whole into the report.
  std::string line = "warning: kernel k  compiled SIMD32 allocated 128 regs "
                     "and spilled around 580\n";
  std::string log = "first line\n";
  while (log.size() < (size_t(200) << 20))
    log += line;
  log += "last line\n";
  std::string bounded = boundBuildLog(log);
  EXPECT_LE(bounded.size(), 2 * kBuildLogEndBytes + 100);
  BoundedParts parts = split(bounded);
  EXPECT_TRUE(StringRef(log).starts_with(parts.head));
  EXPECT_TRUE(StringRef(log).ends_with(parts.tail));
  // Cut at line ends: every kept line is whole.
  EXPECT_TRUE(parts.head.starts_with("first line\n" + line));
  EXPECT_TRUE(parts.head.ends_with(line));
  EXPECT_TRUE(parts.tail.starts_with(line));
  EXPECT_TRUE(parts.tail.ends_with(line + "last line\n"));
  size_t dropped = log.size() - parts.head.size() - parts.tail.size();
  EXPECT_EQ(parts.marker, "[... " + std::to_string(dropped) +
                              " bytes of the build log dropped ...]\n");
}

bool isUTF8(StringRef text) {
  const auto *begin = reinterpret_cast<const UTF8 *>(text.begin());
  return isLegalUTF8String(&begin, reinterpret_cast<const UTF8 *>(text.end()));
}

TEST(BuildLogTest, OneLongLineIsCutOutsideUTF8Characters) {
  std::string log;
  while (log.size() < 10 * kBuildLogEndBytes)
    log += "\xc3\xa9\xe2\x82\xac"; // é€
  std::string bounded = boundBuildLog(log, 1001);
  EXPECT_LE(bounded.size(), 2002u + 100u);
  EXPECT_NE(bounded.find("bytes of the build log dropped"), std::string::npos);
  BoundedParts parts = split(bounded);
  // The marker is on a line of its own.
  EXPECT_TRUE(parts.head.ends_with("\n"));
  parts.head = parts.head.drop_back();
  EXPECT_TRUE(StringRef(log).starts_with(parts.head));
  EXPECT_TRUE(StringRef(log).ends_with(parts.tail));
  EXPECT_TRUE(isUTF8(parts.head));
  EXPECT_TRUE(isUTF8(parts.tail));
  EXPECT_FALSE(parts.head.empty());
  EXPECT_FALSE(parts.tail.empty());
}

} // namespace
