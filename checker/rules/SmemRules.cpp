//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// One function per shared-memory rule id of tma-rules.md. Each reads only
// known values and stays silent otherwise.
//
//===----------------------------------------------------------------------===//

#include "rules/SmemRules.h"
#include "rules/DataTypes.h"
#include <algorithm>
#include <string>

namespace tma::rules {

namespace {

std::string bytes(std::uint64_t N) {
  return std::to_string(N) + (N == 1 ? " byte" : " bytes");
}

/// The common message of the alignment rules.
std::string alignMessage(DeviceParam P, std::uint64_t Align,
                         std::uint64_t Needed, const std::string &Why) {
  return std::string(deviceParamName(P)) + " is guaranteed only " +
         std::to_string(Align) + "-byte alignment, not the " + bytes(Needed) +
         " " + Why;
}

std::string alignSuggestion(std::uint64_t Needed) {
  return "declare the buffer alignas(" + std::to_string(Needed) +
         ") and keep the offset into it a multiple of " + bytes(Needed);
}

std::optional<DeviceViolation>
checkAlign(const char *Id, Known AddressAlign, std::uint64_t Needed,
           const std::string &Why, DeviceParam P = DeviceParam::SmemAddress) {
  if (!AddressAlign || *AddressAlign == 0 || *AddressAlign >= Needed)
    return std::nullopt;
  return DeviceViolation{
      Id,
      P,
      *AddressAlign,
      Needed,
      alignMessage(P, *AddressAlign, Needed, Why),
      P == DeviceParam::GlobalAddress
          ? "keep the offset from the allocation a multiple of " +
                bytes(Needed)
          : alignSuggestion(Needed)};
}

} // namespace

std::uint64_t lowestPowerOfTwo(std::int64_t Offset) {
  auto U = static_cast<std::uint64_t>(Offset);
  return U & (~U + 1);
}

Known addressAlign(Known BaseAlign, std::optional<std::int64_t> Offset,
                   bool BaseIsWholeGuarantee) {
  if (!BaseAlign || *BaseAlign == 0 || !Offset)
    return std::nullopt;
  std::uint64_t Low = lowestPowerOfTwo(*Offset);
  // The offset's low bit decides: base + offset has exactly that bit as its
  // lowest set one.
  if (Low != 0 && Low < *BaseAlign)
    return Low;
  if (!BaseIsWholeGuarantee)
    return std::nullopt;
  return BaseAlign;
}

std::optional<MemberViolation>
firstMemberViolation(Known BaseAlign, bool Whole, std::uint64_t Members,
                     std::int64_t Member0, std::uint64_t Stride,
                     std::optional<DeviceViolation> (*Rule)(Known)) {
  // Offsets repeat modulo the largest alignment a rule asks for (a
  // swizzle's 1024 bytes) after at most that many members.
  Members = std::min<std::uint64_t>(Members, 1024);
  if (Stride == 0 || Stride > (std::uint64_t(1) << 30))
    return std::nullopt;
  for (std::uint64_t M = 0; M < Members; ++M) {
    std::int64_t Offset = Member0 + static_cast<std::int64_t>(M * Stride);
    if (auto V = Rule(addressAlign(BaseAlign, Offset, Whole)))
      return MemberViolation{M, Offset, std::move(*V)};
  }
  return std::nullopt;
}

std::optional<std::uint64_t> swizzleRepeatBytes(std::uint64_t Swizzle) {
  if (std::uint64_t Repeat = swizzleRepeat(Swizzle))
    return Repeat;
  return std::nullopt;
}

std::optional<DeviceViolation> checkBulkAddrAlign16(Known AddressAlign,
                                                   DeviceParam Operand) {
  return checkAlign("BULK-ADDR-ALIGN16", AddressAlign, BulkAddrAlign,
                    "that a bulk copy needs", Operand);
}

std::uint64_t tmaSmemAlignNeeded(Known Swizzle) {
  std::optional<std::uint64_t> Repeat =
      Swizzle ? swizzleRepeatBytes(*Swizzle) : std::nullopt;
  return Repeat && *Repeat > TmaSmemAlign ? *Repeat : TmaSmemAlign;
}

std::string tmaSmemAlignSuggestion(Known Swizzle) {
  std::uint64_t Needed = tmaSmemAlignNeeded(Swizzle);
  // Fixed to 128 alone, the address would then break TMA-SMEM-ALIGN-SWIZZLE.
  if (Needed > TmaSmemAlign)
    return alignSuggestion(Needed) + ", after which " + swizzleName(*Swizzle) +
           " repeats";
  return alignSuggestion(TmaSmemAlign);
}

std::optional<DeviceViolation> checkTmaSmemAlign128(Known AddressAlign) {
  return checkAlign("TMA-SMEM-ALIGN-128", AddressAlign, TmaSmemAlign,
                    "that a tensor copy's box needs");
}

std::optional<DeviceViolation> checkMbarLocationAlign(Known AddressAlign) {
  return checkAlign("MBAR-LOCATION-ALIGN", AddressAlign, MbarAlign,
                    "that an mbarrier object (.b64) needs", DeviceParam::Mbar);
}

std::optional<DeviceViolation> checkMbarLocationSpace(BarrierSpace Space) {
  const char *What = nullptr;
  switch (Space) {
  case BarrierSpace::Unknown:
    return std::nullopt;
  case BarrierSpace::Local:
    What = "a local variable's, in local memory";
    break;
  case BarrierSpace::Global:
    What = "a __device__ variable's, in global memory";
    break;
  case BarrierSpace::StaticLocal:
    What = "a static local variable's, in global memory";
    break;
  case BarrierSpace::Constant:
    What = "a __constant__ variable's, in constant memory";
    break;
  }
  // Value: the BarrierSpace found; a state space has no limit.
  return DeviceViolation{"MBAR-LOCATION-ALIGN", DeviceParam::Mbar,
                         static_cast<std::uint64_t>(Space), 0,
                         std::string("mbarrier address is ") + What +
                             "; an mbarrier object must be in shared memory",
                         "declare the barrier __shared__"};
}

std::optional<DeviceViolation> checkTmaSmemAlignSwizzle(Known AddressAlign,
                                                        Known Swizzle) {
  if (!Swizzle)
    return std::nullopt;
  std::optional<std::uint64_t> Repeat = swizzleRepeatBytes(*Swizzle);
  // Below 128 bytes TMA-SMEM-ALIGN-128 already reports the address.
  if (!Repeat || !AddressAlign || *AddressAlign < TmaSmemAlign)
    return std::nullopt;
  return checkAlign("TMA-SMEM-ALIGN-SWIZZLE", AddressAlign, *Repeat,
                    std::string("after which ") + swizzleName(*Swizzle) +
                        " repeats");
}

std::optional<DeviceViolation> checkTmaSmemFootprint(Known AvailableBytes,
                                                     Known BoxBytes) {
  if (!AvailableBytes || !BoxBytes || *BoxBytes <= *AvailableBytes)
    return std::nullopt;
  return DeviceViolation{
      "TMA-SMEM-FOOTPRINT",
      DeviceParam::SmemAddress,
      *BoxBytes,
      *AvailableBytes,
      "box of " + bytes(*BoxBytes) + " does not fit in the " +
          bytes(*AvailableBytes) +
          " from the shared-memory address to the end of its buffer",
      "enlarge the buffer by " + bytes(*BoxBytes - *AvailableBytes)};
}

} // namespace tma::rules
