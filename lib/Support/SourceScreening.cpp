//===- SourceScreening.cpp - Refuse MLIR text upstream code cannot take ---===//
//
// Part of the XPUCodegen project.
//
//===----------------------------------------------------------------------===//

#include "XPUCodegen/Support/SourceScreening.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir::xpu;

namespace {

bool isTokenChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

/// A single left-to-right pass over the text that tracks what upstream's
/// recursive code will nest: open brackets, the affine operators inside
/// them (`d0 + d0 + ...` parses, prints and simplifies as a chain of that
/// depth) and the depth of every alias that is used (`#a1 = [#a0]`).
class Screen {
public:
  explicit Screen(llvm::StringRef text) : text(text) {}

  std::optional<SourceRefusal> run();

private:
  /// One open bracket: the affine operators seen in it so far.
  struct Group {
    unsigned operators = 0;
  };

  char at(size_t i) const { return i < text.size() ? text[i] : '\0'; }
  /// The last character before `i` that is not a blank.
  char previousSignificant(size_t i) const;
  bool atStatementStart(size_t i) const;

  void refuse(size_t offset, const llvm::Twine &message);
  /// Refuses when `depth` is deeper than allowed; `what` names what nests.
  void checkDepth(size_t offset, unsigned depth, llvm::StringRef what);
  unsigned currentDepth() const { return groups.size() + openOperators; }

  void skipString();
  void open(size_t offset);
  void close();
  void addOperator(size_t offset);
  void handleMinus();
  void handleToken();
  void handleAliasUse(llvm::StringRef name, size_t offset);
  void handleLayoutField(llvm::StringRef field);
  /// The integers of `[a, b]` or `array<i32: a, b>` at `pos` (after `=`).
  bool readIntegerList(size_t &pos, llvm::SmallVectorImpl<int64_t> &values,
                       llvm::SmallVectorImpl<size_t> &offsets);

