//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// Three steps: a lexer that turns the text into tokens (comments, `%%`
// escapes and operand references resolved), a statement reader that skips
// scopes, labels and directives and splits each instruction into its opcode,
// guard and operands, and one decoder per instruction family that checks
// every qualifier and the shape of every operand before it assigns roles.
//
// Above 1,000 lines for a reason: the three steps share the token, operand
// and qualifier types, which are private to this file so that the parser's
// only interface stays PtxParser.h; the decoders are one table-driven
// family each. Split the decoders off once they need a header of their own.
//
//===----------------------------------------------------------------------===//

#include "api/PtxParser.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <limits>

using namespace tma::device;

namespace tma::ptx {

bool Instruction::hasQualifier(std::string_view Q) const {
  return std::find(Qualifiers.begin(), Qualifiers.end(), Q) != Qualifiers.end();
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

namespace {

struct Token {
  enum KindType {
    Word,   ///< an identifier, opcode or directive: Text
    Ref,    ///< %N (Index) or %[name] (Text)
    Number, ///< an integer literal: Num
    Punct,  ///< one of [ ] { } , ; @ ! + - : (Text)
    Error,  ///< anything the PTX we read does not contain
  };
  KindType Kind;
  std::string Text;
  std::optional<unsigned> Index;
  std::uint64_t Num = 0;
  std::size_t Pos = 0;

  bool is(char C) const {
    return Kind == Punct && Text.size() == 1 && Text[0] == C;
  }
};

} // namespace

static bool isWordStart(char C) {
  return std::isalpha(static_cast<unsigned char>(C)) || C == '_' || C == '$' ||
         C == '.';
}

static bool isWordChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '$' ||
         C == '.';
}

/// The length of the word at \p I: word characters, and `::` inside
/// qualifiers such as `shared::cta` (a single `:` ends a label instead).
static std::size_t wordLength(std::string_view S, std::size_t I) {
  std::size_t J = I;
  while (J < S.size()) {
    if (isWordChar(S[J])) {
      ++J;
    } else if (S[J] == ':' && J + 1 < S.size() && S[J + 1] == ':' &&
               J + 2 < S.size() && isWordChar(S[J + 2])) {
      J += 2;
    } else {
      break;
    }
  }
  return J - I;
}

/// Reads the PTX integer literal at \p I (decimal, 0x hex, 0b binary, 0
/// octal, optional U suffix). Sets \p Len to its length; std::nullopt for a
/// malformed or out-of-range literal (or a float such as 0f3F800000).
static std::optional<std::uint64_t>
readInteger(std::string_view S, std::size_t I, std::size_t &Len) {
  unsigned Base = 10;
  std::size_t J = I;
  char Next = I + 1 < S.size() ? S[I + 1] : '\0';
  if (S[I] == '0' && (Next == 'x' || Next == 'X')) {
    Base = 16;
    J += 2;
  } else if (S[I] == '0' && (Next == 'b' || Next == 'B')) {
    Base = 2;
    J += 2;
  } else if (S[I] == '0' && std::isdigit(static_cast<unsigned char>(Next))) {
    Base = 8;
    ++J;
  }
  std::size_t DigitsBegin = J;
  std::uint64_t V = 0;
  for (; J < S.size(); ++J) {
    unsigned D;
    auto C = static_cast<unsigned char>(S[J]);
    if (std::isdigit(C))
      D = C - '0';
    else if (Base == 16 && std::isxdigit(C))
      D = std::tolower(C) - 'a' + 10;
    else
      break;
    if (D >= Base || V > (std::numeric_limits<std::uint64_t>::max() - D) / Base)
      return std::nullopt;
    V = V * Base + D;
  }
  if (J == DigitsBegin)
    return std::nullopt;
  if (J < S.size() && S[J] == 'U')
    ++J;
  if (J < S.size() && isWordChar(S[J]))
    return std::nullopt;
  Len = J - I;
  return V;
}

/// The length of the identifier at \p I. In extended asm an identifier may
/// contain `%=`, which the compiler replaces by a number unique to the asm
/// statement (labels such as `WAIT_%=:`).
static std::size_t identifierLength(std::string_view S, std::size_t I,
                                    bool Extended) {
  std::size_t J = I + wordLength(S, I);
  while (Extended && S.substr(J, 2) == "%=")
    J += 2 + wordLength(S, J + 2);
  return J - I;
}

static std::vector<Token> lex(std::string_view S, bool Extended) {
  std::vector<Token> Toks;
  std::size_t I = 0;
  auto Push = [&](Token::KindType K, std::size_t Pos, std::string Text) {
    Token T{K, std::move(Text), std::nullopt, 0, Pos};
    Toks.push_back(std::move(T));
  };
  while (I < S.size()) {
    char C = S[I];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
      continue;
    }
    if (S.substr(I, 2) == "//") {
      std::size_t E = S.find('\n', I);
      I = E == std::string_view::npos ? S.size() : E;
      continue;
    }
    if (S.substr(I, 2) == "/*") {
      std::size_t E = S.find("*/", I + 2);
      if (E == std::string_view::npos) {
        Push(Token::Error, I, "/*");
        break;
      }
      I = E + 2;
      continue;
    }
    if (C == '%') {
      std::size_t Start = I;
      if (!Extended || (I + 1 < S.size() && S[I + 1] == '%')) {
        // A register such as %r1: literal in basic asm, `%%r1` in extended.
        I += Extended ? 2 : 1;
        std::size_t L = I < S.size() ? identifierLength(S, I, Extended) : 0;
        if (L == 0) {
          Push(Token::Error, Start, "%");
          continue;
        }
        Push(Token::Word, Start, "%" + std::string(S.substr(I, L)));
        I += L;
        continue;
      }
      ++I;
      if (I < S.size() && std::isdigit(static_cast<unsigned char>(S[I]))) {
        std::size_t Len = 0;
        std::optional<std::uint64_t> N = readInteger(S, I, Len);
        if (!N || (S[I] == '0' && Len > 1) || *N > 9999) {
          Push(Token::Error, Start, "%");
          continue;
        }
        Token T{Token::Ref, "", static_cast<unsigned>(*N), 0, Start};
        Toks.push_back(std::move(T));
        I += Len;
        continue;
      }
      if (I < S.size() && S[I] == '[') {
        std::size_t E = S.find(']', I);
        if (E == std::string_view::npos) {
          Push(Token::Error, Start, "%[");
          break;
        }
        Push(E == I + 1 ? Token::Error : Token::Ref, Start,
             std::string(S.substr(I + 1, E - I - 1)));
        I = E + 1;
        continue;
      }
      // Operand modifiers (%c0, %h1) are not part of the PTX we read.
      Push(Token::Error, Start, "%");
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(C))) {
      std::size_t Len = 0;
      if (std::optional<std::uint64_t> V = readInteger(S, I, Len)) {
        Token T{Token::Number, std::string(S.substr(I, Len)), std::nullopt, *V,
                I};
        Toks.push_back(std::move(T));
        I += Len;
        continue;
      }
      // Skip the whole malformed literal so it yields one error.
      std::size_t J = I;
      while (J < S.size() && isWordChar(S[J]))
        ++J;
      Push(Token::Error, I, std::string(S.substr(I, J - I)));
      I = J;
      continue;
    }
    if (isWordStart(C)) {
      std::size_t L = identifierLength(S, I, Extended);
      Push(Token::Word, I, std::string(S.substr(I, L)));
      I += L;
      continue;
    }
    if (std::string_view("[]{},;@!+-:").find(C) != std::string_view::npos) {
      Push(Token::Punct, I, std::string(1, C));
      ++I;
      continue;
    }
    Push(Token::Error, I, std::string(1, C));
    ++I;
  }
  return Toks;
}

