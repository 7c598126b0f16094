//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// A parser for the instruction text of inline `asm` statements. It reads the
// PTX that TMA code writes by hand (tma-rules.md sections 8.2-8.4): bulk and
// tensor copies, their reduce and prefetch forms, mbarrier init / arrive /
// expect-tx / waits and the proxy fences. It returns only instructions it
// recognises completely; anything else in the text (other instructions,
// labels, `.reg` declarations, scopes) is skipped, and a recognised opcode
// with unknown qualifiers or operands of the wrong shape is dropped rather
// than guessed at.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_PTXPARSER_H
#define TMA_TIDY_API_PTXPARSER_H

#include "api/DeviceOpKinds.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tma::ptx {

/// A scalar operand: a reference to an operand of the asm statement, an
/// immediate, a register of the asm text, or the sink `_`.
struct Value {
  enum KindType {
    Ref,       ///< %3 or %[name]
    Immediate, ///< an integer literal of the text
    Register,  ///< a name declared in the asm text (P1, remAddr32, %r1)
    Sink,      ///< _
  };
  KindType Kind = Sink;
  /// Ref: the operand number; std::nullopt for a named reference.
  std::optional<unsigned> Index;
  /// Ref: the name of %[name]; Register: the register's name.
  std::string Name;
  /// Immediate: the bit pattern (a PTX immediate takes the type of the
  /// operand it fills, so a negative literal is kept in two's complement).
  std::uint64_t Imm = 0;
  /// The constant byte offset of a memory operand, as in [%1+16].
  std::int64_t Offset = 0;
};

/// An operand as written.
struct Operand {
  enum KindType {
    Scalar, ///< Base
    Vector, ///< {Elems...}
    Memory, ///< [Base+Offset], or [Base, {Elems...}] for a tensor map
  };
  KindType Kind = Scalar;
  Value Base;
  std::vector<Value> Elems;
  /// [Base, Middle, {Elems...}]: the gAddrToOverride of a tensor copy with
  /// .override::global_address (PTX 9.4).
  std::optional<Value> Middle;
};

/// A guard predicate, `@p` or `@!p`.
struct Guard {
  std::string Name;
  bool Negated = false;
};

/// One recognised instruction and what it does. The fields after Operands
/// are meaningful for the Kind they name; operand roles the form lacks are
/// std::nullopt.
struct Instruction {
  /// The opcode as written, e.g. "cp.async.bulk.tensor.3d.shared::cluster...".
  std::string Opcode;
  /// The instruction's name, e.g. "cp.async.bulk.tensor", "mbarrier.arrive".
  std::string Name;
  /// The dot-separated qualifiers after the name, in written order.
  std::vector<std::string> Qualifiers;
  std::optional<Guard> Predicate;
  std::vector<Operand> Operands;
  /// Byte offset of the opcode in the parsed text.
  std::size_t Pos = 0;

  /// True when \p Q is one of the qualifiers (in any position).
  bool hasQualifier(std::string_view Q) const;

  device::OpKind Kind = device::OpKind::Fence;
  /// Copies: the written destination and source state spaces; barrier ops:
  /// the barrier's (DstSpace); fence.proxy.async: the fenced space.
  device::Space DstSpace = device::Space::Generic;
  device::Space SrcSpace = device::Space::Generic;
  device::BulkDirection BulkDir = device::BulkDirection::GlobalToShared;
  device::TensorDirection TensorDir = device::TensorDirection::Load;
  device::TensorMode Mode = device::TensorMode::Tile;
  device::ReduceOp Reduce = device::ReduceOp::None;
  /// cp.reduce.async.bulk: the element type qualifier, e.g. "f32".
  std::string ElemType;
  /// Tensor copies: N of .Nd.
  unsigned Dims = 0;
  std::optional<unsigned> CtaGroup;
  bool Multicast = false;
  /// ExpectTx: mbarrier.arrive.expect_tx rather than mbarrier.expect_tx.
  bool WithArrive = false;
  /// Wait: .parity (the phase operand is a parity, not a state).
  bool Parity = false;
  /// Wait: try_wait rather than test_wait.
  bool TryWait = false;
  /// cp.reduce.async.bulk: .noftz.
  bool NoFtz = false;
  /// mbarrier.init: N of .layout::vN (PTX 9.3); std::nullopt when none is
  /// written (v0).
  std::optional<unsigned> Layout;
  /// Tensor loads: a .mbarrier::report::* qualifier (PTX 9.4), whose effect
  /// on the transaction count the model does not know.
  bool Report = false;
  device::Scope Scope = device::Scope::None;
  device::FenceKind Fence = device::FenceKind::ProxyAsync;

