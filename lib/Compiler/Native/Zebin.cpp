//===- Zebin.cpp - Read Intel GPU native binaries (zebin) -----------------===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//
//
// The ELF container is read with llvm::object and the .ze_info YAML with
// llvm::yaml's node-level parser. Binaries come from a compiler that may be
// handed corrupt input, so every malformed field is an llvm::Error.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Compiler/Native/Zebin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::xpu;

namespace {

/// Larger than any real per-thread buffer; keeps arithmetic on corrupt
/// values far from overflow.
constexpr int64_t kMaxBufferSize = int64_t(1) << 40;

/// Deepest nesting of .ze_info collections accepted. LLVM's YAML parser
/// skips a collection nobody read by recursing into it, so a .ze_info nested
/// a few hundred thousand levels deep would overflow any stack; real ones
/// nest fewer than ten levels.
constexpr size_t kMaxZeInfoDepth = 256;
/// Far above any real .ze_info (a few kilobytes per kernel).
constexpr size_t kMaxZeInfoSize = size_t(64) << 20;

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// True when `text` has two flow entry separators with nothing but blanks
/// between them (",,"): not valid YAML, and LLVM's parser recurses once per
/// separator in such a run.
bool hasEmptyFlowEntries(StringRef text) {
  size_t comma = text.find(',');
  while (comma != StringRef::npos) {
    size_t next = text.find_first_not_of(" \t\r\n", comma + 1);
    if (next != StringRef::npos && text[next] == ',')
      return true;
    comma = text.find(',', comma + 1);
  }
  return false;
}

/// Visits every node under `root` with an explicit stack instead of
/// recursion, and fails once collections nest deeper than `maxDepth`. Every
/// collection is iterated to its end before its parent moves on, so the
/// parser's own skipping never recurses either.
bool isNestingBounded(yaml::Node *root, size_t maxDepth) {
  struct Level {
    yaml::Node *node;
    bool started = false;
    yaml::MappingNode::iterator entry;
    yaml::SequenceNode::iterator item;
    unsigned part = 0; // Key-value pairs: the next part to visit.
  };
  SmallVector<Level> stack;
  if (root)
    stack.push_back({root});
  while (!stack.empty()) {
    Level &level = stack.back();
    yaml::Node *child = nullptr;
    if (auto *map = dyn_cast<yaml::MappingNode>(level.node)) {
      if (!level.started)
        level.entry = map->begin();
      else
        ++level.entry;
      if (level.entry != map->end())
        child = &*level.entry;
    } else if (auto *seq = dyn_cast<yaml::SequenceNode>(level.node)) {
      if (!level.started)
        level.item = seq->begin();
      else
        ++level.item;
      if (level.item != seq->end())
        child = &*level.item;
    } else if (auto *pair = dyn_cast<yaml::KeyValueNode>(level.node)) {
      // The key, then the value.
      while (!child && level.part < 2)
        child = level.part++ == 0 ? pair->getKey() : pair->getValue();
    }
    level.started = true;
    if (!child) {
      stack.pop_back();
      continue;
    }
    if (stack.size() >= maxDepth)
      return false;
    stack.push_back({child});
  }
  return true;
}

/// Walks the .ze_info document. The first problem found is kept in `error`
/// and stops the walk; the YAML parser's own diagnostics arrive through the
/// SourceMgr handler instead of being printed.
class ZeInfoParser {
public:
  explicit ZeInfoParser(StringRef text) : text(text) {
    sourceMgr.setDiagHandler(
        [](const SMDiagnostic &diag, void *context) {
          auto *self = static_cast<ZeInfoParser *>(context);
          if (self->yamlError.empty())
            self->yamlError =
                (Twine(diag.getLineNo()) + ":" + Twine(diag.getColumnNo() + 1) +
                 ": " + diag.getMessage())
                    .str();
        },
        this);
  }

