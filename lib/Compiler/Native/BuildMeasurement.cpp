//===- BuildMeasurement.cpp - what one build measured
//-----------------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// Turns a worker's response into measurements: the zebin's facts, spills
// from .ze_info or the build log, and IGC's resource-overflow messages.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/GRFBuild.h"
#include "XPUCodegen/Compiler/Native/Zebin.h"
#include "XPUCodegen/Compiler/Worker/BuildLog.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace mlir::xpu;

char OutOfResourcesError::ID = 0;

std::optional<std::pair<int64_t, int64_t>>
mlir::xpu::parseScratchOverflow(StringRef log) {
  // Newer IGC: "total scratch space exceeds HW supported limit for kernel K:
  // 587264 bytes (max permitted PTSS 262144 bytes)". Older phrasings name
  // the PTSS limit without sizes.
  static const Regex sized("total scratch space[^0-9]*([0-9]+) bytes[^0-9]*"
                           "max permitted PTSS ([0-9]+) bytes");
  SmallVector<StringRef, 3> match;
  if (sized.match(log, &match)) {
    int64_t required = 0, limit = 0;
    (void)match[1].getAsInteger(10, required);
    (void)match[2].getAsInteger(10, limit);
    return std::make_pair(required, limit);
  }
  for (StringRef phrase : {"exceeding max permitted PTSS",
                           "scratch space exceeds", "total scratch space"})
    if (log.contains(phrase))
      return std::make_pair(int64_t(0), int64_t(0));
  return std::nullopt;
}

namespace {
/// One spill warning with the RetryManager attempt it belongs to.
struct AttemptSpill {
  LogSpill spill;
  unsigned attempt;
};

/// Follows IGC 2.x's RetryManager through a build log: "Start recompilation"
/// opens a kernel's next attempt, "Used previous version" drops back to the
/// one before. Warnings of an attempt IGC threw away describe no binary.
class SpillLogReader {
public:
  explicit SpillLogReader(unsigned grfBytes) : grfBytes(grfBytes) {}

  void readLine(StringRef line);
  std::vector<LogSpill> takeFinalSpills();
  std::vector<std::string> getKeptPreviousKernels() const;

private:
  void readSpillWarning(StringRef kernel, ArrayRef<StringRef> figures);

  unsigned grfBytes;
  std::vector<AttemptSpill> spills;
  StringMap<unsigned> attempts;
  StringMap<bool> keptPrevious;
};
} // namespace

void SpillLogReader::readLine(StringRef line) {
  // IGC 1.0.12504: "warning: kernel K  compiled SIMD32 allocated 128 regs and
  // spilled around 580"; IGC 2.40: "warning: in kernel 'K': compiled SIMD32
  // allocated 128 regs and spilled around 90". The count is in GRF-sized
  // units (docs/SpillMeasurement.md).
  static const Regex warning(
      "kernel '?([^[:space:]':]+)'?:?[[:space:]]+compiled SIMD([0-9]+) "
      "allocated ([0-9]+) regs and spilled around ([0-9]+)");
  static const Regex retry("kernel '?([^[:space:]':]+)'?:?[[:space:]]+"
                           "\\[RetryManager\\] (Start recompilation|Used "
                           "previous version)");
  SmallVector<StringRef, 5> match;
  if (warning.match(line, &match))
    return readSpillWarning(match[1], ArrayRef(match).drop_front(2));
  if (!retry.match(line, &match))
    return;
  unsigned &attempt = attempts[match[1]];
  if (match[2].starts_with("Start")) {
    ++attempt;
    keptPrevious[match[1]] = false;
    return;
  }
  // "Used previous version": the retry's figures describe a thrown-away
  // binary; the kept one is the attempt before it.
  erase_if(spills, [&](const AttemptSpill &s) {
    return s.spill.kernel == match[1] && s.attempt == attempt;
  });
  if (attempt > 0)
    --attempt;
  keptPrevious[match[1]] = true;
}

void SpillLogReader::readSpillWarning(StringRef kernel,
                                      ArrayRef<StringRef> figures) {
  LogSpill spill;
  spill.kernel = kernel.str();
  uint64_t units;
  // Bounded so that units * grfBytes cannot overflow.
  if (figures[0].getAsInteger(10, spill.simd) ||
      figures[1].getAsInteger(10, spill.allocatedRegs) ||
      figures[2].getAsInteger(10, units) || units > (uint64_t(1) << 40))
    return;
  spill.spillBytes = static_cast<int64_t>(units * grfBytes);
  spills.push_back({std::move(spill), attempts.lookup(kernel)});
}

std::vector<LogSpill> SpillLogReader::takeFinalSpills() {
  std::vector<LogSpill> result;
  for (AttemptSpill &s : spills)
    if (s.attempt == attempts.lookup(s.spill.kernel))
      result.push_back(std::move(s.spill));
  spills.clear();
  return result;
}

std::vector<std::string> SpillLogReader::getKeptPreviousKernels() const {
  std::vector<std::string> kernels;
  for (const auto &entry : keptPrevious)
    if (entry.second)
      kernels.push_back(entry.first().str());
  llvm::sort(kernels);
  return kernels;
}

