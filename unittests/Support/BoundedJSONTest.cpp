//===- BoundedJSONTest.cpp - JSON from untrusted text ---------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Support/BoundedJSON.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir::xpu;

namespace {

std::string nested(unsigned depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(BoundedJSON, CountsArraysAndObjects) {
  EXPECT_EQ(getJSONNestingDepth("1", 64), 0u);
  EXPECT_EQ(getJSONNestingDepth("[{\"a\": [1]}]", 64), 3u);
  EXPECT_EQ(getJSONNestingDepth(nested(64), 64), 64u);
}

TEST(BoundedJSON, BracketsInStringsAreText) {
  EXPECT_EQ(getJSONNestingDepth("[\"[[[[{{{{\"]", 2), 1u);
  // An escaped quote does not end the string.
  EXPECT_EQ(getJSONNestingDepth("[\"\\\"[[[[\"]", 2), 1u);
}

TEST(BoundedJSON, StopsCountingPastTheLimit) {
  EXPECT_EQ(getJSONNestingDepth(nested(100000), 64), 65u);
}

TEST(BoundedJSON, ParsesUpToTheLimit) {
  llvm::Expected<llvm::json::Value> value = parseBoundedJSON(nested(64));
  ASSERT_TRUE(bool(value)) << llvm::toString(value.takeError());
  EXPECT_NE(value->getAsArray(), nullptr);
}

TEST(BoundedJSON, RefusesDeeperTextWithoutRecursing) {
  // 5 MB of '[': LLVM's parser would recurse once per bracket and
  // overflow the stack; the scan refuses it first.
  llvm::Expected<llvm::json::Value> value =
      parseBoundedJSON(std::string(5u << 20, '['));
  ASSERT_FALSE(bool(value));
  EXPECT_EQ(llvm::toString(value.takeError()),
            "JSON nested deeper than 64 levels");
}

TEST(BoundedJSON, MalformedTextIsTheParsersError) {
  llvm::Expected<llvm::json::Value> value = parseBoundedJSON("]]{");
  ASSERT_FALSE(bool(value));
  llvm::consumeError(value.takeError());
}

} // namespace