//===----------------------------------------------------------------------===//
// Statements and operands
//===----------------------------------------------------------------------===//

using TokenRange = std::vector<Token>::const_iterator;

/// A scalar: an operand reference, a register or `_`, or an integer with an
/// optional minus sign.
static std::optional<Value> parseScalar(TokenRange B, TokenRange E) {
  Value V;
  if (E - B == 1 && B->Kind == Token::Ref) {
    V.Kind = Value::Ref;
    V.Index = B->Index;
    V.Name = B->Text;
    return V;
  }
  if (E - B == 1 && B->Kind == Token::Word) {
    if (B->Text == "_") {
      V.Kind = Value::Sink;
      return V;
    }
    // A register name; dotted words are opcodes or directives, not names.
    if (B->Text.find('.') != std::string::npos ||
        B->Text.find(':') != std::string::npos)
      return std::nullopt;
    V.Kind = Value::Register;
    V.Name = B->Text;
    return V;
  }
  bool Negative = false;
  if (B != E && B->is('-')) {
    Negative = true;
    ++B;
  }
  if (E - B == 1 && B->Kind == Token::Number) {
    V.Kind = Value::Immediate;
    V.Imm = Negative ? ~B->Num + 1 : B->Num;
    return V;
  }
  return std::nullopt;
}

/// Splits [B, E) at the commas that are not nested in brackets or braces.
static std::optional<std::vector<std::pair<TokenRange, TokenRange>>>
splitTopLevel(TokenRange B, TokenRange E) {
  std::vector<std::pair<TokenRange, TokenRange>> Parts;
  int Depth = 0;
  auto Start = B;
  for (auto I = B; I != E; ++I) {
    if (I->is('[') || I->is('{'))
      ++Depth;
    else if (I->is(']') || I->is('}'))
      --Depth;
    if (Depth < 0)
      return std::nullopt;
    if (Depth == 0 && I->is(',')) {
      Parts.emplace_back(Start, I);
      Start = I + 1;
    }
  }
  if (Depth != 0)
    return std::nullopt;
  if (Start != E || !Parts.empty())
    Parts.emplace_back(Start, E);
  for (const auto &P : Parts)
    if (P.first == P.second)
      return std::nullopt;
  return Parts;
}

/// `{a, b, ...}` without its braces: the scalars.
static std::optional<std::vector<Value>> parseVectorBody(TokenRange B,
                                                         TokenRange E) {
  auto Parts = splitTopLevel(B, E);
  if (!Parts || Parts->empty())
    return std::nullopt;
  std::vector<Value> Elems;
  for (const auto &P : *Parts) {
    std::optional<Value> V = parseScalar(P.first, P.second);
    if (!V)
      return std::nullopt;
    Elems.push_back(*V);
  }
  return Elems;
}