  Expected<ZebinInfo> parse();

private:
  bool fail(const Twine &message) {
    if (error.empty())
      error = message.str();
    return false;
  }
  bool failed() const { return !error.empty() || !yamlError.empty(); }

  /// The scalar text of `node`, or an error naming `what`.
  std::optional<StringRef> getScalar(yaml::Node *node, StringRef what);
  std::optional<int64_t> getInteger(yaml::Node *node, StringRef what);
  std::optional<StringRef> getKey(yaml::KeyValueNode &entry);

  bool parseKernel(yaml::Node *node, ZebinKernel &kernel);
  bool parseExecutionEnv(yaml::Node *node, ZebinKernel &kernel);
  /// Adds the kernel's scratch and private buffers; private buffers given
  /// per SIMD lane are summed into `privatePerLane`.
  bool parseMemoryBuffers(yaml::Node *node, ZebinKernel &kernel,
                          int64_t &privatePerLane);

  StringRef text;
  SourceMgr sourceMgr;
  std::string error;
  std::string yamlError;
  /// Storage for scalars that needed unescaping; nodes borrow from it.
  SmallVector<std::unique_ptr<SmallString<32>>> scalarStorage;
};

} // namespace

std::optional<StringRef> ZeInfoParser::getScalar(yaml::Node *node,
                                                 StringRef what) {
  auto *scalar = dyn_cast_or_null<yaml::ScalarNode>(node);
  if (!scalar) {
    fail(Twine("'") + what + "' is not a scalar");
    return std::nullopt;
  }
  scalarStorage.push_back(std::make_unique<SmallString<32>>());
  return scalar->getValue(*scalarStorage.back());
}

std::optional<int64_t> ZeInfoParser::getInteger(yaml::Node *node,
                                                StringRef what) {
  std::optional<StringRef> value = getScalar(node, what);
  if (!value)
    return std::nullopt;
  int64_t result;
  // Sizes and counts are never negative; a negative value is corruption.
  if (value->trim().getAsInteger(0, result) || result < 0) {
    fail(Twine("'") + what + "' is not a non-negative integer: '" + *value +
         "'");
    return std::nullopt;
  }
  return result;
}

std::optional<StringRef> ZeInfoParser::getKey(yaml::KeyValueNode &entry) {
  return getScalar(entry.getKey(), "mapping key");
}

bool ZeInfoParser::parseExecutionEnv(yaml::Node *node, ZebinKernel &kernel) {
  auto *map = dyn_cast_or_null<yaml::MappingNode>(node);
  if (!map)
    return fail("'execution_env' of kernel '" + kernel.name +
                "' is not a mapping");
  bool sawGRF = false, sawSimd = false;
  for (yaml::KeyValueNode &entry : *map) {
    std::optional<StringRef> key = getKey(entry);
    if (!key)
      return false;
    if (*key != "grf_count" && *key != "simd_size" && *key != "spill_size")
      continue;
    std::optional<int64_t> value = getInteger(entry.getValue(), *key);
    if (!value)
      return false;
    if (*key == "grf_count") {
      kernel.grfCount = *value;
      sawGRF = true;
    } else if (*key == "simd_size") {
      kernel.simd = *value;
      sawSimd = true;
    } else {
      kernel.spillSize = *value;
    }
  }
  if (failed())
    return false;
  if (!sawGRF || !sawSimd)
    return fail("kernel '" + kernel.name + "' has no execution_env." +
                (sawGRF ? "simd_size" : "grf_count"));
  return true;
}

