//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/UninitSite.h"

namespace tma::rules::ordering {

bool mayCover(const PoolSlot &Init, const PoolSlot &Use) {
  auto Member = [](std::int64_t At, const PoolSlot &F, bool Bounded) {
    if (At < F.Offset || (At - F.Offset) % F.Stride)
      return false;
    return !Bounded || !F.InitsKnown ||
           static_cast<std::uint64_t>((At - F.Offset) / F.Stride) <
               F.InitMembers;
  };
  if (!Init.Stride && !Use.Stride)
    return Init.Offset == Use.Offset;
  if (!Init.Stride) // some member of the used family may be it
    return Member(Init.Offset, Use, /*Bounded=*/false);
  if (!Use.Stride)
    return Member(Use.Offset, Init, /*Bounded=*/true);
  // Two families: apart only when the used one starts past the init
  // loop's last member.
  return !Init.InitsKnown ||
         Use.Offset < Init.Offset + static_cast<std::int64_t>(
                                        Init.InitMembers * Init.Stride);
}

std::vector<std::size_t> uninitialisedPoolBarriers(const PoolBarrierFacts &F) {
  std::vector<std::size_t> R;
  for (const PoolBarrierFacts::Use &U : F.Uses) {
    bool Covered = false;
    for (const PoolSlot &I : F.Inits)
      if ((Covered = mayCover(I, U.Slot)))
        break;
    if (!Covered)
      R.push_back(U.Event);
  }
  return R;
}

BarrierGroupEvents barrierGroupEvents(const std::vector<Event> &Seq,
                                      const std::vector<bool> &InGroup) {
  BarrierGroupEvents G;
  for (std::size_t I = 0; I < Seq.size(); ++I) {
    const Event &E = Seq[I];
    if (E.Object < 0 || static_cast<std::size_t>(E.Object) >= InGroup.size() ||
        !InGroup[E.Object])
      continue;
    switch (E.Kind) {
    case EventKind::BarrierInit:
      ++G.Inits;
      break;
    case EventKind::BarrierUse:
    case EventKind::BarrierWait:
      ++G.Uses;
      if (!G.First)
        G.First = I;
      break;
    default:
      G.Buffer = true;
      break;
    }
  }
  return G;
}

bool mayBeUninitialised(const BarrierGroupEvents &G) {
  return !G.Buffer && G.First && uninitialised(true, G.Uses, G.Inits);
}

std::optional<std::size_t> unnamedInit(const std::vector<Event> &Seq) {
  for (std::size_t I = 0; I < Seq.size(); ++I)
    if (Seq[I].Kind == EventKind::BarrierInit && Seq[I].Object < 0)
      return I;
  return std::nullopt;
}

} // namespace tma::rules::ordering