static std::optional<Operand> parseOperand(TokenRange B, TokenRange E) {
  Operand O;
  if (B->is('{')) {
    if (!(E - 1)->is('}'))
      return std::nullopt;
    auto Elems = parseVectorBody(B + 1, E - 1);
    if (!Elems)
      return std::nullopt;
    O.Kind = Operand::Vector;
    O.Elems = std::move(*Elems);
    return O;
  }
  if (B->is('[')) {
    if (!(E - 1)->is(']') || E - B < 3)
      return std::nullopt;
    O.Kind = Operand::Memory;
    auto IB = B + 1, IE = E - 1;
    auto Parts = splitTopLevel(IB, IE);
    if (!Parts || Parts->empty() || Parts->size() > 3)
      return std::nullopt;
    // [tensorMap, {c0, ...}], [tensorMap, gAddrToOverride, {c0, ...}]
    if (Parts->size() >= 2) {
      auto [VB, VE] = Parts->back();
      if (!VB->is('{') || !(VE - 1)->is('}'))
        return std::nullopt;
      auto Elems = parseVectorBody(VB + 1, VE - 1);
      std::optional<Value> Base =
          parseScalar((*Parts)[0].first, (*Parts)[0].second);
      if (!Elems || !Base)
        return std::nullopt;
      if (Parts->size() == 3) {
        O.Middle = parseScalar((*Parts)[1].first, (*Parts)[1].second);
        if (!O.Middle)
          return std::nullopt;
      }
      O.Base = *Base;
      O.Elems = std::move(*Elems);
      return O;
    }
    // [base], [base+off], [base-off]
    auto Sign = IB;
    while (Sign != IE && !Sign->is('+') && !Sign->is('-'))
      ++Sign;
    std::optional<Value> Base = parseScalar(IB, Sign);
    if (!Base || Base->Kind == Value::Sink)
      return std::nullopt;
    if (Sign != IE) {
      if (IE - Sign != 2 || (Sign + 1)->Kind != Token::Number ||
          (Sign + 1)->Num > static_cast<std::uint64_t>(
                                std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
      auto Off = static_cast<std::int64_t>((Sign + 1)->Num);
      Base->Offset = Sign->is('-') ? -Off : Off;
    }
    O.Base = *Base;
    return O;
  }
  std::optional<Value> V = parseScalar(B, E);
  if (!V)
    return std::nullopt;
  O.Kind = Operand::Scalar;
  O.Base = *V;
  return O;
}

static std::vector<std::string> splitDots(std::string_view S) {
  std::vector<std::string> Parts;
  std::size_t Start = 0;
  while (true) {
    std::size_t Dot = S.find('.', Start);
    Parts.emplace_back(S.substr(Start, Dot - Start));
    if (Dot == std::string_view::npos)
      break;
    Start = Dot + 1;
  }
  return Parts;
}

//===----------------------------------------------------------------------===//
// Qualifiers
//===----------------------------------------------------------------------===//

namespace {

/// The classes of qualifier an instruction family may allow.
enum QualifierClass : unsigned {
  QSpace = 1u << 0,
  QDims = 1u << 1,
  QMode = 1u << 2,
  QOp = 1u << 3,
  QType = 1u << 4,
  QCtaGroup = 1u << 5,
  QMbarrier = 1u << 6,  // mbarrier::complete_tx::bytes
  QBulkGroup = 1u << 7, // bulk_group
  QMulticast = 1u << 8,
  QCacheHint = 1u << 9,
  QCpMask = 1u << 10,
  QNoFtz = 1u << 11,
  QL2 = 1u << 12,
  QParity = 1u << 13,
  QScope = 1u << 14,
  QSem = 1u << 15,
  QIgnoreOob = 1u << 16, // ignore_oob (PTX 9.2)
  QLayout = 1u << 17,    // layout::v0, layout::v1 (PTX 9.3)
  QOverride = 1u << 18,  // override::global_address (PTX 9.4)
  QReport = 1u << 19,    // mbarrier::report::* (PTX 9.4)
};

enum class Sem { Release, Relaxed, Acquire, Weak };

/// Every qualifier of an opcode, read once. Seen tells which classes were
/// written; a class written twice, or a qualifier outside the vocabulary,
/// makes the whole opcode unknown.
struct Qualifiers {
  unsigned Seen = 0;
  std::vector<Space> Spaces;
  unsigned Dims = 0;
  TensorMode Mode = TensorMode::Tile;
  ReduceOp Op = ReduceOp::None;
  std::string Type;
  std::optional<unsigned> CtaGroup;
  device::Scope Scope = device::Scope::None;
  std::optional<Sem> Semantics;
  unsigned Layout = 0;

  bool has(unsigned C) const { return (Seen & C) != 0; }
  bool only(unsigned Allowed) const { return (Seen & ~Allowed) == 0; }
};

} // namespace

template <typename T, std::size_t N>
static std::optional<T>
lookup(std::string_view Q, const std::pair<std::string_view, T> (&Table)[N]) {
  for (const auto &[Spelling, V] : Table)
    if (Q == Spelling)
      return V;
  return std::nullopt;
}

static const std::pair<std::string_view, Space> SpaceNames[] = {
    {"global", Space::Global},
    {"shared::cta", Space::SharedCta},
    // `.shared` alone is the executing CTA's shared memory.
    {"shared", Space::SharedCta},
    {"shared::cluster", Space::SharedCluster},
};

static const std::pair<std::string_view, TensorMode> ModeNames[] = {
    {"tile", TensorMode::Tile},
    {"tile::gather4", TensorMode::TileGather4},
    {"tile::scatter4", TensorMode::TileScatter4},
    {"im2col", TensorMode::Im2col},
    {"im2col::w", TensorMode::Im2colW},
    {"im2col::w::128", TensorMode::Im2colW128},
    {"im2col_no_offs", TensorMode::Im2colNoOffs},
};

static const std::pair<std::string_view, ReduceOp> OpNames[] = {
    {"add", ReduceOp::Add}, {"min", ReduceOp::Min}, {"max", ReduceOp::Max},
    {"inc", ReduceOp::Inc}, {"dec", ReduceOp::Dec}, {"and", ReduceOp::And},
    {"or", ReduceOp::Or},   {"xor", ReduceOp::Xor},
};

static const std::pair<std::string_view, device::Scope> ScopeNames[] = {
    {"cta", device::Scope::Cta},
    {"cluster", device::Scope::Cluster},
    {"gpu", device::Scope::Gpu},
    {"sys", device::Scope::Sys},
};

static const std::pair<std::string_view, Sem> SemNames[] = {
    {"release", Sem::Release},
    {"relaxed", Sem::Relaxed},
    {"acquire", Sem::Acquire},
    {"weak", Sem::Weak},
};

static const std::pair<std::string_view, unsigned> FlagNames[] = {
    {"mbarrier::complete_tx::bytes", QMbarrier},
    {"bulk_group", QBulkGroup},
    {"multicast::cluster", QMulticast},
    {"L2::cache_hint", QCacheHint},
    {"cp_mask", QCpMask},
    {"noftz", QNoFtz},
    {"L2", QL2},
    {"parity", QParity},
    {"ignore_oob", QIgnoreOob},
    {"override::global_address", QOverride},
};

static bool isElemType(std::string_view Q) {
  for (std::string_view T :
       {"b32", "b64", "u32", "s32", "u64", "s64", "f32", "f64", "f16", "bf16",
        "b128"})
    if (Q == T)
      return true;
  return false;
}

static std::optional<Qualifiers>
readQualifiers(const std::vector<std::string> &Qs) {
  Qualifiers R;
  auto Mark = [&R](unsigned C) {
    bool Fresh = !R.has(C);
    R.Seen |= C;
    return Fresh;
  };
  for (const std::string &Q : Qs) {
    bool Ok;
    if (auto S = lookup(Q, SpaceNames)) {
      R.Seen |= QSpace;
      R.Spaces.push_back(*S);
      Ok = R.Spaces.size() <= 2;
    } else if (Q.size() == 2 && Q[1] == 'd' && Q[0] >= '1' && Q[0] <= '5') {
      R.Dims = Q[0] - '0';
      Ok = Mark(QDims);
    } else if (auto M = lookup(Q, ModeNames)) {
      R.Mode = *M;
      Ok = Mark(QMode);
    } else if (auto Op = lookup(Q, OpNames)) {
      R.Op = *Op;
      Ok = Mark(QOp);
    } else if (isElemType(Q)) {
      R.Type = Q;
      Ok = Mark(QType);
    } else if (Q == "cta_group::1" || Q == "cta_group::2") {
      R.CtaGroup = Q.back() - '0';
      Ok = Mark(QCtaGroup);
    } else if (auto Sc = lookup(Q, ScopeNames)) {
      R.Scope = *Sc;
      Ok = Mark(QScope);
    } else if (auto Se = lookup(Q, SemNames)) {
      R.Semantics = Se;
      Ok = Mark(QSem);
    } else if (Q == "layout::v0" || Q == "layout::v1") {
      R.Layout = Q.back() - '0';
      Ok = Mark(QLayout);
    } else if (Q.rfind("mbarrier::report::", 0) == 0) {
      // The spellings of .report_mechanism; only their presence matters.
      Ok = Mark(QReport);
    } else if (auto F = lookup(Q, FlagNames)) {
      Ok = Mark(*F);
    } else {
      Ok = false;
    }
    if (!Ok)
      return std::nullopt;
  }
  return R;
}

//===----------------------------------------------------------------------===//
// Decoders, one per instruction family
//===----------------------------------------------------------------------===//

namespace {

/// Reads the operands of an instruction left to right.
class OperandReader {
public:
  explicit OperandReader(const std::vector<Operand> &Ops) : Ops(Ops) {}

  /// [addr] or [addr+off].
  std::optional<Value> address() {
    if (!more() || Ops[Next].Kind != Operand::Memory ||
        !Ops[Next].Elems.empty())
      return std::nullopt;
    return Ops[Next++].Base;
  }
  /// [tensorMap, {c0, ...}]: the map, and the coordinates into \p Coords.
  std::optional<Value> tensor(std::vector<Value> &Coords) {
    if (!more() || Ops[Next].Kind != Operand::Memory ||
        Ops[Next].Elems.empty() || Ops[Next].Middle)
      return std::nullopt;
    Coords = Ops[Next].Elems;
    return Ops[Next++].Base;
  }
  /// [tensorMap, gAddrToOverride, {c0, ...}]: the map, the override address
  /// into \p Address and the coordinates into \p Coords.
  std::optional<Value> tensorOverride(std::optional<Value> &Address,
                                      std::vector<Value> &Coords) {
    if (!more() || Ops[Next].Kind != Operand::Memory ||
        Ops[Next].Elems.empty() || !Ops[Next].Middle)
      return std::nullopt;
    Address = Ops[Next].Middle;
    Coords = Ops[Next].Elems;
    return Ops[Next++].Base;
  }
  std::optional<Value> scalar() {
    if (!more() || Ops[Next].Kind != Operand::Scalar)
      return std::nullopt;
    return Ops[Next++].Base;
  }
  bool vector(std::vector<Value> &Elems) {
    if (!more() || Ops[Next].Kind != Operand::Vector)
      return false;
    Elems = Ops[Next++].Elems;
    return true;
  }
  bool nextIsVector() const {
    return more() && Ops[Next].Kind == Operand::Vector;
  }
  bool more() const { return Next < Ops.size(); }

private:
  const std::vector<Operand> &Ops;
  std::size_t Next = 0;
};

} // namespace

/// Reads an optional trailing scalar that \p Present says the form has.
static bool optionalScalar(OperandReader &R, bool Present,
                           std::optional<Value> &Out) {
  if (!Present)
    return true;
  Out = R.scalar();
  return Out.has_value();
}

static bool isSharedSpace(Space S) {
  return S == Space::SharedCta || S == Space::SharedCluster;
}

static bool isLoadMode(TensorMode M) {
  return M == TensorMode::Tile || M == TensorMode::TileGather4 ||
         M == TensorMode::Im2col || M == TensorMode::Im2colW ||
         M == TensorMode::Im2colW128;
}

static bool isIm2colLoadMode(TensorMode M) {
  return M == TensorMode::Im2col || M == TensorMode::Im2colW ||
         M == TensorMode::Im2colW128;
}

static bool isStoreMode(TensorMode M) {
  return M == TensorMode::Tile || M == TensorMode::TileScatter4 ||
         M == TensorMode::Im2colNoOffs;
}

/// The operands [tensorMap, {coords}], [srcMem] {, policy} of tensor stores
/// and reductions.
/// The [tensorMap, {coords}] operand, or [tensorMap, gAddrToOverride,
/// {coords}] with .override::global_address.
static std::optional<Value> readTensorOperand(Instruction &I,
                                              const Qualifiers &Q,
                                              OperandReader &R) {
  return Q.has(QOverride) ? R.tensorOverride(I.GlobalAddress, I.Coords)
                          : R.tensor(I.Coords);
}

static bool readStoreOperands(Instruction &I, const Qualifiers &Q) {
  OperandReader R(I.Operands);
  I.TensorMap = readTensorOperand(I, Q, R);
  I.Src = R.address();
  return I.TensorMap && I.Src &&
         optionalScalar(R, Q.has(QCacheHint), I.CachePolicy) && !R.more();
}

static bool decodeTensorCopy(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSpace | QDims | QMode | QMbarrier | QBulkGroup | QMulticast |
              QCtaGroup | QCacheHint | QOverride | QReport) ||
      !Q.has(QDims) || Q.Spaces.size() != 2)
    return false;
  I.Kind = OpKind::TensorCopy;
  I.Dims = Q.Dims;
  I.Mode = Q.Mode;
  I.DstSpace = Q.Spaces[0];
  I.SrcSpace = Q.Spaces[1];
  if (isSharedSpace(I.DstSpace) && I.SrcSpace == Space::Global) {
    if (!Q.has(QMbarrier) || Q.has(QBulkGroup) || !isLoadMode(Q.Mode))
      return false;
    I.TensorDir = TensorDirection::Load;
    I.Multicast = Q.has(QMulticast);
    I.CtaGroup = Q.CtaGroup;
    I.Report = Q.has(QReport);
    OperandReader R(I.Operands);
    I.Dst = R.address();
    I.TensorMap = readTensorOperand(I, Q, R);
    I.Barrier = R.address();
    if (!I.Dst || !I.TensorMap || !I.Barrier)
      return false;
    if (R.nextIsVector() &&
        (!isIm2colLoadMode(Q.Mode) || !R.vector(I.Im2colInfo)))
      return false;
    return optionalScalar(R, I.Multicast, I.CtaMask) &&
           optionalScalar(R, Q.has(QCacheHint), I.CachePolicy) && !R.more();
  }
  if (I.DstSpace == Space::Global && I.SrcSpace == Space::SharedCta) {
    if (!Q.has(QBulkGroup) || Q.has(QMbarrier) || Q.has(QMulticast) ||
        Q.has(QCtaGroup) || Q.has(QReport) || !isStoreMode(Q.Mode))
      return false;
    I.TensorDir = TensorDirection::Store;
    return readStoreOperands(I, Q);
  }
  return false;
}