  // Operand roles.
  std::optional<Value> Dst, Src, Size, Barrier, TensorMap, CtaMask, CachePolicy,
      ByteMask;
  /// cp.async.bulk.ignore_oob (PTX 9.2): ignoreBytesLeft, ignoreBytesRight.
  std::optional<Value> IgnoreLeft, IgnoreRight;
  /// cp.async.bulk.tensor.override::global_address (PTX 9.4): the
  /// gAddrToOverride of [tensorMap, gAddrToOverride, {coords}].
  std::optional<Value> GlobalAddress;
  /// st.bulk: the initval operand.
  std::optional<Value> InitValue;
  std::vector<Value> Coords, Im2colInfo;
  /// mbarrier.init count; mbarrier.arrive count.
  std::optional<Value> Count;
  /// The transaction bytes of mbarrier.{arrive.}expect_tx.
  std::optional<Value> TxCount;
  /// mbarrier.arrive's state result; a wait's predicate result.
  std::optional<Value> Result;
  /// A wait's state or phase parity, and its suspend-time hint.
  std::optional<Value> Phase, SuspendHint;
  /// fence.proxy.tensormap::generic.acquire: the map address and size.
  std::optional<Value> Address, AddressSize;
};

/// The recognised instructions of the asm text \p Text, in text order.
/// \p Extended is true for an asm statement with operand lists (GCC extended
/// asm): there `%%` stands for `%`, and `%N` / `%[name]` name operands. In a
/// basic asm statement `%` is an ordinary character. When \p Unrecognised is
/// given it receives the number of statements whose opcode names a TMA or
/// mbarrier instruction (cp.async.bulk*, cp.reduce.async.bulk*, mbarrier.*,
/// st.bulk) that were not recognised: a form of a newer PTX ISA, or one
/// written wrongly. Callers treat such text as doing something unknown.
std::vector<Instruction> parseAsm(std::string_view Text, bool Extended,
                                  unsigned *Unrecognised = nullptr);

/// One statement's opcode with every qualifier, as ptxas reads it
/// ("cp.async.bulk.tensor.2d.shared::cluster.global.tile"; qualifiers that
/// the text separates by white space are joined), and its byte offset.
struct Opcode {
  std::string Text;
  std::size_t Pos = 0;
};

/// The opcodes of every instruction statement of the asm text \p Text,
/// recognised or not (labels, directives and scope braces are skipped), for
/// the rules that depend only on the instruction's form (tma-rules.md
/// section 7). \p Extended as for parseAsm.
std::vector<Opcode> opcodesOf(std::string_view Text, bool Extended);

/// Whether the opcode \p Op (as opcodesOf spells it) makes an arrive-on
/// operation of an mbarrier that parseAsm does not decode: `tcgen05.commit`
/// (its `.mbarrier::arrive::one` forms) and `cp.async.mbarrier.arrive`
/// (`.noinc` too). Qualifiers are matched whole.
bool isUndecodedArrive(std::string_view Op);

/// A `mapa.shared::cluster.{u32,u64,b32,b64} d, a, rank;` statement: the
/// address a of this CTA's shared memory, mapped to the CTA of rank `rank`,
/// written to d. Not an Instruction: it moves no data (parseAsm skips it);
/// what it maps names the barrier or buffer of a later op.
struct Mapa {
  Value Dst, Addr, Rank;
  bool Guarded = false;
};

/// The well-formed mapa statements of the asm text \p Text, in text order
/// (\p Extended as for parseAsm); \p Statements, when given, receives the
/// number of statements of the text (instructions and directives, past
/// scope braces and labels).
std::vector<Mapa> mapasOf(std::string_view Text, bool Extended,
                          unsigned *Statements = nullptr);

/// A `shfl.sync.{up,down,bfly,idx}.b32 d, a, b, c, membermask;` statement
/// (the form without the predicate output d|p): d receives a from the lane
/// that b (and the clamp c) select. Not an Instruction: it is read only to
/// tell a warp-uniform value (api/ThreadGuards.h).
struct Shuffle {
  /// "up", "down", "bfly" or "idx".
  std::string Mode;
  Value Dst, Src, Lane, Clamp, Mask;
  bool Guarded = false;
};

/// The well-formed shfl.sync statements of the asm text \p Text, in text
/// order; \p Extended and \p Statements as for mapasOf.
std::vector<Shuffle> shufflesOf(std::string_view Text, bool Extended,
                                unsigned *Statements = nullptr);

} // namespace tma::ptx

#endif // TMA_TIDY_API_PTXPARSER_H
