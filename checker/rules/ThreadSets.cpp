//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/ThreadSets.h"

#include <algorithm>
#include <bitset>

namespace tma::rules::threads {

Cond Cond::atom(ThreadExpr E, Cmp Op, std::int64_t V) {
  Cond C;
  C.K = Atom;
  C.Expr = std::move(E);
  C.Op = Op;
  C.Value = V;
  return C;
}
Cond Cond::both(Cond A, Cond B) {
  Cond C;
  C.K = And;
  C.Kids = {std::move(A), std::move(B)};
  return C;
}
Cond Cond::either(Cond A, Cond B) {
  Cond C;
  C.K = Or;
  C.Kids = {std::move(A), std::move(B)};
  return C;
}
Cond Cond::negate(Cond A) {
  Cond C;
  C.K = Not;
  C.Kids = {std::move(A)};
  return C;
}
Cond Cond::elect() {
  Cond C;
  C.K = Elect;
  return C;
}

ThreadSet ThreadSet::under(Cond C, bool Holds) const {
  ThreadSet S = *this;
  S.Guards.emplace_back(std::move(C), Holds);
  return S;
}

BlockSize blockSizeOf(std::optional<unsigned> Launch,
                      std::optional<unsigned> MaxThreads) {
  BlockSize B;
  if (MaxThreads && *MaxThreads >= 1 && *MaxThreads < B.Max)
    B.Max = *MaxThreads;
  if (Launch && *Launch >= 1 && *Launch <= B.Max)
    B.Min = B.Max = *Launch;
  return B;
}

namespace {
using Mask = std::uint32_t;

std::int64_t apply(const ThreadExpr &E, std::int64_t T) {
  for (const Step &S : E) {
    switch (S.Kind) {
    case Step::Div:
      T = S.Value ? T / S.Value : 0;
      break;
    case Step::Mod:
      T = S.Value ? T % S.Value : 0;
      break;
    case Step::And:
      T &= S.Value;
      break;
    case Step::Shr:
      T = S.Value >= 0 && S.Value < 63 ? T >> S.Value : 0;
      break;
    case Step::Shl:
      T = S.Value >= 0 && S.Value < 32 ? T << S.Value : 0;
      break;
    case Step::Add:
      T += S.Value;
      break;
    case Step::Sub:
      T -= S.Value;
      break;
    case Step::Mul:
      T *= S.Value;
      break;
    }
  }
  return T;
}

bool compare(std::int64_t L, Cmp Op, std::int64_t R) {
  switch (Op) {
  case Cmp::EQ:
    return L == R;
  case Cmp::NE:
    return L != R;
  case Cmp::LT:
    return L < R;
  case Cmp::LE:
    return L <= R;
  case Cmp::GT:
    return L > R;
  case Cmp::GE:
    return L >= R;
  }
  return false;
}

/// The lanes of warp \p W among \p Active where \p C holds.
Mask eval(const Cond &C, unsigned W, Mask Active) {
  switch (C.K) {
  case Cond::True:
    return Active;
  case Cond::Atom: {
    Mask M = 0;
    for (unsigned L = 0; L < 32; ++L)
      if ((Active >> L & 1) &&
          compare(apply(C.Expr, W * 32 + L), C.Op, C.Value))
        M |= Mask(1) << L;
    return M;
  }
  case Cond::And: {
    Mask A = eval(C.Kids[0], W, Active);
    return eval(C.Kids[1], W, A);
  }
  case Cond::Or: {
    Mask A = eval(C.Kids[0], W, Active);
    return A | eval(C.Kids[1], W, Active & ~A);
  }
  case Cond::Not:
    return Active & ~eval(C.Kids[0], W, Active);
  case Cond::Elect:
    return Active & (~Active + 1); // the lowest set bit
  }
  return 0;
}

/// The lanes of warp \p W that run an operation of \p S, in a block of
/// \p Block threads.
Mask lanes(const ThreadSet &S, unsigned W, unsigned Block) {
  if (W * 32 >= Block)
    return 0;
  unsigned Here = std::min(32u, Block - W * 32);
  Mask Active = Here == 32 ? ~Mask(0) : (Mask(1) << Here) - 1;
  for (const auto &[C, Holds] : S.Guards) {
    Mask M = eval(C, W, Active);
    Active = Holds ? M : Active & ~M;
  }
  return Active;
}

unsigned popcount(Mask M) { return std::bitset<32>(M).count(); }
unsigned lowest(Mask M) {
  unsigned L = 0;
  while (!(M >> L & 1))
    ++L;
  return L;
}
} // namespace

bool warpUniform(const ThreadExpr &F) {
  for (unsigned W = 0; W < 32; ++W)
    for (unsigned L = 1; L < 32; ++L)
      if (apply(F, W * 32 + L) != apply(F, W * 32))
        return false;
  return true;
}

bool contains(const ThreadSet &S, unsigned T) {
  return T < 1024 && (lanes(S, T / 32, 1024) >> (T % 32) & 1);
}

unsigned countAt(const ThreadSet &S, unsigned Block) {
  unsigned N = 0;
  for (unsigned W = 0; W * 32 < Block; ++W)
    N += popcount(lanes(S, W, Block));
  return N;
}

std::optional<unsigned> issuers(const ThreadSet &S, BlockSize B) {
  unsigned Low = countAt(S, B.Min);
  if (countAt(S, B.Max) != Low)
    return std::nullopt;
  return Low;
}

std::optional<unsigned> firstOutside(const ThreadSet &A, const ThreadSet &B,
                                     BlockSize Block) {
  for (unsigned W = 0; W * 32 < Block.Max; ++W)
    if (Mask M = lanes(A, W, Block.Max) & ~lanes(B, W, Block.Max))
      return W * 32 + lowest(M);
  return std::nullopt;
}

bool includedIn(const ThreadSet &A, const ThreadSet &B, BlockSize Block) {
  return !firstOutside(A, B, Block);
}

bool inWarpsOf(const ThreadSet &A, const ThreadSet &B, BlockSize Block) {
  for (unsigned W = 0; W * 32 < Block.Max; ++W)
    if (lanes(A, W, Block.Max) && !lanes(B, W, Block.Max))
      return false;
  return true;
}

bool allOutside(const ThreadSet &A, const ThreadSet &B, BlockSize Block) {
  bool Some = false;
  for (unsigned W = 0; W * 32 < Block.Max; ++W) {
    Mask M = lanes(A, W, Block.Max);
    if (M & lanes(B, W, Block.Max))
      return false;
    Some |= M != 0;
  }
  return Some;
}

std::optional<std::pair<unsigned, unsigned>> span(const ThreadSet &S,
                                                  unsigned Block) {
  std::optional<std::pair<unsigned, unsigned>> Out;
  for (unsigned W = 0; W * 32 < Block; ++W)
    if (Mask M = lanes(S, W, Block)) {
      unsigned High = 31;
      while (!(M >> High & 1))
        --High;
      if (!Out)
        Out.emplace(W * 32 + lowest(M), 0);
      Out->second = W * 32 + High;
    }
  return Out;
}

bool shareAWarp(const ThreadSet &A, const ThreadSet &B, BlockSize Block) {
  for (unsigned W = 0; W * 32 < Block.Max; ++W)
    if (lanes(A, W, Block.Max) && lanes(B, W, Block.Max))
      return true;
  return false;
}

bool provenOutside(const ThreadSet &A, const std::vector<const ThreadSet *> &B,
                   BlockSize Block) {
  unsigned Surely = std::min(std::max(Block.Min, 32u), Block.Max);
  for (unsigned W = 0; W * 32 < Surely; ++W) {
    Mask M = lanes(A, W, Surely);
    for (const ThreadSet *S : B)
      M &= ~lanes(*S, W, Surely);
    if (M)
      return true;
  }
  return false;
}

} // namespace tma::rules::threads