static bool decodeTensorReduce(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSpace | QDims | QMode | QOp | QBulkGroup | QCacheHint) ||
      !Q.has(QDims) || !Q.has(QOp) || !Q.has(QBulkGroup) ||
      Q.Spaces != std::vector<Space>{Space::Global, Space::SharedCta} ||
      !isStoreMode(Q.Mode))
    return false;
  // .tile::scatter4 is read so that TMA-REDUCE-MODE can name it.
  I.Kind = OpKind::TensorCopy;
  I.TensorDir = TensorDirection::Reduce;
  I.Dims = Q.Dims;
  I.Mode = Q.Mode;
  I.Reduce = Q.Op;
  I.DstSpace = Space::Global;
  I.SrcSpace = Space::SharedCta;
  return readStoreOperands(I, Q);
}

static bool decodeTensorPrefetch(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QDims | QL2 | QSpace | QMode | QCacheHint) || !Q.has(QDims) ||
      !Q.has(QL2) || Q.Spaces != std::vector<Space>{Space::Global} ||
      !isLoadMode(Q.Mode))
    return false;
  I.Kind = OpKind::TensorCopy;
  I.TensorDir = TensorDirection::Prefetch;
  I.Dims = Q.Dims;
  I.Mode = Q.Mode;
  I.SrcSpace = Space::Global;
  OperandReader R(I.Operands);
  I.TensorMap = R.tensor(I.Coords);
  if (!I.TensorMap)
    return false;
  if (R.nextIsVector() &&
      (!isIm2colLoadMode(Q.Mode) || !R.vector(I.Im2colInfo)))
    return false;
  return optionalScalar(R, Q.has(QCacheHint), I.CachePolicy) && !R.more();
}

