//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// Each device rule lives in one function below, named after its id in
// tma-rules.md. A rule reads only known values and stays silent when one of
// its inputs is unknown.
//
//===----------------------------------------------------------------------===//

#include "rules/DeviceRules.h"

#include <algorithm>
#include <string>

namespace tma::rules {

std::string detail::bytes(std::uint64_t N) {
  return std::to_string(N) + (N == 1 ? " byte" : " bytes");
}

DeviceViolation detail::make(const char *Id, DeviceParam P,
                             std::uint64_t Value, std::uint64_t Limit,
                             std::string Message, std::string Suggestion) {
  return DeviceViolation{
      Id, P, Value, Limit, std::move(Message), std::move(Suggestion)};
}

namespace {

using detail::bytes;
using detail::make;

/// The value a 32-bit unsigned instruction operand holds.
std::uint64_t asU32(std::uint64_t V) { return V & 0xffffffffu; }

} // namespace

const char *deviceParamName(DeviceParam P) {
  switch (P) {
  case DeviceParam::Size:
    return "size";
  case DeviceParam::TxCount:
    return "txCount";
  case DeviceParam::InitCount:
    return "count";
  case DeviceParam::Coords:
    return "coordinates";
  case DeviceParam::Dims:
    return "dim";
  case DeviceParam::LoadMode:
    return "load_mode";
  case DeviceParam::Direction:
    return "direction";
  case DeviceParam::SmemAddress:
    return "shared-memory address";
  case DeviceParam::IgnoreBytesLeft:
    return "ignoreBytesLeft";
  case DeviceParam::IgnoreBytesRight:
    return "ignoreBytesRight";
  case DeviceParam::InitValue:
    return "initval";
  case DeviceParam::ReduceOp:
    return ".redOp.type";
  case DeviceParam::Im2colInfo:
    return "im2colInfo";
  case DeviceParam::CtaMask:
    return "ctaMask";
  case DeviceParam::ElementType:
    return "element type";
  case DeviceParam::TensorMap:
    return "tensorMap";
  case DeviceParam::GlobalAddress:
    return "global address";
  case DeviceParam::Mbar:
    return "mbarrier address";
  case DeviceParam::NewValue:
    return "new_val";
  }
  return "?";
}

std::optional<DeviceViolation> checkBulkSizeMul16(Known Size) {
  if (!Size)
    return std::nullopt;
  std::uint64_t S = asU32(*Size);
  if (S == 0)
    return make("BULK-SIZE-MUL16", DeviceParam::Size, S, BulkSizeGranule,
                "size is 0 bytes; a bulk copy moves a non-zero multiple of " +
                    bytes(BulkSizeGranule));
  if (S % BulkSizeGranule == 0)
    return std::nullopt;
  std::uint64_t Up = (S / BulkSizeGranule + 1) * BulkSizeGranule;
  return make("BULK-SIZE-MUL16", DeviceParam::Size, S, BulkSizeGranule,
              "size is " + bytes(S) + ", not a multiple of " +
                  bytes(BulkSizeGranule),
              "pad the transfer to " + bytes(Up));
}

std::optional<DeviceViolation> checkMbarTxRange(Known Bytes) {
  if (!Bytes)
    return std::nullopt;
  std::uint64_t B = asU32(*Bytes);
  if (B <= MaxMbarrierCount)
    return std::nullopt;
  std::string Message =
      "txCount is " + bytes(B) + ", above 2^20-1 = " + bytes(MaxMbarrierCount);
  // A count of bits instead of bytes is the typical cause.
  std::string Suggestion;
  if (B % 8 == 0 && B / 8 <= MaxMbarrierCount)
    Suggestion = "if the count is in bits, the byte count is " + bytes(B / 8);
  return make("MBAR-TX-RANGE", DeviceParam::TxCount, B, MaxMbarrierCount,
              std::move(Message), std::move(Suggestion));
}

std::optional<DeviceViolation> checkMbarInitCount(Known Count) {
  if (!Count)
    return std::nullopt;
  std::uint64_t C = asU32(*Count);
  if (C >= 1 && C <= MaxMbarrierCount)
    return std::nullopt;
  return make("MBAR-INIT-COUNT", DeviceParam::InitCount, C,
              C == 0 ? 1 : MaxMbarrierCount,
              "count is " + std::to_string(C) +
                  (C == 1 ? " arrival" : " arrivals") +
                  ", outside the valid range [1, " +
                  std::to_string(MaxMbarrierCount) + "]");
}

std::optional<DeviceViolation> checkTmaCoordCount(Known Dims, Known Coords,
                                                  CoordShape Shape) {
  if (!Dims || !Coords || *Dims < 1 || *Dims > 5)
    return std::nullopt;
  std::uint64_t Expected = Shape == CoordShape::Gather4 ? 5 : *Dims;
  if (*Coords == Expected)
    return std::nullopt;
  std::string What = "." + std::to_string(*Dims) + "d";
  if (Shape == CoordShape::Gather4)
    What += " .tile::gather4/scatter4";
  return make("TMA-COORD-COUNT", DeviceParam::Coords, *Coords, Expected,
              "coordinates has " + std::to_string(*Coords) +
                  (*Coords == 1 ? " element" : " elements") + ", but " + What +
                  " takes exactly " + std::to_string(Expected));
}

// The byte counts added up, or nothing when one of them is unknown.
static std::optional<std::uint64_t> sumOf(const std::vector<Known> &Counts) {
  std::uint64_t Sum = 0;
  for (const Known &C : Counts) {
    if (!C)
      return std::nullopt;
    Sum += asU32(*C);
  }
  return Sum;
}

std::optional<DeviceViolation>
checkMbarTxEqualsBytes(const std::vector<Known> &Expected,
                       const std::vector<Known> &Delivered,
                       const std::string &Barrier, std::uint64_t SelfExpected) {
  if (Expected.empty() || Delivered.empty())
    return std::nullopt;
  std::optional<std::uint64_t> SumExpected = sumOf(Expected),
                               SumDelivered = sumOf(Delivered);
  if (!SumExpected || !SumDelivered)
    return std::nullopt;
  std::uint64_t N = *SumExpected, M = *SumDelivered;
  if (N == M)
    return std::nullopt;
  // What the explicit expect-tx should count: the copies that expect their
  // own bytes need none.
  std::uint64_t Explicit = M - std::min(M, SelfExpected);
  std::string Suggestion =
      SelfExpected == 0 ? "expect " + bytes(M)
      : Explicit == 0
          ? "remove this expect-tx: cuda::memcpy_async already expects the " +
                bytes(SelfExpected) + " it copies (MEMCPY-ASYNC-TX-OWNED)"
          : "expect " + bytes(Explicit) +
                ": cuda::memcpy_async already "
                "expects its own " +
                bytes(SelfExpected) + " (MEMCPY-ASYNC-TX-OWNED)";
  return make("MBAR-TX-EQUALS-BYTES", DeviceParam::TxCount, N, Explicit,
              "expect-tx of " + bytes(N) + " on '" + Barrier +
                  "' but the copies completing on it in this phase deliver " +
                  bytes(M),
              std::move(Suggestion));
}

std::optional<DeviceViolation>
checkMbarTxClusterBytes(const std::vector<Known> &Expected,
                        const std::vector<Known> &Delivered,
                        const std::string &Barrier, std::uint64_t Rank,
                        std::uint64_t Ctas) {
  if (Expected.empty())
    return std::nullopt;
  std::optional<std::uint64_t> SumExpected = sumOf(Expected),
                               SumDelivered = sumOf(Delivered);
  if (!SumExpected || !SumDelivered)
    return std::nullopt;
  std::uint64_t N = *SumExpected, M = *SumDelivered;
  if (N == M)
    return std::nullopt;
  const std::string Where = "in CTA " + std::to_string(Rank) +
                            " of the cluster of " + std::to_string(Ctas);
  if (Delivered.empty())
    return make("MBAR-TX-EQUALS-BYTES", DeviceParam::TxCount, N, 0,
                "expect-tx of " + bytes(N) + " on '" + Barrier + "' " + Where +
                    ", but no copy of the cluster completes on it there: its "
                    "phase never completes",
                "send the bytes to this CTA (a multicast mask or a mapa "
                "rank that names it), or expect none here");
  return make("MBAR-TX-EQUALS-BYTES", DeviceParam::TxCount, N, M,
              Where + ", expect-tx of " + bytes(N) + " on '" + Barrier +
                  "' but the copies of the cluster completing on it in this "
                  "phase deliver " +
                  bytes(M),
              "expect " + bytes(M) + " in CTA " + std::to_string(Rank));
}

std::optional<DeviceViolation>
checkMbarTxIssuers(const std::vector<Known> &Expected,
                   const std::vector<unsigned> &ExpectIssuers,
                   const std::vector<Known> &Delivered,
                   const std::vector<unsigned> &CopyIssuers,
                   const std::string &Barrier) {
  if (Expected.empty() || Delivered.empty() ||
      Expected.size() != ExpectIssuers.size() ||
      Delivered.size() != CopyIssuers.size())
    return std::nullopt;
  std::vector<unsigned> All = ExpectIssuers;
  All.insert(All.end(), CopyIssuers.begin(), CopyIssuers.end());
  if (std::all_of(All.begin(), All.end(),
                  [&](unsigned N) { return N == All.front(); }))
    return std::nullopt;
  std::uint64_t N = 0, M = 0;
  unsigned Issuers = 0, Expecters = 0;
  for (std::size_t I = 0; I < Expected.size(); ++I) {
    if (!Expected[I])
      return std::nullopt;
    N += asU32(*Expected[I]) * ExpectIssuers[I];
    Expecters = std::max(Expecters, ExpectIssuers[I]);
  }
  for (std::size_t I = 0; I < Delivered.size(); ++I) {
    if (!Delivered[I])
      return std::nullopt;
    M += asU32(*Delivered[I]) * CopyIssuers[I];
    Issuers = std::max(Issuers, CopyIssuers[I]);
  }
  if (N == M)
    return std::nullopt;
  auto Threads = [](unsigned K) {
    return std::to_string(K) + (K == 1 ? " thread" : " threads");
  };
  return make("MBAR-TX-ISSUERS", DeviceParam::TxCount, N, M,
              "expect-tx of " + bytes(N) + " on '" + Barrier + "' (issued by " +
                  Threads(Expecters) + ") but " + Threads(Issuers) +
                  " issue the copies completing on it in this phase, which "
                  "deliver " +
                  bytes(M),
              "expect " + bytes(M) +
                  " in all, or issue the copy from as many threads as the "
                  "expect-tx counts");
}

} // namespace tma::rules
