//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Counters of the work that the module means to do once (per TU, per body,
// per variable, per distinct asm text). With TMA_TIDY_STATS=1 the shared
// matchers print them to stderr at the end of each translation unit: the
// evidence of bench/README.md and tests/infrastructure/computed-once.cu.
// A few increments per memo miss; nothing is printed otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_FOLDING_STATS_H
#define TMA_TIDY_FOLDING_STATS_H

namespace clang::tidy::tma {

struct CostStats {
  /// Shared folders and device-op finders created.
  unsigned Folders = 0, Finders = 0;
  /// Per-body ParentMaps built.
  unsigned ParentMaps = 0;
  /// isNeverWritten: questions, and answers computed (memo misses).
  unsigned NeverWrittenAsked = 0, NeverWrittenComputed = 0;
  /// Walks of the TU: the contexts index (a second one when a question
  /// needs what the first left out), and the fallback walks for the
  /// enclosing function of a call that the index does not hold (one per
  /// such call: the function that declares a local it names, else the
  /// functions whose source range holds it).
  unsigned IndexWalks = 0, FullWalks = 0;
  /// Functions whose call-site contexts were collected.
  unsigned ContextSets = 0;
  /// asm statements whose operands were bound (once per statement, and
  /// once per helper body collected), and distinct asm texts parsed.
  unsigned AsmBindings = 0, AsmTextsParsed = 0;

  /// The counters of this thread (clangd checks files on several threads).
  static CostStats &get() {
    thread_local CostStats S;
    return S;
  }
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_FOLDING_STATS_H