/// [dstMem], [srcMem], size: the head of every 1-D bulk copy.
static bool readBulkHead(Instruction &I, OperandReader &R) {
  I.Dst = R.address();
  I.Src = R.address();
  I.Size = R.scalar();
  return I.Dst && I.Src && I.Size;
}

/// Sets the direction of a 1-D bulk copy or reduction from its state
/// spaces and completion mechanism; false for a pair PTX does not have.
static bool bulkDirection(Instruction &I, const Qualifiers &Q) {
  if (Q.Spaces.size() != 2)
    return false;
  I.DstSpace = Q.Spaces[0];
  I.SrcSpace = Q.Spaces[1];
  bool Mbar = Q.has(QMbarrier) && !Q.has(QBulkGroup);
  bool Group = Q.has(QBulkGroup) && !Q.has(QMbarrier);
  if (Mbar && isSharedSpace(I.DstSpace) && I.SrcSpace == Space::Global)
    I.BulkDir = BulkDirection::GlobalToShared;
  else if (Mbar && I.DstSpace == Space::SharedCluster &&
           I.SrcSpace == Space::SharedCta)
    I.BulkDir = BulkDirection::SharedToCluster;
  else if (Group && I.DstSpace == Space::Global &&
           I.SrcSpace == Space::SharedCta)
    I.BulkDir = BulkDirection::SharedToGlobal;
  else
    return false;
  return true;
}

/// The memory semantics of cp.async.bulk (PTX 9.3): none or .weak, or
/// .relaxed with a scope and .b128 (shared::cta -> shared::cluster: scope
/// .cta or .cluster only).
static bool bulkSemantics(const Instruction &I, const Qualifiers &Q) {
  if (!Q.has(QSem))
    return !Q.has(QScope) && !Q.has(QType);
  if (*Q.Semantics == Sem::Weak)
    return !Q.has(QScope) && !Q.has(QType);
  if (*Q.Semantics != Sem::Relaxed || !Q.has(QScope) || Q.Type != "b128" ||
      Q.Scope == device::Scope::None)
    return false;
  return I.BulkDir != BulkDirection::SharedToCluster ||
         Q.Scope == device::Scope::Cta || Q.Scope == device::Scope::Cluster;
}

static bool decodeBulkCopy(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSpace | QMbarrier | QBulkGroup | QMulticast | QCacheHint |
              QCpMask | QSem | QScope | QType | QIgnoreOob) ||
      !bulkDirection(I, Q) || !bulkSemantics(I, Q))
    return false;
  I.Kind = OpKind::BulkCopy;
  I.Multicast = Q.has(QMulticast);
  OperandReader R(I.Operands);
  if (!readBulkHead(I, R))
    return false;
  // .ignore_oob: global -> shared::cta only, two counts after size.
  if (Q.has(QIgnoreOob)) {
    if (I.BulkDir != BulkDirection::GlobalToShared ||
        I.DstSpace != Space::SharedCta)
      return false;
    I.IgnoreLeft = R.scalar();
    I.IgnoreRight = R.scalar();
    if (!I.IgnoreLeft || !I.IgnoreRight)
      return false;
  }
  switch (I.BulkDir) {
  case BulkDirection::GlobalToShared:
    I.Barrier = R.address();
    return I.Barrier && !Q.has(QCpMask) &&
           optionalScalar(R, I.Multicast, I.CtaMask) &&
           optionalScalar(R, Q.has(QCacheHint), I.CachePolicy) && !R.more();
  case BulkDirection::SharedToCluster:
    I.Barrier = R.address();
    return I.Barrier && !Q.has(QCpMask) && !I.Multicast && !Q.has(QCacheHint) &&
           !R.more();
  case BulkDirection::SharedToGlobal:
    return !I.Multicast &&
           optionalScalar(R, Q.has(QCacheHint), I.CachePolicy) &&
           optionalScalar(R, Q.has(QCpMask), I.ByteMask) && !R.more();
  case BulkDirection::GlobalToL2:
    break;
  }
  return false;
}

