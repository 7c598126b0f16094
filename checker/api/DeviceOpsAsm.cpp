//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The device-op finder's inline-PTX surface: asm statements parsed
// (api/PtxParser.h) into device ops with their operands bound to the
// statement's C++ expressions.
//
//===----------------------------------------------------------------------===//

#include "api/DeviceOpsCommon.h"
#include "api/DeviceOpsFinder.h"
#include "api/PtxParser.h"
#include "folding/Stats.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include <algorithm>
#include <array>
#include <cstdint>

namespace clang::tidy::tma {

namespace ptx = ::tma::ptx;
using device::BulkDirection;
using device::FenceKind;
using device::ReduceOp;
using device::Space;
using device::TensorDirection;
using device::TensorMode;

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

namespace {

/// Binds the operand references of one asm statement to its operand
/// expressions (outputs first, then inputs, as GCC numbers them).
class AsmOperands {
public:
  AsmOperands(DeviceOpsFinder &Finder, const GCCAsmStmt &S)
      : Finder(Finder), S(S) {}

  OpValue operator()(const std::optional<ptx::Value> &V) const {
    return V ? bind(*V) : OpValue();
  }

  std::vector<OpValue> operator()(const std::vector<ptx::Value> &Vs) const {
    std::vector<OpValue> Out;
    Out.reserve(Vs.size());
    for (const ptx::Value &V : Vs)
      Out.push_back(bind(V));
    return Out;
  }

private:
  OpValue bind(const ptx::Value &V) const {
    OpValue R;
    R.Present = true;
    R.Offset = V.Offset;
    if (V.Kind == ptx::Value::Immediate)
      R.Imm = V.Imm;
    std::optional<unsigned> Mapped;
    if (V.Kind == ptx::Value::Register)
      Mapped = mappedOperand(V.Name);
    if (V.Kind != ptx::Value::Ref && !Mapped)
      return R;
    int Index = Mapped                 ? static_cast<int>(*Mapped)
                : V.Index ? static_cast<int>(*V.Index)
                          : S.getNamedOperand(V.Name);
    if (Index < 0)
      return R;
    auto I = static_cast<unsigned>(Index);
    if (I < S.getNumOutputs())
      R.Written = S.getOutputExpr(I);
    else if (I - S.getNumOutputs() < S.getNumInputs())
      R.Written = S.getInputExpr(I - S.getNumOutputs());
    R.E = Finder.lookThrough(R.Written);
    return R;
  }

  /// The operand that the one `mapa.shared::cluster` of the text maps into
  /// the register \p Reg (`mapa.shared::cluster.u32 r, %0, %1;` then
  /// `mbarrier.arrive.shared::cluster.b64 _, [r];`): the address of this
  /// CTA's shared memory at the same offset as the peer's that \p Reg
  /// holds, so the op names the same barrier or buffer of the peer CTA.
  /// std::nullopt unless exactly one mapa of the text writes \p Reg.
  std::optional<unsigned> mappedOperand(llvm::StringRef Reg) const {
    if (Reg.empty())
      return std::nullopt;
    std::optional<unsigned> Found;
    for (const ptx::Mapa &M : mapas()) {
      if (M.Dst.Kind != ptx::Value::Register || M.Dst.Name != Reg)
        continue;
      if (Found || M.Addr.Kind != ptx::Value::Ref || !M.Addr.Index)
        return std::nullopt;
      Found = *M.Addr.Index;
    }
    return Found;
  }

  /// The text's mapa statements, read once per asm statement: every
  /// register operand asks.
  const std::vector<ptx::Mapa> &mapas() const {
    if (!Mapas) {
      const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
      Mapas.emplace();
      if (Text && Text->getCharByteWidth() == 1)
        *Mapas = ptx::mapasOf(Text->getString(), !S.isSimple());
    }
    return *Mapas;
  }