std::vector<LogSpill> mlir::xpu::parseSpillWarnings(StringRef log,
                                                    unsigned grfBytes) {
  SpillLogReader reader(grfBytes);
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines)
    reader.readLine(line);
  return reader.takeFinalSpills();
}

std::vector<std::string> mlir::xpu::parseKeptPreviousVersions(StringRef log) {
  SpillLogReader reader(/*grfBytes=*/1);
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines)
    reader.readLine(line);
  return reader.getKeptPreviousKernels();
}

std::vector<std::string> mlir::xpu::parseSIMDDrops(StringRef log) {
  static const Regex drop("kernel '?([^[:space:]':]+)'?:? we couldn't compile "
                          "without exceeding max permitted PTSS, drop SIMD");
  std::vector<std::string> kernels;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef, 2> match;
    if (drop.match(line, &match))
      kernels.push_back(match[1].str());
  }
  return kernels;
}

/// The build log's spill warning for `kernel`, or null when IGC printed none
/// (it is silent for kernels that do not spill). When IGC reports several
/// SIMD variants, the one matching the binary wins.
static const LogSpill *findLogSpill(ArrayRef<LogSpill> spills,
                                    const ZebinKernel &kernel) {
  const LogSpill *found = nullptr;
  for (const LogSpill &spill : spills) {
    if (spill.kernel != kernel.name)
      continue;
    if (!found || spill.simd == kernel.simd)
      found = &spill;
  }
  return found;
}

/// The kernel's spill in bytes, the binary's own: .ze_info's spill_size
/// where the compiler writes the field (absent means none); the build log's
/// warning only for IGC 1.0.12504, whose .ze_info has no such field. IGC's
/// "spilled around N" is a floor (at least 1 for any spill or fill
/// instruction) and only describes the last try, so where both exist a
/// disagreement is named in `note`, never taken over the binary.
static Expected<int64_t> getKernelSpill(ArrayRef<LogSpill> spills,
                                        ArrayRef<std::string> keptPrevious,
                                        const ZebinKernel &kernel,
                                        bool zeInfoHasSpill,
                                        std::string &note) {
  const LogSpill *logged = findLogSpill(spills, kernel);
  if (zeInfoHasSpill) {
    int64_t bytes = kernel.spillSize.value_or(0);
    if (logged && logged->spillBytes != bytes)
      note = formatv("IGC's build log says SIMD{0} spilled around {1} bytes; "
                     "the binary's .ze_info spill_size is {2}: the binary's "
                     "figure is reported",
                     logged->simd, logged->spillBytes, bytes);
    return bytes;
  }
  if (kernel.spillSize)
    return *kernel.spillSize;
  // IGC kept an earlier attempt whose figures it never printed: without
  // .ze_info there is nothing to measure the binary by.
  if (!logged && is_contained(keptPrevious, kernel.name))
    return createStringError(
        inconvertibleErrorCode(),
        formatv("kernel '{0}': IGC kept an earlier build (RetryManager) "
                "whose spill the log does not give, and .ze_info has no "
                "spill_size",
                kernel.name));
  return logged ? logged->spillBytes : 0;
}

/// One kernel's measurement from the zebin, the worker's properties and the
/// build log.
static Expected<KernelMeasurement>
measureKernel(const ZebinKernel &kernel, const WorkerResponse &response,
              ArrayRef<LogSpill> logSpills, ArrayRef<std::string> keptPrevious,
              bool zeInfoHasSpill) {
  KernelMeasurement m;
  m.name = kernel.name;
  m.grfCount = kernel.grfCount;
  m.simd = kernel.simd;
  m.scratchSize = kernel.scratchSize;
  m.privateSize = kernel.privateSize;
  // Level Zero's spillMemSize is deliberately not used: NEO 22.43 reports
  // the scratch size there, which includes private arrays, and newer NEO
  // copies .ze_info spill_size, which is read directly.
  if (auto it = find_if(response.kernels,
                        [&](const WorkerKernelProperties &p) {
                          return p.name == kernel.name;
                        });
      it != response.kernels.end())
    m.privateSize = std::max<int64_t>(m.privateSize, it->privateMemSize);
  Expected<int64_t> spill = getKernelSpill(logSpills, keptPrevious, kernel,
                                           zeInfoHasSpill, m.spillNote);
  if (!spill)
    return spill.takeError();
  m.spillSize = *spill;
  m.nSpills = m.simd > 0 ? m.spillSize / (4 * m.simd) : 0;
  return m;
}

/// The log a build keeps (cache entries too): bounded (BuildLog.h), with
/// the lines read back later that the bound dropped: BuildMemo::narrowed
/// reads IGC's SIMD drops from it.
static std::string getKeptLog(StringRef log) {
  std::string kept = boundBuildLog(log);
  if (kept.size() == log.size() ||
      parseSIMDDrops(kept).size() == parseSIMDDrops(log).size())
    return kept;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    if (parseSIMDDrops(line).empty())
      continue;
    kept += line;
    kept += '\n';
  }
  return kept;
}