static bool decodeBulkReduce(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSpace | QMbarrier | QBulkGroup | QCacheHint | QOp | QType |
              QNoFtz) ||
      !Q.has(QOp) || !Q.has(QType) || !bulkDirection(I, Q) ||
      I.BulkDir == BulkDirection::GlobalToShared)
    return false;
  I.Kind = OpKind::BulkCopy;
  I.Reduce = Q.Op;
  I.ElemType = Q.Type;
  I.NoFtz = Q.has(QNoFtz);
  OperandReader R(I.Operands);
  if (!readBulkHead(I, R))
    return false;
  if (I.BulkDir == BulkDirection::SharedToCluster) {
    I.Barrier = R.address();
    return I.Barrier && !Q.has(QCacheHint) && !R.more();
  }
  return optionalScalar(R, Q.has(QCacheHint), I.CachePolicy) && !R.more();
}

static bool decodeBulkPrefetch(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QL2 | QSpace | QCacheHint) || !Q.has(QL2) ||
      Q.Spaces != std::vector<Space>{Space::Global})
    return false;
  I.Kind = OpKind::BulkCopy;
  I.BulkDir = BulkDirection::GlobalToL2;
  I.SrcSpace = Space::Global;
  OperandReader R(I.Operands);
  I.Src = R.address();
  I.Size = R.scalar();
  return I.Src && I.Size &&
         optionalScalar(R, Q.has(QCacheHint), I.CachePolicy) && !R.more();
}

/// The qualifiers every mbarrier instruction shares: {.sem}{.scope}{.space}
/// .b64, with \p Sems the semantics it accepts. Sets the barrier's space.
static bool mbarrierQualifiers(Instruction &I, const Qualifiers &Q,
                               unsigned Extra,
                               std::initializer_list<Sem> Sems) {
  if (!Q.only(QSem | QScope | QSpace | QType | Extra) || Q.Type != "b64" ||
      Q.Spaces.size() > 1)
    return false;
  if (Q.Semantics &&
      std::find(Sems.begin(), Sems.end(), *Q.Semantics) == Sems.end())
    return false;
  if (Q.has(QScope) && Q.Scope != device::Scope::Cta &&
      Q.Scope != device::Scope::Cluster)
    return false;
  I.DstSpace = Q.Spaces.empty() ? Space::Generic : Q.Spaces[0];
  I.Scope = Q.Scope;
  return I.DstSpace != Space::Global;
}

static bool decodeInit(Instruction &I, const Qualifiers &Q) {
  if (!mbarrierQualifiers(I, Q, QLayout, {}) || Q.has(QSem) ||
      Q.has(QScope) || I.DstSpace == Space::SharedCluster)
    return false;
  I.Kind = OpKind::BarrierInit;
  if (Q.has(QLayout))
    I.Layout = Q.Layout;
  OperandReader R(I.Operands);
  I.Barrier = R.address();
  I.Count = R.scalar();
  return I.Barrier && I.Count && !R.more();
}

/// mbarrier.arrive{.expect_tx}: state, [addr]{, count | , txCount}.
static bool decodeArriveForm(Instruction &I, const Qualifiers &Q,
                             bool ExpectTx) {
  if (!mbarrierQualifiers(I, Q, 0, {Sem::Release, Sem::Relaxed}))
    return false;
  OperandReader R(I.Operands);
  I.Result = R.scalar();
  I.Barrier = R.address();
  if (!I.Result || !I.Barrier)
    return false;
  if (ExpectTx) {
    I.Kind = OpKind::ExpectTx;
    I.WithArrive = true;
    I.TxCount = R.scalar();
    return I.TxCount && !R.more();
  }
  I.Kind = OpKind::Arrive;
  return optionalScalar(R, R.more(), I.Count) && !R.more();
}

static bool decodeArrive(Instruction &I, const Qualifiers &Q) {
  return decodeArriveForm(I, Q, /*ExpectTx=*/false);
}

static bool decodeArriveExpectTx(Instruction &I, const Qualifiers &Q) {
  return decodeArriveForm(I, Q, /*ExpectTx=*/true);
}

static bool decodeExpectTx(Instruction &I, const Qualifiers &Q) {
  if (!mbarrierQualifiers(I, Q, 0, {Sem::Relaxed}))
    return false;
  I.Kind = OpKind::ExpectTx;
  OperandReader R(I.Operands);
  I.Barrier = R.address();
  I.TxCount = R.scalar();
  return I.Barrier && I.TxCount && !R.more();
}

static bool decodeWait(Instruction &I, const Qualifiers &Q) {
  if (!mbarrierQualifiers(I, Q, QParity, {Sem::Acquire, Sem::Relaxed}) ||
      I.DstSpace == Space::SharedCluster)
    return false;
  I.Kind = OpKind::Wait;
  I.Parity = Q.has(QParity);
  I.TryWait = I.Name == "mbarrier.try_wait";
  OperandReader R(I.Operands);
  I.Result = R.scalar();
  I.Barrier = R.address();
  I.Phase = R.scalar();
  return I.Result && I.Barrier && I.Phase &&
         optionalScalar(R, I.TryWait && R.more(), I.SuspendHint) && !R.more();
}

static bool decodeFenceProxyAsync(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSpace) || Q.Spaces.size() > 1 || !I.Operands.empty())
    return false;
  I.Kind = OpKind::Fence;
  I.Fence = FenceKind::ProxyAsync;
  I.DstSpace = Q.Spaces.empty() ? Space::Generic : Q.Spaces[0];
  return true;
}