bool ZeInfoParser::parseMemoryBuffers(yaml::Node *node, ZebinKernel &kernel,
                                      int64_t &privatePerLane) {
  auto *list = dyn_cast_or_null<yaml::SequenceNode>(node);
  if (!list)
    return fail("'per_thread_memory_buffers' of kernel '" + kernel.name +
                "' is not a sequence");
  for (yaml::Node &item : *list) {
    auto *buffer = dyn_cast<yaml::MappingNode>(&item);
    if (!buffer)
      return fail("a per_thread_memory_buffers entry of kernel '" +
                  kernel.name + "' is not a mapping");
    std::optional<StringRef> type;
    std::optional<int64_t> size;
    bool perLane = false;
    for (yaml::KeyValueNode &entry : *buffer) {
      std::optional<StringRef> key = getKey(entry);
      if (!key)
        return false;
      if (*key == "type") {
        if (!(type = getScalar(entry.getValue(), "type")))
          return false;
      } else if (*key == "size") {
        if (!(size = getInteger(entry.getValue(), "size")))
          return false;
      } else if (*key == "is_simt_thread") {
        std::optional<StringRef> value =
            getScalar(entry.getValue(), "is_simt_thread");
        if (!value)
          return false;
        perLane = *value == "true";
      }
    }
    if (failed())
      return false;
    if (!type || !size)
      return fail("a per_thread_memory_buffers entry of kernel '" +
                  kernel.name + "' has no " + (type ? "size" : "type"));
    // Bound each size so that sums (and the scaling by simd) cannot overflow
    // on a corrupt binary.
    if (*size > kMaxBufferSize)
      return fail("a per_thread_memory_buffers entry of kernel '" +
                  kernel.name + "' is implausibly large: " + Twine(*size));
    if (*type == "scratch")
      kernel.scratchSize += *size;
    else if (*type == "private")
      (perLane ? privatePerLane : kernel.privateSize) += *size;
  }
  return !failed();
}

bool ZeInfoParser::parseKernel(yaml::Node *node, ZebinKernel &kernel) {
  auto *map = dyn_cast_or_null<yaml::MappingNode>(node);
  if (!map)
    return fail("a 'kernels' entry is not a mapping");
  bool sawEnv = false;
  int64_t privatePerLane = 0;
  for (yaml::KeyValueNode &entry : *map) {
    std::optional<StringRef> key = getKey(entry);
    if (!key)
      return false;
    if (*key == "name") {
      std::optional<StringRef> name = getScalar(entry.getValue(), "name");
      if (!name)
        return false;
      kernel.name = name->str();
    } else if (*key == "execution_env") {
      sawEnv = true;
      if (!parseExecutionEnv(entry.getValue(), kernel))
        return false;
    } else if (*key == "per_thread_memory_buffers") {
      if (!parseMemoryBuffers(entry.getValue(), kernel, privatePerLane))
        return false;
    }
  }
  if (failed())
    return false;
  if (kernel.name.empty())
    return fail("a kernel in .ze_info has no name");
  if (!sawEnv)
    return fail("kernel '" + kernel.name + "' has no execution_env");
  // Newer IGC may give private memory per SIMD lane (is_simt_thread); the
  // contract is per hardware thread. simd_size may follow the buffers.
  if (kernel.simd > 1024)
    return fail("kernel '" + kernel.name + "' has an implausible simd_size " +
                Twine(kernel.simd));
  kernel.privateSize += privatePerLane * std::max<int64_t>(kernel.simd, 1);
  return true;
}