Expected<BuildAttempt> mlir::xpu::measureBuild(BuildGRF mode,
                                               StringRef buildFlags,
                                               const WorkerResponse &response,
                                               unsigned grfBytes) {
  // The log is parsed whole (facts need every line); messages, reports and
  // cache entries get a bounded excerpt.
  auto withLog = [&](const Twine &message) {
    std::string text = message.str();
    StringRef log = StringRef(response.log).trim();
    if (!log.empty())
      text += "\nbuild log:\n" + boundBuildLog(log);
    return createStringError(inconvertibleErrorCode(), text);
  };
  if (!response.succeeded) {
    if (auto overflow = parseScratchOverflow(response.log)) {
      std::string message = toString(
          withLog(Twine(stringifyBuildGRF(mode)) +
                  " build: IGC reports per-thread scratch space over the "
                  "hardware limit"));
      return make_error<OutOfResourcesError>(kScratchResource, overflow->first,
                                             overflow->second, message);
    }
    return withLog(Twine(stringifyBuildGRF(mode)) + " build failed (code " +
                   Twine(response.returnCode) + ")");
  }
  StringRef bytes(response.binary.data(), response.binary.size());
  Expected<ZebinInfo> info = readZebin(bytes);
  // A zebin that lists kernels (or has no .ze_info at all) but no code for
  // them; a module without kernels is a different failure (reported below).
  if (isDegenerateZebin(bytes) && (!info || !info->kernels.empty())) {
    if (!info)
      consumeError(info.takeError());
    return make_error<OutOfResourcesError>(
        kScratchResource, 0, 0,
        toString(withLog(Twine(stringifyBuildGRF(mode)) +
                         " build produced a degenerate zebin (no .text or "
                         ".symtab section): IGC dropped the kernels, as it "
                         "does on a per-thread scratch space overflow")));
  }
  if (!info)
    return withLog(
        Twine(stringifyBuildGRF(mode)) +
        " build produced an unreadable binary: " + toString(info.takeError()));
  if (info->kernels.empty())
    return withLog(Twine(stringifyBuildGRF(mode)) +
                   " build produced a binary without kernels");

  BuildAttempt attempt;
  attempt.mode = mode;
  attempt.buildFlags = buildFlags.str();
  attempt.binary = response.binary;
  attempt.log = getKeptLog(response.log);
  attempt.compileMs = response.compileMs;

  std::vector<LogSpill> logSpills = parseSpillWarnings(response.log, grfBytes);
  std::vector<std::string> keptPrevious =
      parseKeptPreviousVersions(response.log);
  for (const ZebinKernel &kernel : info->kernels) {
    // IGC adds this one for programs that use its 2-D block builtins; it is
    // not the user's kernel and is never launched.
    if (kernel.name == "Intel_Symbol_Table_Void_Program")
      continue;
    Expected<KernelMeasurement> m = measureKernel(
        kernel, response, logSpills, keptPrevious, info->hasSpillSizeField());
    if (!m)
      return withLog(Twine(stringifyBuildGRF(mode)) +
                     " build: " + toString(m.takeError()));
    attempt.spillSize = std::max(attempt.spillSize, m->spillSize);
    attempt.kernels.push_back(std::move(*m));
  }
  return attempt;
}

Error mlir::xpu::checkBuildFacts(const BuildAttempt &attempt,
                                 ArrayRef<int64_t> grfCounts) {
  int64_t nRegs = getNRegs(attempt.mode);
  for (const KernelMeasurement &kernel : attempt.kernels) {
    auto fail = [&](const Twine &message) {
      return createStringError(inconvertibleErrorCode(),
                               Twine(stringifyBuildGRF(attempt.mode)) +
                                   " build: kernel '" + kernel.name + "' " +
                                   message);
    };
    if (!is_contained(grfCounts, kernel.grfCount))
      return fail("has grf_count " + Twine(kernel.grfCount) +
                  ", not a register count of this device (" +
                  join(map_range(grfCounts,
                                 [](int64_t n) { return std::to_string(n); }),
                       ", ") +
                  ")");
    if (nRegs && kernel.grfCount != nRegs)
      return fail("has grf_count " + Twine(kernel.grfCount) +
                  " but its flags pin " + Twine(nRegs) +
                  " registers (n_regs); the binary does not match the mode");
    if (!is_contained({8, 16, 32}, kernel.simd))
      return fail("has simd " + Twine(kernel.simd) +
                  ", not a SIMD width (8, 16 or 32)");
  }
  return Error::success();
}

Error mlir::xpu::checkBuildKernels(const BuildAttempt &attempt,
                                   ArrayRef<std::string> entryPoints) {
  SmallVector<StringRef> built,
      expected(entryPoints.begin(), entryPoints.end());
  for (const KernelMeasurement &kernel : attempt.kernels)
    built.push_back(kernel.name);
  llvm::sort(built);
  llvm::sort(expected);
  if (built == expected)
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      formatv("{0} build: the binary's kernels ({1}) are not the module's "
              "entry points ({2}): a stale or foreign binary",
              stringifyBuildGRF(attempt.mode), join(built, ", "),
              join(expected, ", "))
          .str());
}
