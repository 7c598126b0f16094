//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// tma-expect-tx reports: api/TxOps collects a body's transaction ops,
// api/ExpectTxFacts groups them into phases and folds each into a fact
// record per call-site context, rules/ExpectTxPhase judges the record as a
// whole; this file turns the violations into diagnostics, notes and the
// fix-it of a single literal count.
//
//===----------------------------------------------------------------------===//

#include "checks/ExpectTxCheck.h"
#include "api/CuteTensors.h"
#include "checks/EncodeFixes.h"
#include "checks/SharedMatchers.h"
#include "rules/DataTypes.h"
#include "rules/ExpectTxPhase.h"
#include "rules/TensorCopyRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"
#include <vector>

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

ExpectTxCheck::ExpectTxCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      CallSiteContexts(Options.get("CallSiteContexts", true)),
      CoverageReport(Options.get("CoverageReport", false)),
      ExplainSilence(Options.get("ExplainSilence", false)) {}

void ExpectTxCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
  Options.store(Opts, "CallSiteContexts", CallSiteContexts);
  Options.store(Opts, "CoverageReport", CoverageReport);
  Options.store(Opts, "ExplainSilence", ExplainSilence);
}

void ExpectTxCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  Shared = SharedMatchers::functions(Finder, this,
                                     SharedMatchers::Functions::DeviceOrKernel);
}

void ExpectTxCheck::onEndOfTranslationUnit() {
  Facts.reset();
  Finder.reset();
  Folder.reset();
  Report.clear();
}

void ExpectTxCheck::noteCopy(const DeviceOp &Op, SourceLocation Loc,
                             const std::string &Barrier,
                             const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  Report.note(Loc, "this copy delivers " +
                       std::to_string(*Facts->delivered(Op)) + " bytes to '" +
                       Barrier + "'");
  if (const auto *B = std::get_if<BulkCopy>(&Op); B && B->OwnsExpectTx)
    Report.note(Loc, "and expects them itself: cuda::memcpy_async performs "
                     "the expect-tx of its own bytes (MEMCPY-ASYNC-TX-OWNED)");
  if (const auto *B = std::get_if<BulkCopy>(&Op);
      B && B->Api == OpApi::Cute && B->Dst.E)
    if (auto Size = cute::staticTensorSize(B->Dst.E->getType(), Ctx)) {
      PrintingPolicy Policy(Ctx.getLangOpts());
      Policy.SuppressTagKeyword = true;
      Report.note(Loc, "cute::copy with an SM90_TMA_LOAD atom loads every "
                       "element of its destination: " +
                           std::to_string(Size->Elements) + " elements of '" +
                           Size->Element.getAsString(Policy) + "' (" +
                           std::to_string(Size->ElementBytes) + " bytes each)");
    }
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return;
  auto Map = Facts->linker().mapOf(T->Map.E, Folder->currentContext());
  const rules::MapDescriptor &D = Map->Desc;
  std::string Box;
  if (D.Encoder == rules::MapEncoder::Tiled) {
    for (uint64_t I = 0; I < *D.Rank; ++I)
      Box += (I ? " x " : "") + std::to_string(*D.BoxDim.at(I));
    Box = "box " + Box;
  } else {
    Box = std::to_string(*D.PixelsPerColumn) + " pixels x " +
          std::to_string(*D.ChannelsPerPixel) + " channels";
  }
  const char *Type = rules::dataTypeName(*D.DataType);
  Report.note(Map->BoxArg->getExprLoc(),
              "the tensor map it reads is encoded here: " + Box + " of " +
                  (Type ? Type : "?"));
  Report.noteHandoff(*Map, SM);
}