static bool decodeFenceTensormap(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSem | QScope) || !Q.has(QSem) || !Q.has(QScope))
    return false;
  I.Kind = OpKind::Fence;
  I.Scope = Q.Scope;
  if (*Q.Semantics == Sem::Release) {
    I.Fence = FenceKind::TensormapRelease;
    return I.Operands.empty();
  }
  if (*Q.Semantics != Sem::Acquire)
    return false;
  I.Fence = FenceKind::TensormapAcquire;
  OperandReader R(I.Operands);
  I.Address = R.address();
  I.AddressSize = R.scalar();
  return I.Address && I.AddressSize && !R.more();
}

static bool decodeFenceMbarrierInit(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSem | QScope) || Q.Semantics != Sem::Release ||
      Q.Scope != device::Scope::Cluster || !I.Operands.empty())
    return false;
  I.Kind = OpKind::Fence;
  I.Fence = FenceKind::MbarrierInit;
  I.Scope = Q.Scope;
  return true;
}

/// st.bulk{.weak}{.shared::cta} [a], size, initval (PTX 8.6).
static bool decodeStBulk(Instruction &I, const Qualifiers &Q) {
  if (!Q.only(QSem | QSpace) || (Q.has(QSem) && *Q.Semantics != Sem::Weak) ||
      Q.Spaces.size() > 1 ||
      (!Q.Spaces.empty() && Q.Spaces[0] != Space::SharedCta))
    return false;
  I.Kind = OpKind::StBulk;
  I.DstSpace = Q.Spaces.empty() ? Space::Generic : Space::SharedCta;
  OperandReader R(I.Operands);
  I.Dst = R.address();
  I.Size = R.scalar();
  I.InitValue = R.scalar();
  return I.Dst && I.Size && I.InitValue && !R.more();
}

namespace {
struct Family {
  std::string_view Name;
  bool (*Decode)(Instruction &, const Qualifiers &);
};
} // namespace

/// Instruction names, a longer name before any name it extends.
static const Family Families[] = {
    {"cp.reduce.async.bulk.tensor", decodeTensorReduce},
    {"cp.async.bulk.prefetch.tensor", decodeTensorPrefetch},
    {"cp.async.bulk.tensor", decodeTensorCopy},
    {"cp.reduce.async.bulk", decodeBulkReduce},
    {"cp.async.bulk.prefetch", decodeBulkPrefetch},
    {"cp.async.bulk", decodeBulkCopy},
    {"mbarrier.init", decodeInit},
    {"mbarrier.arrive.expect_tx", decodeArriveExpectTx},
    {"mbarrier.arrive", decodeArrive},
    {"mbarrier.expect_tx", decodeExpectTx},
    {"mbarrier.try_wait", decodeWait},
    {"mbarrier.test_wait", decodeWait},
    {"fence.proxy.async", decodeFenceProxyAsync},
    {"fence.proxy.tensormap::generic", decodeFenceTensormap},
    {"fence.mbarrier_init", decodeFenceMbarrierInit},
    {"st.bulk", decodeStBulk},
};

/// Decodes \p I (Opcode and Operands set); false when it is not a
/// recognised, well-formed instruction.
static bool decode(Instruction &I) {
  for (const Family &F : Families) {
    std::string_view Op = I.Opcode;
    if (Op.substr(0, F.Name.size()) != F.Name)
      continue;
    if (Op.size() > F.Name.size() && Op[F.Name.size()] != '.')
      continue;
    I.Name = F.Name;
    std::vector<std::string> Parts = splitDots(Op);
    std::size_t NameParts = splitDots(F.Name).size();
    I.Qualifiers.assign(Parts.begin() + NameParts, Parts.end());
    std::optional<Qualifiers> Q = readQualifiers(I.Qualifiers);
    return Q && F.Decode(I, *Q);
  }
  return false;
}

/// The guard and opcode of an instruction statement [B, E) without its
/// semicolon; \p B is left at its first operand. False for a statement with
/// a token the lexer rejected or without an opcode.
static bool readHead(TokenRange &B, TokenRange E, std::optional<Guard> &Pred,
                     std::string &Opcode, std::size_t &Pos) {
  for (auto T = B; T != E; ++T)
    if (T->Kind == Token::Error)
      return false;
  if (B != E && B->is('@')) {
    Guard G;
    ++B;
    if (B != E && B->is('!')) {
      G.Negated = true;
      ++B;
    }
    if (B == E || B->Kind != Token::Word)
      return false;
    G.Name = B->Text;
    Pred = G;
    ++B;
  }
  if (B == E || B->Kind != Token::Word ||
      !std::isalpha(static_cast<unsigned char>(B->Text[0])))
    return false;
  Opcode = B->Text;
  Pos = B->Pos;
  ++B;
  // ptxas also reads qualifiers separated by white space (tilelang writes
  // "...bulk_group " ".L2::cache_hint"); no operand starts with a dot.
  for (; B != E && B->Kind == Token::Word && B->Text[0] == '.'; ++B)
    Opcode += B->Text;
  return true;
}

/// One instruction statement, [B, E) without its semicolon.
static std::optional<Instruction> parseStatement(TokenRange B, TokenRange E) {
  Instruction I;
  if (!readHead(B, E, I.Predicate, I.Opcode, I.Pos))
    return std::nullopt;
  auto Parts = splitTopLevel(B, E);
  if (!Parts)
    return std::nullopt;
  for (const auto &P : *Parts) {
    std::optional<Operand> O = parseOperand(P.first, P.second);
    if (!O)
      return std::nullopt;
    I.Operands.push_back(std::move(*O));
  }
  if (!decode(I))
    return std::nullopt;
  return I;
}

/// Whether the statement [B, E) names a TMA or mbarrier instruction that
/// the decoders model (bulk-group commits and waits are read elsewhere, by
/// their text).
static bool namesModelledFamily(TokenRange B, TokenRange E) {
  // Past a guard `@p` / `@!p`.
  if (B != E && B->is('@')) {
    ++B;
    if (B != E && B->is('!'))
      ++B;
    if (B != E)
      ++B;
  }
  if (B == E || B->Kind != Token::Word)
    return false;
  std::string_view Name = B->Text;
  auto Starts = [&](std::string_view P) {
    return Name.substr(0, P.size()) == P &&
           (Name.size() == P.size() || Name[P.size()] == '.');
  };
  if (Starts("cp.async.bulk.commit_group") ||
      Starts("cp.async.bulk.wait_group"))
    return false;
  return Starts("cp.async.bulk") || Starts("cp.reduce.async.bulk") ||
         Starts("mbarrier") || Starts("st.bulk");
}

