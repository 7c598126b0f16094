//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Compile databases as tma-tidy and tma-clangd read them: one translation,
// shared by both tools.
//
// * nvcc commands (compile_commands.json from CMake with nvcc as the CUDA
//   compiler) become clang commands (NvccFlags.h), with the toolkit around
//   the command's nvcc: --cuda-path, its version, include/cccl. Arguments
//   that clang does not know are left out with a note.
//
// * Clang CUDA commands that lack the toolkit's CCCL directory
//   (<cuda>/include/cccl: <cuda/barrier>, <cuda/ptx>), which nvcc searches
//   and clang does not, get it with -isystem (addToolkitIncludes).
//
// Notes are kept per database entry, so that a tool prints them for the
// files it analyses, once per distinct command, naming the entry.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_TIDY_COMPILECOMMANDS_H
#define TMA_TIDY_TIDY_COMPILECOMMANDS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tma::driver {

/// What the translation of one entry could not do, by fileKey and command.
struct TranslationNotes {
  /// fileKey -> (the translated command line, one line each) -> notes.
  std::map<std::string, std::map<std::vector<std::string>,
                                 std::vector<std::string>>>
      ByFile;
};

/// The clang command of an nvcc command, or nullopt when the command is not
/// nvcc's. ClangExecutable replaces nvcc; Notes gets what could not be
/// translated.
std::optional<std::vector<std::string>>
translateCommand(const clang::tooling::CompileCommand &Command,
                 llvm::StringRef ClangExecutable,
                 std::vector<std::string> &Notes);

/// Adds -isystem <cuda>/include/cccl to a clang CUDA command (the caller
/// knows it is one) that names no include/cccl directory and no -nocudainc,
/// when the toolkit (its --cuda-path, else /usr/local/cuda) has one. True
/// when it added it.
bool addToolkitIncludes(std::vector<std::string> &Args);

/// The normalised absolute path of a command's file, as a database key.
std::string fileKey(const clang::tooling::CompileCommand &Command);

/// Database with its nvcc commands translated, wrapped in
/// inferMissingCompileCommands (as clang-tidy wraps a JSON database) so that a
/// header not in the database gets the clang command of a source file next
/// to it; nullptr when it has no nvcc command. Notes (may be null) gets each
/// entry's notes.
std::unique_ptr<clang::tooling::CompilationDatabase>
translateDatabase(const clang::tooling::CompilationDatabase &Database,
                  llvm::StringRef ClangExecutable, TranslationNotes *Notes);

} // namespace tma::driver

#endif // TMA_TIDY_TIDY_COMPILECOMMANDS_H