std::string ExpectTxCheck::clusterPhase(const FunctionDecl *Fn, const TxOps &Tx,
                                        const std::vector<unsigned> &Group,
                                        const std::string &Name,
                                        const SourceManager &SM) {
  // The phase of a group with a multicast, counted CTA by CTA of the
  // kernel's cluster: a multicast completes its bytes on the barrier at the
  // same offset in every CTA of its mask. Each op must run in one thread of
  // a CTA, in the CTAs its rank guards select; masks and expect-tx counts
  // may depend on the rank. Reports the first CTA whose counts differ;
  // returns the coverage line, or "" when something is unknown.
  auto Count = Facts->clusterCountOf(Fn, Tx, Group);
  if (!Count)
    return "";
  const std::vector<TxOp> &Ops = Tx.Ops;
  const uint64_t Ctas = Count->Cluster.Ctas;
  const ::tma::rules::threads::BlockSize &Block = Count->Block;
  const std::vector<unsigned> &Issuers = Count->Issuers;
  bool Equal = true;
  for (const CallContext *Context :
       Folder->contextsOf(CallSiteContexts ? Fn : nullptr)) {
    if (llvm::any_of(Group, [&](unsigned I) {
          return !Folder->mayRun(Ops[I].Site, Fn, Context);
        }))
      continue;
    Folder->enterContext(Context);
    if (!Equal) {
      Folder->enterContext(nullptr);
      continue;
    }
    std::vector<std::vector<ClusterArrival>> Arrivals;
    ::tma::rules::ClusterVerdict Verdict =
        ::tma::rules::checkExpectTxClusterPhase(
            Facts->clusterFactsIn(*Count, Tx, Group, Name, Arrivals));
    if (Verdict.Violations.empty() && !Verdict.AllKnown) {
      Folder->enterContext(nullptr);
      return "";
    }
    for (const ::tma::rules::ClusterViolation &CV : Verdict.Violations) {
      const ::tma::rules::DeviceViolation *V = &CV.Violation;
      const uint64_t R = CV.Rank;
      Equal = false;
      // The first expect-tx that counts in this CTA.
      unsigned FirstExpect = Group.front();
      for (unsigned G = 0; G < Group.size(); ++G)
        if (std::holds_alternative<ExpectTx>(Ops[Group[G]].Op) &&
            (Ops[Group[G]].Role == TxRole::Remote || Count->In[G][R])) {
          FirstExpect = Group[G];
          break;
        }
      SourceLocation Loc = Ops[FirstExpect].Loc;
      std::string Message = V->Message + " (" + V->RuleId + ")";
      if (!Report.warnOnce(Loc, Message, SM))
        continue;
      Report.note(SM.getFileLoc(Count->Cluster.From),
                  "the cluster has " + std::to_string(Ctas) +
                      " CTAs: " + Count->Cluster.How);
      for (const ClusterArrival &A : Arrivals[R]) {
        const TxOp &T = Ops[A.Op];
        const std::string From = std::to_string(A.From);
        const std::string To = std::to_string(R);
        if (!A.Remote)
          Report.note(T.Loc,
                      "this multicast from CTA " + From + " (mask 0x" +
                          llvm::utohexstr(A.Mask) + ") delivers " +
                          std::to_string(Facts->deliveredBy(T).value_or(0)) +
                          " bytes to '" + Name + "' in CTA " + To);
        else if (std::holds_alternative<ExpectTx>(T.Op))
          Report.note(T.Loc, "this expect-tx in CTA " + From + " counts on '" +
                                 Name + "' of CTA " + To +
                                 ": mapa names that CTA's barrier");
        else
          Report.note(T.Loc,
                      "this copy in CTA " + From + " delivers " +
                          std::to_string(Facts->deliveredBy(T).value_or(0)) +
                          " bytes to '" + Name + "' of CTA " + To +
                          ": mapa names that CTA's barrier");
      }
      for (unsigned G = 0; G < Group.size(); ++G) {
        if (Issuers[G] == 1)
          continue;
        const TxOp &T = Ops[Group[G]];
        const std::string By = "issued by " + std::to_string(Issuers[G]);
        if (Block.exact())
          Report.note(T.Loc, By + " threads of each CTA's block of " +
                                 std::to_string(Block.Max) +
                                 " threads, each counting its bytes "
                                 "(MBAR-TX-ISSUERS)");
        else
          Report.note(T.Loc, By + " threads of each CTA, each counting its "
                                  "bytes (MBAR-TX-ISSUERS)");
      }
      Report.note(Loc, V->Suggestion);
    }
    Folder->enterContext(nullptr);
  }
  return Equal ? "proven equal in every CTA of the cluster"
               : "not proven (a mismatch in a CTA of the cluster)";
}