  DeviceOpsFinder &Finder;
  const GCCAsmStmt &S;
  mutable std::optional<std::vector<ptx::Mapa>> Mapas;
};

} // namespace

static DeviceOp asmOpOf(const ptx::Instruction &I, const AsmOperands &Bind,
                        const OpSite &Site) {
  switch (I.Kind) {
  case device::OpKind::BulkCopy: {
    auto Op = at<BulkCopy>(Site);
    Op.Direction = I.BulkDir;
    Op.DstSpace = I.DstSpace;
    Op.Reduce = I.Reduce;
    Op.ReduceType = I.ElemType;
    Op.Dst = Bind(I.Dst);
    Op.Src = Bind(I.Src);
    Op.Size = Bind(I.Size);
    Op.Barrier = Bind(I.Barrier);
    Op.CtaMask = Bind(I.CtaMask);
    Op.CachePolicy = Bind(I.CachePolicy);
    Op.ByteMask = Bind(I.ByteMask);
    Op.IgnoreLeft = Bind(I.IgnoreLeft);
    Op.IgnoreRight = Bind(I.IgnoreRight);
    Op.NoFtz = I.NoFtz;
    return Op;
  }
  case device::OpKind::TensorCopy: {
    auto Op = at<TensorCopy>(Site);
    bool Load = I.TensorDir == TensorDirection::Load;
    Op.Direction = I.TensorDir;
    Op.Mode = I.Mode;
    Op.Dims = I.Dims;
    Op.DstSpace = Load ? I.DstSpace : Space::Generic;
    Op.Reduce = I.Reduce;
    Op.Map = Bind(I.TensorMap);
    Op.Smem = Bind(Load ? I.Dst : I.Src);
    Op.Coords = Bind(I.Coords);
    Op.Im2colInfo = Bind(I.Im2colInfo);
    Op.Barrier = Bind(I.Barrier);
    Op.CtaMask = Bind(I.CtaMask);
    Op.CachePolicy = Bind(I.CachePolicy);
    Op.CtaGroup = I.CtaGroup;
    Op.GlobalAddress = Bind(I.GlobalAddress);
    Op.Report = I.Report;
    return Op;
  }
  case device::OpKind::ExpectTx: {
    auto Op = at<ExpectTx>(Site);
    Op.WithArrive = I.WithArrive;
    Op.BarrierSpace = I.DstSpace;
    Op.Barrier = Bind(I.Barrier);
    Op.Bytes = Bind(I.TxCount);
    return Op;
  }
  case device::OpKind::Arrive: {
    auto Op = at<Arrive>(Site);
    Op.BarrierSpace = I.DstSpace;
    Op.Barrier = Bind(I.Barrier);
    Op.Count = Bind(I.Count);
    return Op;
  }
  case device::OpKind::BarrierInit: {
    auto Op = at<BarrierInit>(Site);
    Op.Barrier = Bind(I.Barrier);
    Op.Count = Bind(I.Count);
    Op.Layout = I.Layout.value_or(0);
    return Op;
  }
  case device::OpKind::Wait: {
    auto Op = at<Wait>(Site);
    Op.TryWait = I.TryWait;
    Op.Parity = I.Parity;
    Op.Barrier = Bind(I.Barrier);
    Op.Phase = Bind(I.Phase);
    return Op;
  }
  case device::OpKind::Fence: {
    auto Op = at<Fence>(Site);
    Op.Kind = I.Fence;
    Op.FencedSpace = I.DstSpace;
    Op.Scope = I.Scope;
    Op.Address = Bind(I.Address);
    Op.Size = Bind(I.AddressSize);
    return Op;
  }
  case device::OpKind::StBulk: {
    auto Op = at<StBulk>(Site);
    Op.Dst = Bind(I.Dst);
    Op.Size = Bind(I.Size);
    Op.InitValue = Bind(I.InitValue);
    return Op;
  }
  }
  llvm_unreachable("covered switch over OpKind");
}

std::vector<DeviceOp> DeviceOpsFinder::opsOf(const GCCAsmStmt &S) {
  // Memoised: every check asks about every asm statement.
  auto [It, New] = AsmOps.try_emplace(&S);
  if (!New)
    return It->second;
  std::vector<DeviceOp> Ops;
  // The asm of a recognised CUTLASS/CuTe function is seen at its callers.
  if (!inLibraryBody(&S))
    Ops = parseAsm(S);
  // parseAsm may have grown the map: find the slot again.
  return AsmOps[&S] = std::move(Ops);
}

/// learn-cuda's tma_3d_g2s names its .cta_group by an "n" operand, which
/// the instantiation fixes: the parser then sees the instruction the
/// assembler does. References in operand positions stay.
std::string substituteModifierImmediates(const GCCAsmStmt &S, StringRef Text,
                                         const ASTContext &Ctx) {
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size(); ++I) {
    const bool InModifier = Text[I] == '%' && I > 0 &&
                            (Text[I - 1] == ':' || Text[I - 1] == '.') &&
                            I + 1 < Text.size() && llvm::isDigit(Text[I + 1]);
    if (InModifier) {
      size_t J = I + 1;
      unsigned N = 0;
      while (J < Text.size() && llvm::isDigit(Text[J]) && N < 1000)
        N = N * 10 + (Text[J++] - '0');
      if (N >= S.getNumOutputs() && N - S.getNumOutputs() < S.getNumInputs()) {
        const unsigned In = N - S.getNumOutputs();
        const Expr *E = S.getInputExpr(In);
        Expr::EvalResult R;
        if (S.getInputConstraint(In) == "n" && !E->isValueDependent() &&
            E->EvaluateAsInt(R, Ctx)) {
          Out += std::to_string(R.Val.getInt().getExtValue());
          I = J - 1;
          continue;
        }
      }
    }
    Out += Text[I];
  }
  return Out;
}