Expected<ZebinInfo> ZeInfoParser::parse() {
  if (text.size() > kMaxZeInfoSize)
    return makeError(formatv("malformed .ze_info: {0} bytes exceeds the {1} "
                             "byte limit",
                             text.size(), kMaxZeInfoSize));
  if (hasEmptyFlowEntries(text))
    return makeError("malformed .ze_info: empty flow collection entries "
                     "(',,')");
  // A first pass over the (only) document bounds its depth before anything
  // may recurse over it.
  {
    yaml::Stream stream(text, sourceMgr);
    yaml::document_iterator doc = stream.begin();
    if (doc != stream.end() &&
        !isNestingBounded(doc->getRoot(), kMaxZeInfoDepth))
      return makeError(formatv("malformed .ze_info: nests deeper than {0} "
                               "levels",
                               kMaxZeInfoDepth));
    if (!yamlError.empty())
      return makeError("malformed .ze_info YAML: " + yamlError);
  }

  ZebinInfo info;
  yaml::Stream stream(text, sourceMgr);
  yaml::document_iterator doc = stream.begin();
  yaml::Node *root = doc != stream.end() ? doc->getRoot() : nullptr;
  auto *map = dyn_cast_or_null<yaml::MappingNode>(root);
  if (!map && !failed())
    fail(isa_and_nonnull<yaml::NullNode>(root)
             ? "the document is empty"
             : "the document is not a mapping");
  bool sawKernels = false;
  if (map) {
    for (yaml::KeyValueNode &entry : *map) {
      std::optional<StringRef> key = getKey(entry);
      if (!key)
        break;
      if (*key == "version") {
        std::optional<StringRef> version =
            getScalar(entry.getValue(), "version");
        if (!version)
          break;
        info.zeInfoVersion = version->str();
      } else if (*key == "kernels") {
        sawKernels = true;
        auto *list = dyn_cast_or_null<yaml::SequenceNode>(entry.getValue());
        if (!list) {
          fail("'kernels' is not a sequence");
          break;
        }
        for (yaml::Node &item : *list) {
          ZebinKernel kernel;
          if (!parseKernel(&item, kernel))
            break;
          info.kernels.push_back(std::move(kernel));
        }
        if (failed())
          break;
      }
    }
  }
  if (!yamlError.empty())
    return makeError("malformed .ze_info YAML: " + yamlError);
  if (!error.empty())
    return makeError("malformed .ze_info: " + error);
  if (!sawKernels)
    return makeError("malformed .ze_info: no 'kernels' list");
  return info;
}

bool ZebinInfo::hasSpillSizeField() const {
  auto [major, minor] = StringRef(zeInfoVersion).split('.');
  unsigned majorNumber = 0, minorNumber = 0;
  if (major.getAsInteger(10, majorNumber) ||
      minor.getAsInteger(10, minorNumber))
    return false;
  return majorNumber > 1 || (majorNumber == 1 && minorNumber >= 39);
}

Expected<ZebinInfo> mlir::xpu::parseZeInfo(StringRef zeInfo) {
  return ZeInfoParser(zeInfo).parse();
}