/// Calls \p F(Begin, Semi) for each statement of \p Toks, past scope braces,
/// empty statements and labels (`NAME:`); Semi is the statement's `;`, or
/// the end of \p Toks for a statement without one.
template <typename Fn>
static void forEachStatement(const std::vector<Token> &Toks, Fn F) {
  TokenRange I = Toks.cbegin(), End = Toks.cend();
  while (I != End) {
    if (I->is('{') || I->is('}') || I->is(';')) {
      ++I;
      continue;
    }
    if (I->Kind == Token::Word && I + 1 != End && (I + 1)->is(':')) {
      I += 2;
      continue;
    }
    TokenRange Semi = I;
    while (Semi != End && !Semi->is(';'))
      ++Semi;
    F(I, Semi);
    I = Semi == End ? End : Semi + 1;
  }
}

std::vector<Instruction> parseAsm(std::string_view Text, bool Extended,
                                  unsigned *Unrecognised) {
  std::vector<Token> Toks = lex(Text, Extended);
  std::vector<Instruction> Result;
  if (Unrecognised)
    *Unrecognised = 0;
  forEachStatement(Toks, [&](TokenRange I, TokenRange Semi) {
    // Directives (.reg, .pragma) carry no operation; a statement without
    // its `;` is not valid PTX.
    bool Directive = I->Kind == Token::Word && I->Text[0] == '.';
    if (Directive || Semi == Toks.cend())
      return;
    if (std::optional<Instruction> Inst = parseStatement(I, Semi))
      Result.push_back(std::move(*Inst));
    else if (Unrecognised && namesModelledFamily(I, Semi))
      ++*Unrecognised;
  });
  return Result;
}

std::vector<Opcode> opcodesOf(std::string_view Text, bool Extended) {
  std::vector<Token> Toks = lex(Text, Extended);
  std::vector<Opcode> Result;
  forEachStatement(Toks, [&](TokenRange B, TokenRange Semi) {
    // Past a guard `@p` / `@!p`.
    if (B != Semi && B->is('@')) {
      ++B;
      if (B != Semi && B->is('!'))
        ++B;
      if (B != Semi)
        ++B;
    }
    if (B != Semi && B->Kind == Token::Word && B->Text[0] != '.' &&
        std::isalpha(static_cast<unsigned char>(B->Text[0]))) {
      Opcode O{std::string(B->Text), B->Pos};
      for (++B; B != Semi && B->Kind == Token::Word && B->Text[0] == '.'; ++B)
        O.Text += B->Text;
      Result.push_back(std::move(O));
    }
  });
  return Result;
}

bool isUndecodedArrive(std::string_view Op) {
  for (std::string_view Base : {"tcgen05.commit", "cp.async.mbarrier.arrive"})
    if (Op.substr(0, Base.size()) == Base &&
        (Op.size() == Base.size() || Op[Base.size()] == '.'))
      return true;
  return false;
}

std::vector<Mapa> mapasOf(std::string_view Text, bool Extended,
                          unsigned *Statements) {
  std::vector<Token> Toks = lex(Text, Extended);
  std::vector<Mapa> Result;
  if (Statements)
    *Statements = 0;
  forEachStatement(Toks, [&](TokenRange B, TokenRange Semi) {
    if (Statements)
      ++*Statements;
    std::optional<Guard> Pred;
    std::string Opcode;
    std::size_t Pos;
    if (!readHead(B, Semi, Pred, Opcode, Pos))
      return;
    Mapa M;
    M.Guarded = Pred.has_value();
    static constexpr std::string_view Forms[] = {
        "mapa.shared::cluster.u32", "mapa.shared::cluster.b32",
        "mapa.shared::cluster.u64", "mapa.shared::cluster.b64"};
    if (std::find(std::begin(Forms), std::end(Forms), Opcode) ==
        std::end(Forms))
      return;
    auto Parts = splitTopLevel(B, Semi);
    if (!Parts || Parts->size() != 3)
      return;
    std::optional<Value> D = parseScalar((*Parts)[0].first, (*Parts)[0].second);
    std::optional<Value> A = parseScalar((*Parts)[1].first, (*Parts)[1].second);
    std::optional<Value> R = parseScalar((*Parts)[2].first, (*Parts)[2].second);
    if (!D || !A || !R)
      return;
    M.Dst = *D;
    M.Addr = *A;
    M.Rank = *R;
    Result.push_back(std::move(M));
  });
  return Result;
}

std::vector<Shuffle> shufflesOf(std::string_view Text, bool Extended,
                                unsigned *Statements) {
  std::vector<Token> Toks = lex(Text, Extended);
  std::vector<Shuffle> Result;
  if (Statements)
    *Statements = 0;
  forEachStatement(Toks, [&](TokenRange B, TokenRange Semi) {
    if (Statements)
      ++*Statements;
    std::optional<Guard> Pred;
    std::string Opcode;
    std::size_t Pos;
    if (!readHead(B, Semi, Pred, Opcode, Pos))
      return;
    std::string_view Op = Opcode;
    constexpr std::string_view Head = "shfl.sync.", Type = ".b32";
    if (Op.size() <= Head.size() + Type.size() ||
        Op.substr(0, Head.size()) != Head ||
        Op.substr(Op.size() - Type.size()) != Type)
      return;
    std::string_view Mode =
        Op.substr(Head.size(), Op.size() - Head.size() - Type.size());
    if (Mode != "up" && Mode != "down" && Mode != "bfly" && Mode != "idx")
      return;
    auto Parts = splitTopLevel(B, Semi);
    if (!Parts || Parts->size() != 5)
      return;
    std::optional<Value> Vs[5];
    for (unsigned I = 0; I != 5; ++I)
      if (!(Vs[I] = parseScalar((*Parts)[I].first, (*Parts)[I].second)))
        return;
    Result.push_back(Shuffle{std::string(Mode), *Vs[0], *Vs[1], *Vs[2],
                             *Vs[3], *Vs[4], Pred.has_value()});
  });
  return Result;
}

} // namespace tma::ptx
