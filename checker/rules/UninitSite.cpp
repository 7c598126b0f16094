//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/UninitSite.h"

#include <algorithm>

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
  // Past the used family's last member, where it is bounded.
  auto PastUse = [&](std::int64_t At) {
    return Use.Members &&
           At >= Use.Offset + static_cast<std::int64_t>(Use.Members) * Use.Stride;
  };
  if (!Init.Stride) // some member of the used family may be it
    return Member(Init.Offset, Use, /*Bounded=*/false) && !PastUse(Init.Offset);
  if (!Use.Stride)
    return Member(Use.Offset, Init, /*Bounded=*/true);
  // Two families: apart only when the used one starts past the init
  // loop's last member, or ends before its first.
  if (PastUse(Init.Offset))
    return false;
  return !Init.InitsKnown ||
         Use.Offset < Init.Offset + static_cast<std::int64_t>(Init.InitMembers *
                                                              Init.Stride);
}

bool surelyCovers(const PoolSlot &Init, const PoolSlot &Use,
                  long long FirstMember) {
  std::int64_t At = Use.Offset;
  if (Use.Stride) {
    if (FirstMember < 0)
      return false;
    At += Use.Stride * FirstMember;
  }
  if (!Init.Stride)
    return At == Init.Offset;
  if (!Init.InitsKnown || !Init.InitMembers || At < Init.Offset ||
      (At - Init.Offset) % Init.Stride)
    return false;
  return static_cast<std::uint64_t>((At - Init.Offset) / Init.Stride) <
         Init.InitMembers;
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

std::vector<std::size_t> uninitialisedPoolMembers(const PoolBarrierFacts &F) {
  std::vector<std::size_t> R;
  for (std::size_t M = 0; M < F.Members.size(); ++M) {
    bool Covered = false;
    for (const PoolSlot &I : F.Inits)
      if ((Covered = mayCover(I, F.Members[M].Member)))
        break;
    if (!Covered)
      R.push_back(M);
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

namespace {

constexpr const char *Rule = "MBAR-UNINIT";

void quiet(Silences *Why, std::size_t At, std::string Text) {
  if (Why)
    Why->push_back({Rule, At, std::move(Text), std::nullopt});
}

/// Why a family use whose first member is initialised stays silent on a
/// member of the family no init covers, below one an init does (a hole, an
/// unrolled init dropped): the index names it only on a later run of the
/// use, and the model does not know that the use runs that often. Once per
/// family, at its first such use.
void laterMembers(const PoolBarrierFacts &F,
                  const std::vector<UninitViolation> &Out, Silences &Why) {
  constexpr std::int64_t MaxMembers = 64;
  std::vector<std::string> Told;
  for (const PoolBarrierFacts::MemberUse &U : F.Members) {
    if (std::find(Told.begin(), Told.end(), U.Family) != Told.end())
      continue;
    const PoolBarrierFacts::Use *Family = nullptr;
    for (const PoolBarrierFacts::Use &W : F.Uses)
      if (W.Name == U.Family)
        Family = &W;
    bool Reported = false;
    for (const UninitViolation &V : Out)
      Reported |= V.Name == U.Family || V.Name == U.Name;
    if (!Family || Reported)
      continue;
    auto Covered = [&](std::int64_t At) {
      for (const PoolSlot &I : F.Inits)
        if (mayCover(I, PoolSlot{At, 0}))
          return true;
      return false;
    };
    const PoolSlot &Fam = Family->Slot;
    std::int64_t First = (U.Member.Offset - Fam.Offset) / Fam.Stride;
    std::int64_t Last = -1;
    for (std::int64_t M = 0; M < MaxMembers; ++M)
      if (Covered(Fam.Offset + M * Fam.Stride))
        Last = M;
    for (std::int64_t M = First + 1; M < Last; ++M) {
      if (Covered(Fam.Offset + M * Fam.Stride))
        continue;
      Told.push_back(U.Family);
      Why.push_back(
          {Rule, U.Event,
           "member " + std::to_string(M) + " of '" + U.Family + "' (offset " +
               std::to_string(Fam.Offset + M * Fam.Stride) +
               ") has no init, but the index is " + std::to_string(First) +
               " the first time this use runs and names member " +
               std::to_string(M) +
               ", if ever, only on a later run; how many times it runs is "
               "not known",
           std::nullopt});
      break;
    }
  }
}

/// The pool's barriers named by offset.
void checkPoolSlots(const PoolSlotFacts &P, std::vector<UninitViolation> &Out,
                    Silences *Why) {
  if (!P.First)
    return;
  // Every init must be told: one the model cannot place in the pool, a
  // call or instruction it does not follow, code elsewhere that names the
  // pool, another name of it, may initialise any barrier there.
  if (P.SharedWith) {
    quiet(Why, *P.First,
          "the barrier lies in the dynamic shared-memory pool, and " +
              *P.SharedWith + ": code there may initialise it");
    return;
  }
  switch (P.Hidden) {
  case PoolSlotFacts::Hider::Opaque:
    quiet(Why, *P.First,
          "a call or instruction the model does not follow (line " +
              std::to_string(P.HiderLine) +
              ") may initialise the pool's barriers");
    return;
  case PoolSlotFacts::Hider::OtherName:
    quiet(Why, *P.First,
          "another extern __shared__ variable names the same pool");
    return;
  case PoolSlotFacts::Hider::UnknownOffset:
    quiet(Why, *P.First,
          "an mbarrier.init in the pool at an offset the model cannot "
          "fold may initialise any barrier there");
    return;
  case PoolSlotFacts::Hider::UnknownReference:
    quiet(Why, *P.First,
          "some barrier of the array has no init, but a reference to the "
          "array that no event accounts for (a call or pointer the model "
          "does not follow) may initialise it");
    return;
  case PoolSlotFacts::Hider::None:
    break;
  }
  std::size_t Before = Out.size();
  for (std::size_t I : uninitialisedPoolBarriers(P.Slots))
    for (const PoolBarrierFacts::Use &U : P.Slots.Uses)
      if (U.Event == I) {
        Out.push_back({I, U.Name});
        break;
      }
  // A family some init may cover as a whole, whose index names a member
  // none covers the first time the use runs: that member, once, at its
  // first such use (none where the family is reported already).
  for (std::size_t M : uninitialisedPoolMembers(P.Slots)) {
    const PoolBarrierFacts::MemberUse &U = P.Slots.Members[M];
    bool Told = false;
    for (std::size_t V = Before; V < Out.size() && !Told; ++V)
      Told = Out[V].Name == (Out[V].FirstRun ? U.Name : U.Family);
    if (!Told)
      Out.push_back({U.Event, U.Name, /*FirstRun=*/true});
  }
  if (Why)
    laterMembers(P.Slots, Out, *Why);
}

} // namespace

std::vector<UninitViolation> checkUninit(const UninitFacts &F, Silences *Why) {
  std::vector<UninitViolation> Out;
  // An init whose barrier the model cannot name may be any barrier's.
  if (F.UnnamedInit) {
    if (Why)
      for (std::size_t U : F.FirstUses)
        Why->push_back({Rule, U,
                        "an mbarrier.init of a barrier the model cannot "
                        "name may initialise this one",
                        *F.UnnamedInit});
    return Out;
  }
  for (const UninitGroupFacts &G : F.Groups) {
    std::optional<std::size_t> First = G.Events.First;
    auto Quiet = [&](std::string Text) {
      if (First)
        quiet(Why, *First, std::move(Text));
    };
    // A barrier of the kernel's own (every use is in its body), a uint64_t
    // or a barrier class, or an array of them: no struct of several.
    if (G.Foreign) {
      Quiet("the barrier's variable is not declared in this kernel: "
            "code elsewhere may initialise it");
      continue;
    }
    if (G.Slots) {
      checkPoolSlots(*G.Slots, Out, Why);
      continue;
    }
    if (G.SeveralMembers) {
      Quiet("the barrier is part of a variable of several members (a "
            "shared struct): its other members are not followed");
      continue;
    }
    // The body's references are counted only where the rule would report
    // with every use known.
    if (G.Events.Buffer && First && G.Events.Inits == 0)
      Quiet("the variable also holds buffers (a byte array carved into "
            "barriers and tiles): the barriers in it are not told apart");
    if (!mayBeUninitialised(G.Events))
      continue;
    if (G.PoolSharedWith) {
      Quiet("the barrier lies in the dynamic shared-memory pool, and " +
            *G.PoolSharedWith + ": code there may initialise it");
      continue;
    }
    if (G.PoolUnknownUse) {
      Quiet("the barrier lies in a struct laid over the dynamic "
            "shared-memory pool, and " +
            *G.PoolUnknownUse + ": such a use may initialise it");
      continue;
    }
    if (!uninitialised(G.AllKnown, G.Events.Uses, G.Events.Inits)) {
      Quiet("a reference to the barrier that no event accounts for (a "
            "call or pointer the model does not follow) may initialise it");
      continue;
    }
    Out.push_back({*First, G.Name});
  }
  return Out;
}

} // namespace tma::rules::ordering