Expected<ZebinInfo> mlir::xpu::readZebin(StringRef binary) {
  file_magic magic = identify_magic(binary);
  if (magic != file_magic::elf_relocatable &&
      magic != file_magic::elf_executable &&
      magic != file_magic::elf_shared_object && magic != file_magic::elf)
    return makeError("not a zebin: not an ELF file");
  // Zebins are always 64-bit little-endian.
  if (binary.size() <= ELF::EI_DATA ||
      binary[ELF::EI_CLASS] != ELF::ELFCLASS64 ||
      binary[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return makeError("not a zebin: not a 64-bit little-endian ELF file");

  auto object = object::ELF64LEObjectFile::create(
      MemoryBufferRef(binary, "zebin"), /*InitContent=*/false);
  if (!object)
    return makeError("not a zebin: " + toString(object.takeError()));
  const object::ELF64LEFile &elf = object->getELFFile();

  auto sections = elf.sections();
  if (!sections)
    return makeError("not a zebin: " + toString(sections.takeError()));

  std::optional<StringRef> zeInfo;
  StringMap<int64_t> codeSizes;
  for (const object::ELF64LE::Shdr &section : *sections) {
    Expected<StringRef> name = elf.getSectionName(section);
    if (!name)
      return makeError("not a zebin: " + toString(name.takeError()));
    if (*name == ".ze_info") {
      Expected<ArrayRef<uint8_t>> contents = elf.getSectionContents(section);
      if (!contents)
        return makeError("not a zebin: unreadable .ze_info: " +
                         toString(contents.takeError()));
      zeInfo = toStringRef(*contents);
    } else if (name->starts_with(".text.")) {
      codeSizes[name->drop_front(strlen(".text."))] = section.sh_size;
    }
  }
  if (!zeInfo && elf.getHeader().e_machine == ELF::EM_INTELGT &&
      codeSizes.empty())
    return makeError("the zebin has no kernels (no .ze_info section and no "
                     "kernel code: does the SPIR-V module have an "
                     "OpEntryPoint?)");
  if (!zeInfo)
    return makeError("not a zebin: the ELF file has no .ze_info section "
                     "(a legacy patch-token binary? build with "
                     "-ze-allow-zebin)");

  Expected<ZebinInfo> info = parseZeInfo(*zeInfo);
  if (!info)
    return info.takeError();
  for (ZebinKernel &kernel : info->kernels)
    kernel.codeSize = codeSizes.lookup(kernel.name);
  return info;
}

bool mlir::xpu::isDegenerateZebin(StringRef binary) {
  if (identify_magic(binary) != file_magic::elf_relocatable &&
      identify_magic(binary) != file_magic::elf_executable &&
      identify_magic(binary) != file_magic::elf)
    return false;
  if (binary.size() <= ELF::EI_DATA ||
      binary[ELF::EI_CLASS] != ELF::ELFCLASS64 ||
      binary[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return false;
  bool sawText = false, sawSymtab = false;
  Error error = forEachZebinSection(binary,
                                    [&](const object::ELF64LEFile &,
                                        const object::ELF64LE::Shdr &,
                                        StringRef name) -> Error {
                                      sawText |= name.starts_with(".text.");
                                      sawSymtab |= name == ".symtab";
                                      return Error::success();
                                    });
  if (error) {
    consumeError(std::move(error));
    return false;
  }
  return !sawText || !sawSymtab;
}

Error mlir::xpu::forEachZebinSection(
    StringRef binary,
    function_ref<Error(const object::ELF64LEFile &,
                       const object::ELF64LE::Shdr &, StringRef)>
        visit) {
  auto object = object::ELF64LEObjectFile::create(
      MemoryBufferRef(binary, "zebin"), /*InitContent=*/false);
  if (!object)
    return object.takeError();
  const object::ELF64LEFile &elf = object->getELFFile();
  auto sections = elf.sections();
  if (!sections)
    return sections.takeError();
  for (const object::ELF64LE::Shdr &section : *sections) {
    Expected<StringRef> name = elf.getSectionName(section);
    if (!name)
      return name.takeError();
    if (Error error = visit(elf, section, *name))
      return error;
  }
  return Error::success();
}

/// Section contents by name, for comparing two builds.
static Expected<StringMap<StringRef>> getSectionContents(StringRef binary) {
  StringMap<StringRef> contents;
  Error error = forEachZebinSection(
      binary,
      [&](const object::ELF64LEFile &elf, const object::ELF64LE::Shdr &section,
          StringRef name) -> Error {
        StringRef bytes;
        if (section.sh_type != ELF::SHT_NOBITS) {
          Expected<ArrayRef<uint8_t>> data = elf.getSectionContents(section);
          if (!data)
            return data.takeError();
          bytes = toStringRef(*data);
        }
        // The buffer outlives the map: names and contents point into it.
        contents[name] = bytes;
        return Error::success();
      });
  if (error)
    return std::move(error);
  return contents;
}

Expected<std::vector<std::string>>
mlir::xpu::getDifferingSections(StringRef first, StringRef second) {
  Expected<StringMap<StringRef>> a = getSectionContents(first);
  if (!a)
    return a.takeError();
  Expected<StringMap<StringRef>> b = getSectionContents(second);
  if (!b)
    return b.takeError();
  std::vector<std::string> differing;
  for (const auto &[name, bytes] : *a) {
    auto other = b->find(name);
    if (other == b->end() || other->second != bytes)
      differing.push_back(name.str());
  }
  for (const auto &entry : *b)
    if (!a->contains(entry.getKey()))
      differing.push_back(entry.getKey().str());
  llvm::sort(differing);
  if (differing.empty() && first != second)
    differing.push_back("ELF headers");
  return differing;
}
