//===- ZebinTest.cpp - Tests for the zebin reader -------------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/Zebin.h"
#include "TestInputs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ObjectYAML/yaml2obj.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace mlir::xpu;
using mlir::xpu::test::readInput;

namespace {

/// Reads `name` from the inputs and expects exactly one kernel.
ZebinKernel readOneKernel(StringRef name) {
  std::string binary = readInput(name);
  Expected<ZebinInfo> info = readZebin(binary);
  if (!info) {
    ADD_FAILURE() << name.str() << ": " << toString(info.takeError());
    return {};
  }
  EXPECT_EQ(info->zeInfoVersion, "1.20");
  if (info->kernels.size() != 1) {
    ADD_FAILURE() << name.str() << ": " << info->kernels.size() << " kernels";
    return {};
  }
  return info->kernels.front();
}

/// The error message of `result`, or "" when it unexpectedly succeeded.
std::string errorOf(Expected<ZebinInfo> result) {
  if (result)
    return "";
  return toString(result.takeError());
}

/// An ELF64 file built by yaml2obj with the given extra section list.
std::string makeELF(StringRef sections, StringRef elfClass = "ELFCLASS64",
                    StringRef data = "ELFDATA2LSB") {
  std::string yaml = ("--- !ELF\n"
                      "FileHeader:\n"
                      "  Class: " +
                      elfClass +
                      "\n"
                      "  Data: " +
                      data +
                      "\n"
                      "  Type: ET_REL\n"
                      "  Machine: 0xCD\n"
                      "Sections:\n" +
                      sections)
                         .str();
  std::string out;
  raw_string_ostream os(out);
  yaml::Input input(yaml);
  bool ok = yaml::convertYAML(input, os, [](const Twine &message) {
    ADD_FAILURE() << "yaml2obj: " << message.str();
  });
  EXPECT_TRUE(ok);
  return out;
}

/// A section entry for makeELF holding `contents`.
std::string section(StringRef name, StringRef contents) {
  return ("  - Name: " + name +
          "\n"
          "    Type: SHT_PROGBITS\n"
          "    Content: \"" +
          toHex(contents) + "\"\n")
      .str();
}

//===----------------------------------------------------------------------===//
// Real zebins from IGC 1.0.12504 (pvc)
//===----------------------------------------------------------------------===//

TEST(ZebinTest, SmallAndLargeGRFCount) {
  ZebinKernel small = readOneKernel("nospill.pvc.small.zebin");
  EXPECT_EQ(small.name, "nospill");
  EXPECT_EQ(small.grfCount, 128);
  EXPECT_EQ(small.simd, 32);
  EXPECT_EQ(small.scratchSize, 0);
  EXPECT_EQ(small.privateSize, 0);
  EXPECT_FALSE(small.spillSize.has_value());
  EXPECT_GT(small.codeSize, 0);

  ZebinKernel large = readOneKernel("nospill.pvc.large.zebin");
  EXPECT_EQ(large.grfCount, 256);
  EXPECT_EQ(large.simd, 32);
  EXPECT_EQ(large.scratchSize, 0);
}

TEST(ZebinTest, SpillingKernelsUseScratch) {
  ZebinKernel small = readOneKernel("spill_both.pvc.small.zebin");
  EXPECT_EQ(small.name, "spill_both");
  EXPECT_EQ(small.grfCount, 128);
  EXPECT_EQ(small.scratchSize, 65536);
  // IGC 1.0.12504 writes no spill_size.
  EXPECT_FALSE(small.spillSize.has_value());

  ZebinKernel large = readOneKernel("spill_both.pvc.large.zebin");
  EXPECT_EQ(large.grfCount, 256);
  EXPECT_EQ(large.scratchSize, 16384);

  ZebinKernel smallOnly = readOneKernel("spill_small_only.pvc.small.zebin");
  EXPECT_EQ(smallOnly.scratchSize, 16384);
  ZebinKernel largeOnly = readOneKernel("spill_small_only.pvc.large.zebin");
  EXPECT_EQ(largeOnly.scratchSize, 0);
}

TEST(ZebinTest, IGCAutoModeChoiceIsInTheBinary) {
  ZebinKernel kernel = readOneKernel("spill_small_only.pvc.igc-auto.zebin");
  EXPECT_EQ(kernel.grfCount, 256);
  EXPECT_EQ(kernel.simd, 32);
}

TEST(ZebinTest, PrivateArrayIsScratchNotPrivateBuffer) {
  // 256 floats x 32 lanes: IGC 1.0.12504 puts private arrays in scratch.
  ZebinKernel kernel = readOneKernel("private_array.pvc.small.zebin");
  EXPECT_EQ(kernel.name, "private_array");
  EXPECT_EQ(kernel.scratchSize, 32768);
  EXPECT_EQ(kernel.privateSize, 0);
}

//===----------------------------------------------------------------------===//
// .ze_info fields of newer IGC
//===----------------------------------------------------------------------===//

constexpr StringLiteral kNewerZeInfo = R"(version: '1.45'
kernels:
  - name: k
    execution_env:
      grf_count: 256
      simd_size: 16
      spill_size: 1024
      has_no_stateless_write: true
    per_thread_memory_buffers:
      - type: scratch
        usage: single_space
        size: 2048
      - type: scratch
        usage: single_space
        size: 64
        slot: 1
      - type: private
        usage: private_space
        size: 100
        is_simt_thread: true
      - type: private
        usage: private_space
        size: 8
  - name: "other"
    execution_env: { grf_count: 128, simd_size: 32 }
kernels_misc_info: []
)";