  llvm::StringRef text;
  size_t pos = 0;
  llvm::SmallVector<Group> groups;
  unsigned openOperators = 0;
  /// How deep each alias defined so far nests.
  llvm::StringMap<unsigned> aliasDepths;
  /// The alias being defined, while its definition is open.
  std::optional<llvm::StringRef> definedAlias;
  /// While inside `#xegpu.layout<...>`: the group count at its `<`.
  std::optional<size_t> layoutGroup;
  std::optional<SourceRefusal> refusal;
};

char Screen::previousSignificant(size_t i) const {
  while (i > 0) {
    char c = text[--i];
    if (c != ' ' && c != '\t' && c != '\r')
      return c;
  }
  return '\n';
}

bool Screen::atStatementStart(size_t i) const {
  return groups.empty() && previousSignificant(i) == '\n';
}

void Screen::refuse(size_t offset, const llvm::Twine &message) {
  if (refusal)
    return;
  llvm::StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  refusal = SourceRefusal{static_cast<unsigned>(before.count('\n') + 1),
                          static_cast<unsigned>(offset - lineStart + 1),
                          message.str()};
}

void Screen::checkDepth(size_t offset, unsigned depth, llvm::StringRef what) {
  if (definedAlias) {
    unsigned &aliasDepth = aliasDepths[*definedAlias];
    aliasDepth = std::max(aliasDepth, depth);
  }
  if (depth > kMaxSourceNesting)
    refuse(offset, llvm::formatv("{0} nest deeper than {1} levels", what,
                                 kMaxSourceNesting));
}

void Screen::skipString() {
  // A string literal ends at its closing quote or the end of the line.
  while (pos + 1 < text.size() && text[pos + 1] != '"' && text[pos + 1] != '\n')
    pos += text[pos + 1] == '\\' && at(pos + 2) != '\n' ? 2 : 1;
  if (at(pos + 1) == '"')
    ++pos;
}

void Screen::open(size_t offset) {
  groups.emplace_back();
  checkDepth(offset, currentDepth(), "brackets");
}

void Screen::close() {
  if (groups.empty())
    return;
  openOperators -= groups.back().operators;
  groups.pop_back();
  if (layoutGroup && groups.size() <= *layoutGroup)
    layoutGroup.reset();
}

void Screen::addOperator(size_t offset) {
  if (groups.empty())
    return;
  ++groups.back().operators;
  ++openOperators;
  checkDepth(offset, currentDepth(), "expressions");
}

/// A `-` is binary (or a chained unary minus, which nests as deep) after an
/// operand or another operator; after `[`, `,`, `=` it starts a number.
void Screen::handleMinus() {
  char next = at(pos + 1);
  if (next == '>')
    return;
  char previous = previousSignificant(pos);
  if (isTokenChar(previous) || previous == ')' || previous == ']' ||
      previous == '+' || previous == '-' || previous == '*')
    addOperator(pos);
}

void Screen::handleAliasUse(llvm::StringRef name, size_t offset) {
  auto found = aliasDepths.find(name);
  if (found == aliasDepths.end())
    return;
  checkDepth(offset, currentDepth() + found->second, "aliases");
}

void Screen::handleToken() {
  size_t start = pos;
  char sigil = start > 0 ? text[start - 1] : '\0';
  size_t end = start;
  while (end < text.size() && isTokenChar(text[end]))
    ++end;
  // The sign of a float's exponent belongs to the number (1.0e+5).
  if (llvm::isDigit(text[start]) && end > start &&
      (text[end - 1] == 'e' || text[end - 1] == 'E') &&
      (at(end) == '+' || at(end) == '-') && llvm::isDigit(at(end + 1))) {
    end += 1;
    while (end < text.size() && isTokenChar(text[end]))
      ++end;
  }
  llvm::StringRef token = text.slice(start, end);
  pos = end - 1;

  if (sigil == '#' || sigil == '!') {
    if (atStatementStart(start - 1) &&
        text.drop_front(end).ltrim(" \t").starts_with("=")) {
      definedAlias = token;
      aliasDepths[token] = 0;
      return;
    }
    handleAliasUse(token, start - 1);
    if (sigil == '#' && token == "xegpu.layout" && at(end) == '<')
      layoutGroup = groups.size();
    return;
  }
  if (sigil == '%' || sigil == '@' || sigil == '^')
    return;
  if (token == "floordiv" || token == "ceildiv" || token == "mod") {
    addOperator(start);
    return;
  }
  if (layoutGroup && groups.size() == *layoutGroup + 1)
    handleLayoutField(token);
}

bool Screen::readIntegerList(size_t &cursor,
                             llvm::SmallVectorImpl<int64_t> &values,
                             llvm::SmallVectorImpl<size_t> &offsets) {
  auto skipBlanks = [&] {
    while (cursor < text.size() && llvm::isSpace(text[cursor]))
      ++cursor;
  };
  skipBlanks();
  char close;
  if (at(cursor) == '[') {
    close = ']';
    ++cursor;
  } else if (text.drop_front(cursor).starts_with("array<")) {
    close = '>';
    cursor = text.find(':', cursor);
    if (cursor == llvm::StringRef::npos)
      return false;
    ++cursor;
  } else {
    return false;
  }
  for (;;) {
    skipBlanks();
    if (at(cursor) == close)
      return true;
    size_t start = cursor;
    if (at(cursor) == '-')
      ++cursor;
    while (llvm::isDigit(at(cursor)))
      ++cursor;
    int64_t value;
    if (text.slice(start, cursor).getAsInteger(10, value))
      return false;
    values.push_back(value);
    offsets.push_back(start);
    skipBlanks();
    if (at(cursor) == ',')
      ++cursor;
    else if (at(cursor) != close)
      return false;
  }
}

/// Upstream divides by these fields (computeShapeRatio in
/// TensorDescType::verify and the layout-consuming op verifiers) and
/// indexes with `order`; its LayoutAttr::verify checks only their ranks.
void Screen::handleLayoutField(llvm::StringRef field) {
  bool isOrder = field == "order";
  if (!isOrder && !llvm::is_contained({"sg_layout", "sg_data", "inst_data",
                                       "lane_layout", "lane_data"},
                                      field))
    return;
  size_t cursor = pos + 1;
  while (cursor < text.size() && llvm::isSpace(text[cursor]))
    ++cursor;
  if (at(cursor) != '=')
    return;
  ++cursor;
  llvm::SmallVector<int64_t> values;
  llvm::SmallVector<size_t> offsets;
  if (!readIntegerList(cursor, values, offsets))
    return; // Not a list of integers: upstream's parser reports it.
  for (auto [value, offset] : llvm::zip(values, offsets)) {
    if (!isOrder && value < 1)
      return refuse(offset, "xegpu layout field '" + field +
                                "' must be positive, got " +
                                llvm::Twine(value));
    if (isOrder && (value < 0 || value >= static_cast<int64_t>(values.size()) ||
                    llvm::count(values, value) != 1))
      return refuse(offset,
                    "xegpu layout field 'order' must be a permutation of 0.." +
                        llvm::Twine(values.size() - 1) + ", got " +
                        llvm::Twine(value));
  }
}

std::optional<SourceRefusal> Screen::run() {
  for (; pos < text.size() && !refusal; ++pos) {
    char c = text[pos];
    char next = at(pos + 1);
    switch (c) {
    case '"':
      skipString();
      break;
    case '/':
      if (next == '/')
        while (pos + 1 < text.size() && text[pos + 1] != '\n')
          ++pos;
      break;
    case '<':
      if (next != '=')
        open(pos);
      break;
    case '(':
    case '[':
    case '{':
      open(pos);
      break;
    case '>':
      // `>=` compares and `->` is an arrow; neither closes a bracket.
      if (next != '=' && (pos == 0 || text[pos - 1] != '-'))
        close();
      break;
    case ')':
    case ']':
    case '}':
      close();
      break;
    case '+':
    case '*':
      addOperator(pos);
      break;
    case '-':
      handleMinus();
      break;
    case '\n':
      // An alias definition ends with its line once its brackets closed.
      if (groups.empty())
        definedAlias.reset();
      break;
    default:
      if (isTokenChar(c))
        handleToken();
      break;
    }
  }
  return refusal;
}

} // namespace

std::optional<SourceRefusal> mlir::xpu::screenSource(llvm::StringRef text) {
  // Bytecode is not text: its bytes (a dense constant of '[' bytes, say)
  // are no brackets. It starts with MLIR's bytecode magic (mlir::isBytecode,
  // which this MLIR-free library cannot call).
  if (text.starts_with("ML\xEFR"))
    return std::nullopt;
  return Screen(text).run();
}
