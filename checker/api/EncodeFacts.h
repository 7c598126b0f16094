//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of tma-descriptor's sites for the rule model
// (rules/EncodeSite.h): an encode call's operands folded under one
// call-site context into the descriptor of its entry point, with where each
// value came from (for notes and fix-its), what is proven about its
// pointers, and for cuTensorMapReplaceAddress the encode call of the map it
// modifies. Also how much of a call folded (the coverage report, the
// run-time check's remark).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_ENCODEFACTS_H
#define TMA_TIDY_API_ENCODEFACTS_H

#include "api/EncodeCall.h"
#include "folding/ConstantFolder.h"
#include "rules/EncodeSite.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::tma {

class MapLinker;

/// The folded operands of one encode call under one context (the record
/// rules::checkEncodeSite judges), with the origin of each value (array
/// elements by index; ~0U for the array variable).
struct EncodeFacts : rules::EncodeSite {
  /// The entry point as api/EncodeCall names it (Entry: as the rules do).
  EncodeKind Kind = EncodeKind::Tiled;
  std::map<std::pair<rules::Param, unsigned>, Origin> Origins;
  /// Each known value as the driver's parameter type prints it (the corner
  /// offsets signed), by operand and element.
  std::map<std::pair<rules::Param, unsigned>, std::string> Values;
  /// What is proven about the tensorMap and globalAddress pointers.
  std::map<rules::Param, PointerAlign> Pointers;
  /// cuTensorMapReplaceAddress: the encode call of the map it modifies,
  /// when linked (its interleave and data type are in Desc).
  const CallExpr *LinkedEncode = nullptr;
  EncodeKind LinkedKind = EncodeKind::Tiled;

  /// The origin of operand \p P's element \p I (its only value for a
  /// scalar), or null.
  const Origin *originOf(rules::Param P, std::optional<unsigned> I) const {
    auto It = Origins.find({P, I.value_or(0)});
    return It == Origins.end() ? nullptr : &It->second;
  }
};

/// The rule model's name of the entry point \p K.
rules::EncodeEntry encodeEntry(EncodeKind K);

/// The operands of \p Call, an encode call of kind \p Kind, folded in
/// \p F's current context; \p T is the target of the descriptors.
EncodeFacts foldEncodeCall(const CallExpr &Call, EncodeKind Kind,
                           ConstantFolder &F, ASTContext &Ctx,
                           const std::optional<rules::GpuTarget> &T);

/// TMAP-REPLACE-ADDR-ALIGN: the map's interleave and data type, from the
/// encode call that wrote the map the cuTensorMapReplaceAddress \p Call (in
/// \p Fn, run in \p Context) modifies. Linked only when an address proven
/// below 32 bytes makes them matter (only then is \p Linker asked for
/// the linker). Leaves \p Folder in \p Context.
void linkReplacedMap(EncodeFacts &Facts, const CallExpr &Call,
                     const FunctionDecl *Fn, const CallContext *Context,
                     llvm::function_ref<MapLinker &()> Linker,
                     ConstantFolder &Folder);

/// How many value operands (all but tensorMap and globalAddress) encoder
/// \p K has.
unsigned valueOperandCount(EncodeKind K);

/// How many of the value operands are known: scalars, and arrays whose
/// every element the driver reads is known.
unsigned knownOperands(const EncodeFacts &Ops);

/// The value operands of a tiled descriptor that are not known: scalars,
/// and arrays of which an element the driver reads is not.
std::vector<rules::Param> unknownOperands(const rules::TiledDescriptor &D);

/// Whether \p P is an array operand of encoder \p K.
bool isArrayOperand(EncodeKind K, rules::Param P);

/// "boxDim[1]": the driver's name of operand \p P and the element.
std::string operandName(rules::Param P, std::optional<unsigned> Index);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_ENCODEFACTS_H
