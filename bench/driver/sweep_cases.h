//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Plain C++17, no CUDA include.
//
//===----------------------------------------------------------------------===//
//
// The descriptors of the driver sweep: boundary and random operand sets for
// the three encoders and every data type, generated deterministically from a
// seed, so that the GPU recorder (sweep_probe.cpp) and the CI replay
// (tests/unit/DriverSweepTest.cpp) see the same list.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_BENCH_DRIVER_SWEEP_CASES_H
#define TMA_TIDY_BENCH_DRIVER_SWEEP_CASES_H

#include "tma/rules/Im2colRules.h"
#include "tma/rules/TiledRules.h"

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tma::sweep {

enum class Kind { Tiled, Im2col, Im2colWide };

/// One descriptor: every operand of the three encoders (each kind reads its
/// own). Arrays hold exactly the elements passed; an empty Strides with
/// NullStrides passes a null pointer.
struct Case {
  Kind K = Kind::Tiled;
  std::uint32_t DataType = 0, Rank = 1;
  std::vector<std::uint64_t> Dims, Strides;
  bool NullStrides = false;
  std::vector<std::uint32_t> Box, ElemStrides;
  std::vector<int> Lower, Upper;     // Im2col corners
  int LowerW = 0, UpperW = 0;        // Im2colWide corners
  std::uint32_t Channels = 0, Pixels = 0, Mode = 0;
  std::uint32_t Interleave = 0, Swizzle = 0, L2 = 0, Oob = 0;
};

inline const char *kindName(Kind K) {
  return K == Kind::Tiled ? "tiled" : K == Kind::Im2col ? "im2col" : "wide";
}

template <typename T> std::string join(const std::vector<T> &V) {
  std::ostringstream S;
  for (std::size_t I = 0; I < V.size(); ++I)
    S << (I ? "," : "") << V[I];
  return S.str();
}

/// The operands as one tab-separated row (the recorder's first columns).
inline std::string describe(const Case &C) {
  std::ostringstream S;
  S << kindName(C.K) << '\t' << C.DataType << '\t' << C.Rank << '\t'
    << join(C.Dims) << '\t' << (C.NullStrides ? "null" : join(C.Strides))
    << '\t' << join(C.Box) << '\t' << join(C.ElemStrides) << '\t'
    << join(C.Lower) << '\t' << join(C.Upper) << '\t' << C.LowerW << '\t'
    << C.UpperW << '\t' << C.Channels << '\t' << C.Pixels << '\t' << C.Mode
    << '\t' << C.Interleave << '\t' << C.Swizzle << '\t' << C.L2 << '\t'
    << C.Oob;
  return S.str();
}

inline rules::KnownArray knownArray(const std::vector<std::uint64_t> &V) {
  rules::KnownArray A;
  for (std::uint64_t X : V)
    A.Elems.push_back(X);
  A.Provided = V.size();
  return A;
}

template <typename T> std::vector<std::uint64_t> widen(const std::vector<T> &V) {
  return std::vector<std::uint64_t>(V.begin(), V.end());
}

/// The rule model's verdict on \p C: every violation it reports.
inline std::vector<rules::Violation> modelVerdict(const Case &C) {
  rules::KnownArray Strides = knownArray(C.Strides);
  if (C.NullStrides) {
    Strides = {};
    Strides.Null = true;
  }
  auto Common = [&](auto &D) {
    D.DataType = C.DataType;
    D.Rank = C.Rank;
    D.GlobalDim = knownArray(C.Dims);
    D.GlobalStrides = Strides;
    D.ElementStrides = knownArray(widen(C.ElemStrides));
    D.Interleave = C.Interleave;
    D.Swizzle = C.Swizzle;
    D.L2Promotion = C.L2;
    D.OobFill = C.Oob;
  };
  switch (C.K) {
  case Kind::Tiled: {
    rules::TiledDescriptor D;
    Common(D);
    D.BoxDim = knownArray(widen(C.Box));
    return rules::checkTiled(D);
  }
  case Kind::Im2col: {
    rules::Im2colDescriptor D;
    Common(D);
    for (int V : C.Lower)
      D.PixelBoxLowerCorner.Elems.push_back(V);
    D.PixelBoxLowerCorner.Provided = C.Lower.size();
    for (int V : C.Upper)
      D.PixelBoxUpperCorner.Elems.push_back(V);
    D.PixelBoxUpperCorner.Provided = C.Upper.size();
    D.ChannelsPerPixel = C.Channels;
    D.PixelsPerColumn = C.Pixels;
    return rules::checkIm2col(D);
  }
  case Kind::Im2colWide: {
    rules::Im2colWideDescriptor D;
    Common(D);
    D.PixelBoxLowerCornerWidth = C.LowerW;
    D.PixelBoxUpperCornerWidth = C.UpperW;
    D.ChannelsPerPixel = C.Channels;
    D.PixelsPerColumn = C.Pixels;
    D.Mode = C.Mode;
    return rules::checkIm2colWide(D);
  }
  }
  return {};
}

/// "-" or the ids of the violations, comma-separated (the record's model
/// column).
inline std::string verdictText(const std::vector<rules::Violation> &Vs) {
  if (Vs.empty())
    return "-";
  std::string S;
  for (const rules::Violation &V : Vs)
    S += (S.empty() ? "" : ",") + std::string(V.RuleId);
  return S;
}

/// Element bits in global memory of each CUtensorMapDataType (tma-rules.md
/// section 6).
constexpr unsigned Bits[] = {8, 16, 32, 32, 64, 64, 16, 32,
                             64, 16, 32, 32, 32, 4, 4, 6};

/// A valid-looking descriptor of kind \p K and data type \p DT: dense
/// strides, a box or pixel box that fits, no swizzle restrictions broken.
inline Case base(Kind K, std::uint32_t DT, std::uint32_t Rank) {
  Case C;
  C.K = K;
  C.DataType = DT;
  C.Rank = Rank;
  bool Packed16 = DT == 14 || DT == 15;
  std::uint64_t Inner = Packed16 ? 256 : 128;
  C.Dims.assign(Rank, 16);
  C.Dims[0] = Inner;
  std::uint64_t Row = Inner * (DT < 16 ? Bits[DT] : 8) / 8;
  Row = (Row + 31) / 32 * 32;
  std::uint64_t S = Row;
  for (std::uint32_t I = 1; I < Rank; ++I) {
    C.Strides.push_back(S);
    S *= C.Dims[I];
  }
  C.ElemStrides.assign(Rank, 1);
  C.Box.assign(Rank, 8);
  unsigned BoxBits = DT == 15 ? 8 : DT < 16 ? Bits[DT] : 8;
  C.Box[0] = Packed16 ? 128 : 128 * 8 / BoxBits;  // 128 bytes
  if (C.Box[0] > 256)
    C.Box[0] = 256;
  C.Lower.assign(Rank >= 2 ? Rank - 2 : 0, 0);
  C.Upper.assign(Rank >= 2 ? Rank - 2 : 0, 0);
  C.Channels = Packed16 ? 128 : 128 * 8 / BoxBits;
  if (C.Channels > 256)
    C.Channels = 256;
  C.Pixels = 64;
  C.Swizzle = 3;  // 128B
  C.L2 = 2;
  return C;
}

/// Both sides of the limits of the operands every encoder shares, and of
/// the enum ranges, on the valid descriptor \p B: globalDim (0, 2^32,
/// 2^32 + 1), the last globalStride (a 16-byte granule off by 8, 2^40 - 32,
/// 2^40), the last boxDim (0, 1, 256, 257), the last elementStride (0, 1, 8,
/// 9), oobFill (1, 2), l2Promotion (3, 4), the Im2colWide mode (1, 2), and
/// an empty pixel box.
inline std::vector<Case> operandBoundaries(const Case &B) {
  std::vector<Case> Out;
  auto With = [&](auto Edit) {
    Case C = B;
    Edit(C);
    Out.push_back(C);
  };
  std::uint32_t Last = B.Rank - 1;
  for (std::uint64_t D : {std::uint64_t{0}, std::uint64_t{1} << 32,
                          (std::uint64_t{1} << 32) + 1})
    With([&](Case &C) { C.Dims[Last] = D; });
  if (!B.Strides.empty())
    for (std::uint64_t S :
         {B.Strides.back() + 8, (std::uint64_t{1} << 40) - 32,
          std::uint64_t{1} << 40})
      With([&](Case &C) { C.Strides.back() = S; });
  for (std::uint32_t X : {0u, 1u, 256u, 257u})
    With([&](Case &C) { C.Box[Last] = X; });
  for (std::uint32_t X : {0u, 1u, 8u, 9u})
    With([&](Case &C) { C.ElemStrides[Last] = X; });
  for (std::uint32_t X : {1u, 2u})
    With([&](Case &C) { C.Oob = X; });
  for (std::uint32_t X : {3u, 4u})
    With([&](Case &C) { C.L2 = X; });
  for (std::uint32_t X : {1u, 2u})
    With([&](Case &C) { C.Mode = X; });
  // An empty pixel box: lower corner past the upper one.
  With([&](Case &C) {
    if (!C.Lower.empty()) {
      C.Lower[0] = 1;
      C.Upper[0] = 0;
    }
    C.LowerW = 1;
    C.UpperW = 0;
  });
  return Out;
}

/// The sweep: boundary cases of every encoder x data type x rule boundary,
/// then random perturbations, \p Count in all (at least 4,000 random ones
/// with the default).
inline std::vector<Case> generateCases(unsigned Seed = 1,
                                       std::size_t Count = 20000) {
  std::vector<Case> Out;
  const Kind Kinds[] = {Kind::Tiled, Kind::Im2col, Kind::Im2colWide};
  // Boundaries, deterministic.
  for (Kind K : Kinds)
    for (std::uint32_t DT = 0; DT <= 16; ++DT)
      for (std::uint32_t Rank = 0; Rank <= 6; ++Rank) {
        Case C = base(K, DT, Rank == 0 ? 3 : Rank);
        C.Rank = Rank;
        Out.push_back(C);
        if (Rank < 1 || Rank > 5)
          continue;
        Case N = base(K, DT, Rank);
        N.Strides.clear();
        N.NullStrides = true;
        Out.push_back(N);
        for (std::uint32_t Sw = 0; Sw <= 7; ++Sw)
          for (std::uint32_t Il = 0; Il <= 2; ++Il) {
            Case V = base(K, DT, Rank);
            V.Swizzle = Sw;
            V.Interleave = Il;
            Out.push_back(V);
          }
        for (std::uint32_t Ch : {0u, 1u, 16u, 32u, 64u, 65u, 128u, 256u, 257u}) {
          Case V = base(K, DT, Rank);
          V.Channels = Ch;
          V.Box[0] = Ch;
          Out.push_back(V);
        }
        for (std::uint32_t Px : {0u, 1u, 1024u, 1025u}) {
          Case V = base(K, DT, Rank);
          V.Pixels = Px;
          V.Mode = Px % 2;
          Out.push_back(V);
        }
        for (const Case &V : operandBoundaries(base(K, DT, Rank)))
          Out.push_back(V);
      }
  // Corner ranges of each rank.
  for (std::uint32_t Rank = 3; Rank <= 5; ++Rank) {
    int B = Rank == 3 ? 32768 : Rank == 4 ? 128 : 16;
    for (int V : {-B - 1, -B, B - 1, B}) {
      Case C = base(Kind::Im2col, 6, Rank);
      C.Dims.assign(Rank, 40000 / (Rank * Rank));
      C.Dims[0] = 128;
      C.Strides.clear();
      std::uint64_t S = 256;
      for (std::uint32_t I = 1; I < Rank; ++I) {
        C.Strides.push_back(S);
        S *= C.Dims[I];
      }
      C.Lower[0] = V;
      Out.push_back(C);
      C.Lower[0] = 0;
      C.Upper[0] = V;
      Out.push_back(C);
      Case W = base(Kind::Im2colWide, 6, Rank);
      W.Dims = C.Dims;
      W.Strides = C.Strides;
      W.LowerW = V;
      Out.push_back(W);
      W.LowerW = 0;
      W.UpperW = V;
      Out.push_back(W);
    }
  }
  // Random perturbations of valid bases.
  std::mt19937 Rng(Seed);
  auto Pick = [&](std::uint64_t N) { return std::uint64_t(Rng() % N); };
  while (Out.size() < Count) {
    Kind K = Kinds[Pick(3)];
    std::uint32_t DT = Pick(16);
    std::uint32_t Rank = K == Kind::Tiled ? 1 + Pick(5) : 3 + Pick(3);
    Case C = base(K, DT, Rank);
    switch (Pick(10)) {
    case 0:
      C.Dims[Pick(Rank)] = Pick(3) == 0 ? 0 : 1 + Pick(1 << 20);
      break;
    case 1:
      if (!C.Strides.empty())
        C.Strides[Pick(C.Strides.size())] = 16 * Pick(1 << 16) + Pick(3) * 8;
      break;
    case 2:
      C.Box[Pick(Rank)] = Pick(300);
      break;
    case 3:
      C.ElemStrides[Pick(Rank)] = Pick(10);
      break;
    case 4:
      C.Swizzle = Pick(7);
      C.Interleave = Pick(3);
      break;
    case 5:
      C.Channels = Pick(300);
      break;
    case 6:
      C.Pixels = Pick(1100);
      C.Mode = Pick(2);
      break;
    case 7:
      if (!C.Lower.empty())
        C.Lower[Pick(C.Lower.size())] = int(Pick(80)) - 40;
      C.LowerW = int(Pick(80)) - 40;
      C.UpperW = int(Pick(80)) - 40;
      break;
    case 8:
      C.Oob = Pick(2);
      C.L2 = Pick(4);
      break;
    default:
      C.Dims[0] = 2 * Pick(512) + Pick(2);
      break;
    }
    Out.push_back(C);
  }
  return Out;
}

} // namespace tma::sweep

#endif // TMA_TIDY_BENCH_DRIVER_SWEEP_CASES_H