/// Whether asm text \p Text may hold an instruction the parser decodes or
/// counts as unrecognised: each of its families (cp.async.bulk*,
/// cp.reduce.async.bulk*, mbarrier.*, fence.proxy.*, fence.mbarrier_init,
/// st.bulk) names "bulk", "mbarrier" or "fence", and the parser's opcode is
/// made of tokens that each split only before a '.', so such a word lies
/// whole in the text. The other asm (wgmma, mov, setmaxnreg: most of a
/// kernel's, and the longest texts) is neither lexed nor substituted.
static bool mayNameOps(StringRef Text) {
  return Text.contains("bulk") || Text.contains("mbarrier") ||
         Text.contains("fence");
}

std::vector<DeviceOp> DeviceOpsFinder::parseAsm(const GCCAsmStmt &S) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1)
    return {};
  AsmOperands Bind(*this, S);
  ++CostStats::get().AsmBindings;
  std::vector<DeviceOp> Ops;
  StringRef Raw = Text->getString();
  if (!mayNameOps(Raw))
    return Ops;
  // Only a reference right after ':' or '.' is a modifier's.
  const std::string Source =
      S.isSimple() || (!Raw.contains(":%") && !Raw.contains(".%"))
          ? Raw.str()
          : substituteModifierImmediates(S, Raw, Ctx);
  // Each distinct text is parsed once (instantiations repeat it).
  auto [Parsed, New] = Parses.try_emplace((S.isSimple() ? "s" : "e") + Source);
  if (New) {
    ++CostStats::get().AsmTextsParsed;
    Parsed->second.Instructions = ptx::parseAsm(
        Source, /*Extended=*/!S.isSimple(), &Parsed->second.Unrecognised);
  }
  for (const ptx::Instruction &I : Parsed->second.Instructions) {
    OpSite Site{&S, S.getAsmLoc(), OpApi::InlinePtx, I.Predicate.has_value(),
                Parsed->second.Unrecognised != 0};
    Ops.push_back(asmOpOf(I, Bind, Site));
  }
  return Ops;
}

} // namespace clang::tidy::tma
