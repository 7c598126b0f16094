//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "tidy/Sarif.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <vector>

namespace tma::sarif {
namespace {

namespace tooling = clang::tooling;
using llvm::json::Array;
using llvm::json::Object;

constexpr llvm::StringLiteral RootId = "%SRCROOT%";

/// RFC 3986: everything but unreserved characters and '/' is %-encoded.
std::string percentEncode(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/')
      Out += static_cast<char>(C);
    else
      Out += llvm::formatv("%{0:X2}", static_cast<unsigned>(C)).str();
  }
  return Out;
}

std::string withTrailingSlash(llvm::StringRef Directory) {
  std::string Result = Directory.str();
  if (Result.empty() || Result.back() != '/')
    Result += '/';
  return Result;
}

std::string fileUri(llvm::StringRef AbsolutePath) {
  llvm::SmallString<256> Path(AbsolutePath);
  llvm::sys::path::native(Path, llvm::sys::path::Style::posix);
  std::string Encoded = percentEncode(Path);
  if (Encoded.empty() || Encoded.front() != '/')
    Encoded.insert(Encoded.begin(), '/');
  return "file://" + Encoded;
}

const char *levelName(tooling::Diagnostic::Level Level) {
  switch (Level) {
  case tooling::Diagnostic::Error:
    return "error";
  case tooling::Diagnostic::Remark:
    return "note";
  case tooling::Diagnostic::Warning:
    break;
  }
  return "warning";
}

/// Line and column (1-based; the column counts Unicode code points) of a
/// byte offset.
struct Position {
  unsigned Line = 1;
  unsigned Column = 1;
};

std::optional<Position> positionOf(llvm::StringRef Content, unsigned Offset) {
  if (Offset > Content.size())
    return std::nullopt;
  Position Pos;
  for (unsigned I = 0; I < Offset; ++I) {
    unsigned char C = Content[I];
    if (C == '\n') {
      ++Pos.Line;
      Pos.Column = 1;
    } else if ((C & 0xC0) != 0x80) {
      ++Pos.Column;
    }
  }
  return Pos;
}

class Converter {
public:
  explicit Converter(const SarifOptions &Options) : Options(Options) {
    if (!Options.RootDirectory.empty()) {
      llvm::SmallString<256> Root(Options.RootDirectory);
      llvm::sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
      this->Root = withTrailingSlash(Root);
    }
  }