TEST(ZebinTest, ParseZeInfoWithSpillSize) {
  Expected<ZebinInfo> info = parseZeInfo(kNewerZeInfo);
  ASSERT_TRUE(bool(info)) << toString(info.takeError());
  EXPECT_EQ(info->zeInfoVersion, "1.45");
  ASSERT_EQ(info->kernels.size(), 2u);
  const ZebinKernel &k = info->kernels[0];
  EXPECT_EQ(k.grfCount, 256);
  EXPECT_EQ(k.simd, 16);
  EXPECT_EQ(k.spillSize, std::optional<int64_t>(1024));
  EXPECT_EQ(k.scratchSize, 2048 + 64);
  // Per-lane private memory is scaled to the hardware thread.
  EXPECT_EQ(k.privateSize, 100 * 16 + 8);
  EXPECT_EQ(info->kernels[1].name, "other");
  EXPECT_EQ(info->kernels[1].grfCount, 128);
  EXPECT_FALSE(info->kernels[1].spillSize.has_value());
}

TEST(ZebinTest, ReadCraftedZebinWithSpillSize) {
  std::string elf =
      makeELF(section(".text.k", StringRef("\0\0\0\0\0\0\0\0", 8)) +
              section(".ze_info", kNewerZeInfo));
  Expected<ZebinInfo> info = readZebin(elf);
  ASSERT_TRUE(bool(info)) << toString(info.takeError());
  ASSERT_EQ(info->kernels.size(), 2u);
  EXPECT_EQ(info->kernels[0].spillSize, std::optional<int64_t>(1024));
  EXPECT_EQ(info->kernels[0].codeSize, 8);
  // No .text.other section: no code size, not an error.
  EXPECT_EQ(info->kernels[1].codeSize, 0);
}

//===----------------------------------------------------------------------===//
// Bad input: always an error, never a crash
//===----------------------------------------------------------------------===//

TEST(ZebinTest, NotAnELF) {
  EXPECT_NE(errorOf(readZebin("")).find("not an ELF"), std::string::npos);
  EXPECT_NE(errorOf(readZebin("hello world")).find("not an ELF"),
            std::string::npos);
  // The SPIR-V module is not a zebin either.
  EXPECT_NE(errorOf(readZebin(readInput("nospill.spv"))), "");
}

TEST(ZebinTest, TruncatedELFHeader) {
  EXPECT_NE(errorOf(readZebin("\x7f"
                              "ELF")),
            "");
  EXPECT_NE(errorOf(readZebin(StringRef("\x7f"
                                        "ELF\x02\x01\x01\0",
                                        8))),
            "");
}