void ExpectTxCheck::check(const MatchFinder::MatchResult &Result) {
  // A non-dependent definition with a body outside system headers, asked
  // once for all checks by the shared matcher.
  const SharedMatchers::FunctionMatch &M = Shared->function();
  if (!M.UserBody)
    return;
  const FunctionDecl *Fn = M.Fn;
  const SourceManager &SM = *Result.SourceManager;
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(*Result.Context);
  if (!Finder)
    Finder = DeviceOpsFinder::forTranslationUnit(*Result.Context);
  if (!Facts)
    Facts = std::make_unique<ExpectTxFacts>(*Result.Context, Folder, Finder);
  const Stmt *Body = Fn->getBody();
  const bool Kernel = M.Kernel;

  const TxOps Tx = Facts->opsOf(Body, SM);
  const std::vector<TxOp> &Ops = Tx.Ops;
  if (Ops.empty())
    return;
  // Built only for a function with an op (most device functions have none).
  const ParentMap &PM = Folder->parentsOf(Body);

  // An expect-tx on a barrier the model cannot name is in no phase.
  if (ExplainSilence)
    for (const TxOp &T : Ops)
      if (std::holds_alternative<ExpectTx>(T.Op) && !T.Id && T.Loc.isValid() &&
          !SM.isInSystemHeader(T.Loc)) {
        std::string Text =
            T.via()
                ? "silent: MBAR-TX-EQUALS-BYTES: the expect-tx at line " +
                      std::to_string(SM.getPresumedLineNumber(
                          SM.getFileLoc(siteOf(T.Op).Loc))) +
                      " of '" + T.Frames.back().second->getNameAsString() +
                      "' names no barrier parameter of it (such as a field "
                      "of one): its phases are judged in the helper, not "
                      "at this call"
                : "silent: MBAR-TX-EQUALS-BYTES: the expect-tx's barrier is "
                  "not identified (an address the model cannot name, such "
                  "as an integer shared-window address): it is in no phase";
        if (Report.record(T.Loc, Text))
          Report.aid(T.Loc, Text);
      }

  // Kernel-wide: a barrier that only ever gets an expect-tx, or only ever
  // gets copies. Only for a __shared__ barrier of the kernel whose every use
  // is a recognised op, and when every op's barrier is identified: then no
  // other code (not even a peer CTA, which runs these same ops) can pair it.
  if (Kernel)
    for (const TxPairing &P : Facts->pairingsOf(Fn, Tx, CallSiteContexts))
      for (const auto &PV : ::tma::rules::checkBarrierPairing(P.Facts)) {
        const TxOp *At = PV.AtFirstCopy ? P.FirstCopy : P.FirstExpect;
        Report.warnOnceAs(At->Loc, PV.AtFirstCopy ? "no expect" : "no copy",
                          SiteReporter::message("", "", PV.Violation), SM);
      }

  for (const TxPhase &P : Facts->phasesOf(Fn, Kernel, Tx, SM)) {
    const std::vector<unsigned> &Group = P.Group;
    const std::string &Name = P.Name;
    const std::vector<unsigned> &Issuers = P.Issuers;
    const ::tma::rules::threads::BlockSize &Block = P.Block;
    auto Cover = [&](const std::string &What) {
      if (!CoverageReport)
        return;
      for (unsigned I : Group)
        if (std::holds_alternative<ExpectTx>(Ops[I].Op) &&
            Report.record(Ops[I].Loc, "coverage"))
          Report.aid(Ops[I].Loc,
                     "coverage: expect-tx on '" + Name + "': " + What);
    };
    // Why the phase's rule judged nothing, at its first expect-tx.
    auto Silent = [&](const std::string &Why) {
      if (!ExplainSilence)
        return;
      for (unsigned I : Group)
        if (std::holds_alternative<ExpectTx>(Ops[I].Op)) {
          std::string Text =
              "silent: MBAR-TX-EQUALS-BYTES: expect-tx on '" + Name + "': " +
              Why;
          if (Report.record(Ops[I].Loc, Text))
            Report.aid(Ops[I].Loc, Text);
          return;
        }
    };
    if (!P.Why.empty()) {
      // A multicast: count the phase CTA by CTA of the cluster.
      if (P.Lifted && P.HasMulticast && Kernel)
        if (std::string Done = clusterPhase(Fn, Tx, Group, Name, SM);
            !Done.empty()) {
          Cover(Done);
          continue;
        }
      Cover("unknown (" + P.Why + ")");
      Silent("the phase is not counted: " + P.Why);
      continue;
    }
    bool AllKnown = true;
    const bool SingleContext =
        !isInInstantiation(Fn) &&
        Folder->contextsOf(CallSiteContexts ? Fn : nullptr).size() == 1;
    for (const CallContext *Context :
         Folder->contextsOf(CallSiteContexts ? Fn : nullptr)) {
      // A context under which a guard leaves before an op of the phase
      // compares nothing (tma-rules.md §11.C).
      if (llvm::any_of(Group, [&](unsigned I) {
            return !Folder->mayRun(Ops[I].Site, Fn, Context);
          }))
        continue;
      // The phase's facts in this context; the folder stays in it.
      ::tma::rules::PhaseFacts PF = Facts->phaseFactsIn(P, Tx, Context, PM);
      ::tma::rules::PhaseVerdict Verdict = ::tma::rules::checkExpectTxPhase(PF);
      AllKnown &= Verdict.AllKnown;
      if (ExplainSilence)
        if (auto S = ::tma::rules::whyPhaseSilent(PF)) {
          Silent(S->UnknownOp ? Facts->unknownBytesWhy(
                                    Tx, Group[*S->UnknownOp], Context, PM, SM)
                              : "ops issued by different numbers of threads "
                                "next to a copy that expects its own bytes");
          Folder->enterContext(Context);
        }
      // An op of a helper folds in the context of the helper's call.
      auto InOpContext = [&](unsigned I, auto F) {
        if (Ops[I].via())
          Folder->enterContext(opContext(*Folder, Ops[I], Context));
        auto R = F();
        Folder->enterContext(Context);
        return R;
      };
      for (const ::tma::rules::PhaseViolation &PV : Verdict.Violations) {
        const ::tma::rules::DeviceViolation *V = &PV.Violation;
        const bool IssuersDiffer = PV.ByIssuers;
        const uint64_t SelfExpected = PV.SelfExpected;
        const unsigned FirstExpectIdx = Group[PV.At];
        const auto *FirstExpect =
            std::get_if<ExpectTx>(&Ops[FirstExpectIdx].Op);
        const unsigned Expects = llvm::count_if(Group, [&](unsigned I) {
          return std::holds_alternative<ExpectTx>(Ops[I].Op);
        });
        AllKnown = false; // reported, not proven
        SourceLocation Loc = Ops[FirstExpectIdx].Loc;
        std::string Message = SiteReporter::message("", "", *V);
        if (!Report.admits(Loc, Message, SM))
          continue;
        // A fix-it for a single literal count outside macros, in code that
        // runs in this one context (a template instantiation or a function
        // with several calls may be right elsewhere).
        const Expr *Lit = nullptr;
        if (Expects == 1 && !Ops[FirstExpectIdx].via() && SingleContext &&
            !IssuersDiffer && !FirstExpect->Bytes.Imm &&
            FirstExpect->Bytes.Written) {
          const Expr *W = FirstExpect->Bytes.Written->IgnoreParenImpCasts();
          if (isa<IntegerLiteral>(W) && !W->getBeginLoc().isMacroID() &&
              !W->getEndLoc().isMacroID())
            Lit = W;
        }
        // The count the fix writes comes from the maps as tma-descriptor's
        // fixes of their encode calls leave them (a box fix changes the
        // bytes): no fix-it when a map would change by hand.
        std::optional<uint64_t> FixTo = V->Limit;
        if (Lit && llvm::any_of(Group, [&](unsigned I) {
              return std::holds_alternative<TensorCopy>(Ops[I].Op);
            })) {
          uint64_t Total = 0;
          for (unsigned I : Group) {
            if (!FixTo || std::holds_alternative<ExpectTx>(Ops[I].Op))
              continue;
            rules::Known Bytes = InOpContext(I, [&]() -> rules::Known {
              const auto *T = std::get_if<TensorCopy>(&Ops[I].Op);
              if (!T)
                return Facts->delivered(Ops[I].Op);
              auto Map =
                  Facts->linker().mapOf(T->Map.E, Folder->currentContext());
              auto Fixed = Map ? mapAfterFixes(*Map, *Folder, *Result.Context)
                               : std::nullopt;
              return Fixed ? rules::tensorCopyBytes(*Fixed, copyModeOf(T->Mode))
                           : std::nullopt;
            });
            if (Bytes)
              *Bytes *= Ops[I].Times;
            if (Bytes && Ops[I].Loop) {
              auto N = tripCount(Ops[I].Loop, PM, *Folder);
              Bytes = N ? rules::Known(*Bytes * *N) : std::nullopt;
            }
            if (Bytes)
              Total += *Bytes;
            else
              FixTo.reset();
          }
          if (FixTo)
            FixTo = Total - std::min(Total, SelfExpected);
        }
        {
          llvm::SmallVector<FixItHint, 1> Fixes;
          // Expecting 0 is not a fix: the suggestion says to remove it.
          if (Lit && FixTo && *FixTo != 0 && PV.FirstExpected != FixTo)
            Fixes.push_back(FixItHint::CreateReplacement(
                Lit->getSourceRange(), std::to_string(*FixTo)));
          else
            Lit = nullptr;
          Report.warnOnce(Loc, Message, SM, Fixes);
        }
        for (unsigned G = 0; G < Group.size(); ++G) {
          unsigned I = Group[G];
          if (!std::holds_alternative<ExpectTx>(Ops[I].Op))
            InOpContext(I, [&] {
              noteCopy(Ops[I].Op, Ops[I].Loc, Name, *Result.Context);
              return 0;
            });
          if (const ForStmt *F = Ops[I].HelperLoop)
            Report.note(SM.getFileLoc(F->getForLoc()),
                        "in each of the " + std::to_string(Ops[I].Times) +
                            " iterations of this loop of '" +
                            Ops[I].HelperLoopIn->getNameAsString() +
                            "'");
          if (const ForStmt *F = Ops[I].Loop)
            if (auto N = tripCount(F, PM, *Folder))
              Report.note(SM.getFileLoc(F->getForLoc()),
                          "in each of the " + std::to_string(*N) +
                              " iterations of this loop");
          if (!IssuersDiffer)
            continue;
          std::string By = "issued by " + std::to_string(Issuers[G]) +
                           (Issuers[G] != 1 ? " threads" : " thread") +
                           " of the block";
          if (Block.exact())
            By += " of " + std::to_string(Block.Max) + " threads";
          Report.note(Ops[I].Loc, By);
        }
        // A helper's phase, counted for one call of the helper.
        if (P.HelperField && Context)
          Report.note(SM.getFileLoc(Context->Call->getBeginLoc()),
                      "counted for this call of '" +
                          Fn->getNameAsString() + "': no code outside it "
                          "completes bytes on '" +
                          P.HelperField->getNameAsString() +
                          "' (its other uses are inits, waits and plain "
                          "arrives)");
        if (!Lit && FixTo == V->Limit)
          Report.note(Loc, V->Suggestion);
        else if (!Lit && FixTo && PV.FirstExpected == FixTo)
          Report.note(Loc, "the count is right once the fixes of the tensor "
                           "map's encode call are applied");
        else if (!Lit)
          Report.note(Loc, "fix the tensor map's encode call first: the byte "
                           "count follows from its box");
      }
    }
    Folder->enterContext(nullptr);
    Cover(AllKnown ? "proven equal"
                   : "not proven (a byte count does not fold, or a mismatch)");
  }
}

} // namespace clang::tidy::tma