  void add(const tooling::Diagnostic &Diag) {
    const tooling::DiagnosticMessage &Message = Diag.Message;
    std::string Path = absolute(Message.FilePath, Diag.BuildDirectory);
    std::string Key = llvm::formatv("{0}\n{1}\n{2}\n{3}", Diag.DiagnosticName,
                                    Path, Message.FileOffset, Message.Message)
                          .str();
    if (!Seen.insert(Key).second)
      return;

    Object Result{
        {"ruleId", Diag.DiagnosticName},
        {"ruleIndex", ruleIndex(Diag.DiagnosticName)},
        {"level", levelName(Diag.DiagLevel)},
        {"message", Object{{"text", Message.Message}}},
    };
    Array Locations;
    if (!Path.empty())
      Locations.push_back(
          Object{{"physicalLocation",
                  physicalLocation(Path, Message.FileOffset, std::nullopt)}});
    Result["locations"] = std::move(Locations);

    Array Related;
    Array Fixes;
    addFix(Message, Diag.BuildDirectory, Fixes);
    for (const tooling::DiagnosticMessage &Note : Diag.Notes) {
      Object Location{
          {"id", static_cast<int64_t>(Related.size())},
          {"message", Object{{"text", Note.Message}}},
      };
      std::string NotePath = absolute(Note.FilePath, Diag.BuildDirectory);
      if (!NotePath.empty())
        Location["physicalLocation"] =
            physicalLocation(NotePath, Note.FileOffset, std::nullopt);
      Related.push_back(std::move(Location));
      addFix(Note, Diag.BuildDirectory, Fixes);
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    if (!Fixes.empty())
      Result["fixes"] = std::move(Fixes);
    Results.push_back(std::move(Result));
  }

  llvm::json::Value finish() && {
    Object Driver{{"name", "tma-tidy"}, {"rules", std::move(Rules)}};
    if (!Options.ToolVersion.empty())
      Driver["version"] = Options.ToolVersion;
    if (!Options.InformationUri.empty())
      Driver["informationUri"] = Options.InformationUri;
    Object Run{
        {"tool", Object{{"driver", std::move(Driver)}}},
        {"columnKind", "unicodeCodePoints"},
        {"results", std::move(Results)},
    };
    if (!Root.empty())
      Run["originalUriBaseIds"] =
          Object{{RootId, Object{{"uri", fileUri(Root)}}}};
    return Object{
        {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
        {"version", "2.1.0"},
        {"runs", Array{std::move(Run)}},
    };
  }

private:
  std::string absolute(llvm::StringRef Path, llvm::StringRef BuildDirectory) {
    if (Path.empty())
      return "";
    llvm::SmallString<256> Absolute(Path);
    if (!llvm::sys::path::is_absolute(Absolute)) {
      if (!BuildDirectory.empty())
        llvm::sys::path::make_absolute(BuildDirectory, Absolute);
      else if (llvm::sys::fs::make_absolute(Absolute))
        return Path.str(); // No working directory: keep the path as given.
    }
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    return Absolute.str().str();
  }

  int64_t ruleIndex(llvm::StringRef Check) {
    auto [It, Inserted] = RuleIndexes.try_emplace(Check, Rules.size());
    if (Inserted)
      Rules.push_back(Object{{"id", Check.str()}, {"name", Check.str()}});
    return static_cast<int64_t>(It->second);
  }

  Object artifactLocation(llvm::StringRef Path) {
    if (!Root.empty() && Path.starts_with(Root))
      return Object{{"uri", percentEncode(Path.drop_front(Root.size()))},
                    {"uriBaseId", RootId}};
    return Object{{"uri", fileUri(Path)}};
  }

  const std::optional<std::string> &contents(const std::string &Path) {
    auto [It, Inserted] = Files.try_emplace(Path);
    if (Inserted) {
      if (Options.ReadFile) {
        It->second = Options.ReadFile(Path);
      } else if (auto Buffer = llvm::MemoryBuffer::getFile(Path)) {
        It->second = (*Buffer)->getBuffer().str();
      }
    }
    return It->second;
  }

  /// The region of Length bytes at Offset (Length: a point, startLine and
  /// startColumn only); bytes when the file cannot be read.
  Object region(const std::string &Path, unsigned Offset,
                std::optional<unsigned> Length) {
    const std::optional<std::string> &Content = contents(Path);
    std::optional<Position> Start, End;
    if (Content) {
      Start = positionOf(*Content, Offset);
      if (Length)
        End = positionOf(*Content, Offset + *Length);
    }
    if (!Start || (Length && !End)) {
      Object Bytes{{"byteOffset", static_cast<int64_t>(Offset)}};
      if (Length)
        Bytes["byteLength"] = static_cast<int64_t>(*Length);
      return Bytes;
    }
    Object Region{{"startLine", static_cast<int64_t>(Start->Line)},
                  {"startColumn", static_cast<int64_t>(Start->Column)}};
    if (End) {
      Region["endLine"] = static_cast<int64_t>(End->Line);
      Region["endColumn"] = static_cast<int64_t>(End->Column);
    }
    return Region;
  }

  Object physicalLocation(const std::string &Path, unsigned Offset,
                          std::optional<unsigned> Length) {
    return Object{{"artifactLocation", artifactLocation(Path)},
                  {"region", region(Path, Offset, Length)}};
  }

  void addFix(const tooling::DiagnosticMessage &Message,
              llvm::StringRef BuildDirectory, Array &Fixes) {
    // By file, in a stable order.
    std::map<std::string, std::vector<const tooling::Replacement *>> ByFile;
    for (const auto &Entry : Message.Fix)
      for (const tooling::Replacement &R : Entry.second)
        ByFile[absolute(R.getFilePath(), BuildDirectory)].push_back(&R);
    if (ByFile.empty())
      return;
    Array Changes;
    for (const auto &[Path, Replacements] : ByFile) {
      Array SarifReplacements;
      for (const tooling::Replacement *R : Replacements)
        SarifReplacements.push_back(Object{
            {"deletedRegion", region(Path, R->getOffset(), R->getLength())},
            {"insertedContent",
             Object{{"text", R->getReplacementText().str()}}},
        });
      Changes.push_back(Object{
          {"artifactLocation", artifactLocation(Path)},
          {"replacements", std::move(SarifReplacements)},
      });
    }
    Fixes.push_back(Object{
        {"description", Object{{"text", Message.Message}}},
        {"artifactChanges", std::move(Changes)},
    });
  }

  const SarifOptions &Options;
  std::string Root;
  Array Rules;
  llvm::StringMap<std::size_t> RuleIndexes;
  Array Results;
  llvm::StringSet<> Seen;
  llvm::StringMap<std::optional<std::string>> Files;
};

} // namespace

llvm::Expected<llvm::json::Value>
fixesYamlToSarif(llvm::StringRef Yaml, const SarifOptions &Options) {
  Converter Convert(Options);
  if (!Yaml.trim().empty()) {
    llvm::yaml::Input In(Yaml);
    do {
      tooling::TranslationUnitDiagnostics TU;
      In >> TU;
      if (std::error_code Error = In.error())
        return llvm::createStringError(
            Error, "cannot read the clang-tidy fixes YAML: " + Error.message());
      for (const tooling::Diagnostic &Diag : TU.Diagnostics)
        Convert.add(Diag);
    } while (In.nextDocument());
  }
  return std::move(Convert).finish();
}

llvm::Error convertFixesFile(llvm::StringRef FixesFile,
                             llvm::StringRef SarifFile,
                             const SarifOptions &Options) {
  std::string Yaml;
  if (llvm::sys::fs::exists(FixesFile)) {
    auto Buffer = llvm::MemoryBuffer::getFile(FixesFile);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(),
                                     "cannot read " + FixesFile + ": " +
                                         Buffer.getError().message());
    Yaml = (*Buffer)->getBuffer().str();
  }
  llvm::Expected<llvm::json::Value> Log = fixesYamlToSarif(Yaml, Options);
  if (!Log)
    return Log.takeError();
  std::error_code Error;
  llvm::raw_fd_ostream Out(SarifFile, Error);
  if (Error)
    return llvm::createStringError(Error, "cannot write " + SarifFile + ": " +
                                              Error.message());
  Out << llvm::formatv("{0:2}", *Log) << "\n";
  return llvm::Error::success();
}

} // namespace tma::sarif