TEST(ZebinTest, WrongELFClassOrEndianness) {
  std::string info = section(".ze_info", kNewerZeInfo);
  EXPECT_NE(errorOf(readZebin(makeELF(info, "ELFCLASS32"))).find("64-bit"),
            std::string::npos);
  EXPECT_NE(errorOf(readZebin(makeELF(info, "ELFCLASS64", "ELFDATA2MSB")))
                .find("little-endian"),
            std::string::npos);
}

TEST(ZebinTest, ELFWithoutZeInfo) {
  std::string elf = makeELF(section(".text.k", "abcd"));
  EXPECT_NE(errorOf(readZebin(elf)).find("no .ze_info"), std::string::npos);
}

TEST(ZebinTest, KernelLessZebinSaysSo) {
  // What IGC writes for a module without entry points: a zebin (EM_INTELGT)
  // without .ze_info or code; not a legacy binary.
  std::string elf = makeELF(section(".note.intelgt.compat", "abcd"));
  std::string error = errorOf(readZebin(elf));
  EXPECT_NE(error.find("has no kernels"), std::string::npos) << error;
  EXPECT_EQ(error.find("legacy"), std::string::npos) << error;
}

// A .ze_info nested 300,000 levels deep once overflowed the stack in LLVM's
// YAML parser (inspect, read_zebin() and xpu-opt itself via a worker).
TEST(ZebinTest, DeeplyNestedZeInfoIsAnError) {
  constexpr size_t kDepth = 300000;
  std::string flowSeq(kDepth, '[');
  std::string flowMap;
  for (size_t i = 0; i < kDepth; ++i)
    flowMap += "{a: ";
  std::string blockSeq;
  for (size_t i = 0; i < kDepth; ++i)
    blockSeq += "- ";
  std::string inKernel =
      "kernels:\n  - name: k\n    execution_env: " + std::string(kDepth, '[') +
      "\n";
  for (const std::string &yaml :
       {flowSeq, flowMap, blockSeq, "version: " + flowSeq, inKernel}) {
    std::string error = errorOf(parseZeInfo(yaml));
    EXPECT_NE(error.find("nests deeper than"), std::string::npos)
        << error.substr(0, 200);
    error = errorOf(readZebin(makeELF(section(".ze_info", yaml))));
    EXPECT_NE(error.find("nests deeper than"), std::string::npos)
        << error.substr(0, 200);
  }
  // Long runs of empty entries made the parser recurse once per comma.
  for (const std::string &yaml :
       {"kernels: [" + std::string(kDepth, ',') + "]\n",
        "kernels: [a" + std::string(kDepth, ',') + "b]\n",
        "x: {" + std::string(kDepth, ',') + "}\n"}) {
    std::string error = errorOf(parseZeInfo(yaml));
    EXPECT_NE(error.find("empty flow collection entries"), std::string::npos)
        << error.substr(0, 200);
  }
  // Document ends are never skipped: only the first document is read.
  std::string ends;
  for (size_t i = 0; i < kDepth / 4; ++i)
    ends += "...\n";
  consumeError(parseZeInfo("kernels: []\n" + ends).takeError());
  // Moderate nesting in a value nobody reads is still fine.
  Expected<ZebinInfo> info =
      parseZeInfo("kernels: []\nextra: " + std::string(100, '[') +
                  std::string(100, ']') + "\n");
  EXPECT_TRUE(bool(info)) << toString(info.takeError());
}

TEST(ZebinTest, EveryTruncationOfARealZebinIsHandled) {
  std::string binary = readInput("spill_small_only.pvc.large.zebin");
  ASSERT_FALSE(binary.empty());
  for (size_t size = 0; size < binary.size(); ++size) {
    // Prefixes that keep the section headers and .ze_info parse; the rest must
    // be clean errors. Either way: no crash.
    Expected<ZebinInfo> info = readZebin(StringRef(binary).take_front(size));
    if (!info)
      consumeError(info.takeError());
  }
}

TEST(ZebinTest, EveryCorruptedByteOfARealZebinIsHandled) {
  std::string original = readInput("nospill.pvc.small.zebin");
  ASSERT_FALSE(original.empty());
  for (size_t i = 0; i < original.size(); ++i) {
    for (unsigned char value : {0x00, 0xff, 0x7f, 0x80}) {
      std::string corrupt = original;
      corrupt[i] = static_cast<char>(value);
      Expected<ZebinInfo> info = readZebin(corrupt);
      if (!info)
        consumeError(info.takeError());
    }
  }
}

TEST(ZebinTest, MalformedZeInfo) {
  struct Case {
    const char *yaml;
    const char *expected;
  };
  const Case cases[] = {
      {"", "empty"},
      {"version: '1.20'\n", "no 'kernels'"},
      {"[1, 2]", "not a mapping"},
      {"kernels: 3\n", "'kernels' is not a sequence"},
      {"kernels:\n  - 3\n", "not a mapping"},
      {"kernels:\n  - name: k\n", "has no execution_env"},
      {"kernels:\n  - execution_env: {grf_count: 128, simd_size: 8}\n",
       "has no name"},
      {"kernels:\n  - name: k\n    execution_env: {simd_size: 8}\n",
       "has no execution_env.grf_count"},
      {"kernels:\n  - name: k\n    execution_env: {grf_count: 128}\n",
       "has no execution_env.simd_size"},
      {"kernels:\n  - name: k\n    execution_env: {grf_count: lots, "
       "simd_size: 8}\n",
       "'grf_count' is not a non-negative integer"},
      {"kernels:\n  - name: k\n    execution_env: {grf_count: -1, "
       "simd_size: 8}\n",
       "not a non-negative integer"},
      {"kernels:\n  - name: k\n    execution_env: {grf_count: "
       "99999999999999999999999, simd_size: 8}\n",
       "not a non-negative integer"},
      {"kernels:\n  - name: k\n    execution_env: [1]\n", "not a mapping"},
      {"kernels:\n  - name: [k]\n", "'name' is not a scalar"},
      {"kernels:\n  - name: k\n    execution_env: {grf_count: 128, "
       "simd_size: 8}\n    per_thread_memory_buffers: 5\n",
       "not a sequence"},
      {"kernels:\n  - name: k\n    execution_env: {grf_count: 128, "
       "simd_size: 8}\n    per_thread_memory_buffers:\n      - size: 5\n",
       "has no type"},
      {"kernels:\n  - name: k\n    execution_env: {grf_count: 128, "
       "simd_size: 8}\n    per_thread_memory_buffers:\n      - type: "
       "scratch\n        size: 9223372036854775807\n",
       "implausibly large"},
      {"kernels: [\n", "malformed .ze_info YAML"},
      {"kernels:\n  - name: 'k\n", "malformed .ze_info YAML"},
      {"kernels:\n  - {name: k, execution_env: {grf_count: 1, simd_size: 8}\n",
       "malformed .ze_info YAML"},
      {"{{{{", "malformed .ze_info"},
      {"kernels: !!binary AAAA\n", "not a sequence"},
      {"kernels: *alias\n", "malformed .ze_info"},
  };
  for (const Case &c : cases) {
    std::string error = errorOf(parseZeInfo(c.yaml));
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << "input:\n"
        << c.yaml << "\nerror: " << error;
  }
}

TEST(ZebinTest, MalformedZeInfoInsideAnELF) {
  std::string elf = makeELF(section(".ze_info", "kernels: [\n"));
  EXPECT_NE(errorOf(readZebin(elf)).find("malformed .ze_info YAML"),
            std::string::npos);
}

TEST(ZebinTest, GarbageZeInfoBytes) {
  // Every prefix of a real .ze_info, and binary noise, parse or fail cleanly.
  for (size_t size = 0; size < kNewerZeInfo.size(); ++size) {
    Expected<ZebinInfo> info = parseZeInfo(kNewerZeInfo.take_front(size));
    if (!info)
      consumeError(info.takeError());
  }
  std::string noise;
  for (unsigned i = 0; i < 4096; ++i)
    noise.push_back(static_cast<char>((i * 2654435761u) >> 13));
  EXPECT_NE(errorOf(parseZeInfo(noise)), "");
}

} // namespace
