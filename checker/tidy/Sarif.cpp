//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "tidy/Sarif.h"

#include "rules/RuleReference.h"

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
#include <algorithm>
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

/// A file's contents with the offsets its lines start at, so that a position
/// costs a binary search and a scan of one line, not of the whole file.
struct FileText {
  std::string Content;
  std::vector<unsigned> LineStarts;

  explicit FileText(std::string Text) : Content(std::move(Text)) {
    LineStarts.push_back(0);
    for (unsigned I = 0; I < Content.size(); ++I)
      if (Content[I] == '\n')
        LineStarts.push_back(I + 1);
  }

  std::optional<Position> positionOf(unsigned Offset) const {
    if (Offset > Content.size())
      return std::nullopt;
    auto Next =
        std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
    unsigned Line = static_cast<unsigned>(Next - LineStarts.begin());
    Position Pos;
    Pos.Line = Line;
    for (unsigned I = LineStarts[Line - 1]; I < Offset; ++I)
      if ((static_cast<unsigned char>(Content[I]) & 0xC0) != 0x80)
        ++Pos.Column;
    return Pos;
  }
};

class Converter {
public:
  explicit Converter(const SarifOptions &Options) : Options(Options) {
    if (!Options.RootDirectory.empty()) {
      llvm::SmallString<256> Root(Options.RootDirectory);
      llvm::sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
      this->Root = withTrailingSlash(Root);
    }
  }

  /// MainFile: the MainSourceFile of the diagnostic's YAML document.
  void add(const tooling::Diagnostic &Diag, llvm::StringRef MainFile) {
    const tooling::DiagnosticMessage &Message = Diag.Message;
    std::string Path = absolute(Message.FilePath, Diag.BuildDirectory);
    // A diagnostic without a location (a missing file, "too many errors
    // emitted", a driver error) is still about a file: code scanning
    // refuses a result without one. With no file at all, it is a
    // notification of the run.
    bool FileLevel = Path.empty();
    if (FileLevel) {
      Path = artifactOf(Message.Message, MainFile);
      if (Path.empty()) {
        std::string Text = Diag.DiagnosticName.empty()
                               ? Message.Message
                               : Message.Message + " [" +
                                     Diag.DiagnosticName + "]";
        if (UnlocatedSeen.insert(Text).second)
          Unlocated.push_back(std::move(Text));
        if (Diag.DiagLevel == tooling::Diagnostic::Error &&
            llvm::StringRef(Diag.DiagnosticName)
                .starts_with("clang-diagnostic-"))
          ++CompilerErrors;
        return;
      }
    }
    std::string Key = llvm::formatv("{0}\n{1}\n{2}\n{3}", Diag.DiagnosticName,
                                    Path, Message.FileOffset, Message.Message)
                          .str();
    if (!Seen.insert(Key).second)
      return;

    ++ResultCount;
    if (Diag.DiagLevel == tooling::Diagnostic::Error &&
        llvm::StringRef(Diag.DiagnosticName).starts_with("clang-diagnostic-"))
      ++CompilerErrors;
    std::string RuleId = ruleIdOf(Diag);
    Object Result{
        {"ruleId", RuleId},
        {"ruleIndex", ruleIndex(RuleId, Diag.DiagnosticName)},
        {"level", levelName(Diag.DiagLevel)},
        {"message", Object{{"text", Message.Message}}},
    };
    Object Physical =
        FileLevel ? Object{{"artifactLocation", artifactLocation(Path)},
                           {"region", Object{{"startLine", 1}}}}
                  : physicalLocation(Path, Message.FileOffset, std::nullopt);
    Result["locations"] = Array{Object{{"physicalLocation", std::move(Physical)}}};

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
    // Rendered now: a log of thousands of results kept as json::Values took
    // gigabytes (each json::Object is a DenseMap) and most of the time.
    Results.push_back(
        llvm::formatv("{0:2}", llvm::json::Value(std::move(Result))).str());
  }

  /// Writes the log, pretty-printed, keys in sorted order.
  void finish(llvm::raw_ostream &OS) && {
    Object Driver{{"name", "tma-tidy"}, {"rules", std::move(Rules)}};
    if (!Options.ToolVersion.empty())
      Driver["version"] = Options.ToolVersion;
    if (!Options.InformationUri.empty())
      Driver["informationUri"] = Options.InformationUri;
    llvm::json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
      J.attributeArray("runs", [&] {
        J.object([&] {
          J.attribute("columnKind", "unicodeCodePoints");
          J.attribute("invocations", Array{invocation()});
          if (!Root.empty())
            J.attribute("originalUriBaseIds",
                        Object{{RootId, Object{{"uri", fileUri(Root)}}}});
          J.attributeArray("results", [&] {
            for (const std::string &Result : Results)
              J.rawValue(Result);
          });
          J.attribute("tool", Object{{"driver", std::move(Driver)}});
        });
      });
      J.attribute("version", "2.1.0");
    });
  }

private:
  /// The file a diagnostic without a location belongs to: an input file
  /// that its message names, the only input file, the document's main
  /// file, the first input file; empty when there is none.
  std::string artifactOf(llvm::StringRef Message, llvm::StringRef MainFile) {
    const std::vector<std::string> &Inputs = Options.InputFiles;
    for (const std::string &Input : Inputs) {
      std::string Absolute = absolute(Input, "");
      if (!Input.empty() && (Message.contains(Absolute) ||
                             Message.contains("'" + Input + "'")))
        return Absolute;
    }
    if (Inputs.size() == 1)
      return absolute(Inputs.front(), "");
    if (!MainFile.empty())
      return absolute(MainFile, "");
    return Inputs.empty() ? std::string() : absolute(Inputs.front(), "");
  }

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

  /// The TMA rule id the message names, if the reference has it; else the
  /// check.
  static std::string ruleIdOf(const tooling::Diagnostic &Diag) {
    std::string_view Id =
        tma::rules::ruleIdOfMessage(Diag.Message.Message);
    if (!Id.empty() && tma::rules::findRuleDoc(Id))
      return std::string(Id);
    return Diag.DiagnosticName;
  }

  int64_t ruleIndex(const std::string &Id, llvm::StringRef Check) {
    auto [It, Inserted] = RuleIndexes.try_emplace(Id, Rules.size());
    if (!Inserted)
      return static_cast<int64_t>(It->second);
    Object Rule{{"id", Id}, {"name", Id}};
    if (const tma::rules::RuleDoc *Doc = tma::rules::findRuleDoc(Id)) {
      Rule["shortDescription"] = Object{{"text", Doc->Summary}};
      Rule["fullDescription"] = Object{{"text", Doc->Condition}};
      if (!Options.HelpUriBase.empty()) {
        std::string Base = Options.HelpUriBase;
        while (!Base.empty() && Base.back() == '/')
          Base.pop_back();
        Rule["helpUri"] = Base + "/" + Id + ".md";
      }
    }
    Rule["properties"] = Object{{"check", Check.str()}};
    Rules.push_back(std::move(Rule));
    return static_cast<int64_t>(It->second);
  }

  Object invocation() const {
    const SarifOptions::Invocation &Run = Options.Run;
    bool Success =
        Run.Errors.empty() &&
        (Run.ExitCode == 0 || (Run.WarningsAsErrors && Run.ExitCode == 1 &&
                               CompilerErrors == 0 && ResultCount > 0));
    Array Notifications;
    // json::Value keeps a StringRef as a reference: own the text.
    auto Notify = [&](llvm::StringRef Level, std::string Text) {
      Notifications.push_back(Object{
          {"level", Level}, {"message", Object{{"text", std::move(Text)}}}});
    };
    for (const std::string &Error : Run.Errors)
      Notify("error", Error);
    for (const std::string &Warning : Run.Warnings)
      Notify("warning", Warning);
    for (const std::string &Text : Unlocated)
      Notify("error", Text);
    if (Run.ExitCode != 0 && !Success)
      Notify("error",
             llvm::formatv("clang-tidy exited with status {0}{1}", Run.ExitCode,
                           CompilerErrors
                               ? llvm::formatv(" after {0} compiler error(s)",
                                               CompilerErrors)
                                     .str()
                               : std::string())
                 .str());
    Object Invocation{{"executionSuccessful", Success},
                      {"exitCode", static_cast<int64_t>(Run.ExitCode)}};
    if (!Notifications.empty())
      Invocation["toolExecutionNotifications"] = std::move(Notifications);
    return Invocation;
  }

  Object artifactLocation(llvm::StringRef Path) {
    if (!Root.empty() && Path.starts_with(Root))
      return Object{{"uri", percentEncode(Path.drop_front(Root.size()))},
                    {"uriBaseId", RootId}};
    return Object{{"uri", fileUri(Path)}};
  }

  const std::optional<FileText> &contents(const std::string &Path) {
    auto [It, Inserted] = Files.try_emplace(Path);
    if (Inserted) {
      if (Options.ReadFile) {
        if (std::optional<std::string> Text = Options.ReadFile(Path))
          It->second.emplace(std::move(*Text));
      } else if (auto Buffer = llvm::MemoryBuffer::getFile(Path)) {
        It->second.emplace((*Buffer)->getBuffer().str());
      }
    }
    return It->second;
  }

  /// The region of Length bytes at Offset (Length: a point, startLine and
  /// startColumn only); bytes when the file cannot be read.
  Object region(const std::string &Path, unsigned Offset,
                std::optional<unsigned> Length) {
    const std::optional<FileText> &Content = contents(Path);
    std::optional<Position> Start, End;
    if (Content) {
      Start = Content->positionOf(Offset);
      if (Length)
        End = Content->positionOf(Offset + *Length);
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
  std::vector<std::string> Results;
  llvm::StringSet<> Seen;
  llvm::StringMap<std::optional<FileText>> Files;
  /// Diagnostics with no file to put them on (notifications).
  std::vector<std::string> Unlocated;
  llvm::StringSet<> UnlocatedSeen;
  unsigned ResultCount = 0;
  unsigned CompilerErrors = 0;
};

} // namespace

llvm::Error writeSarifLog(llvm::StringRef Yaml, const SarifOptions &Options,
                          llvm::raw_ostream &OS) {
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
        Convert.add(Diag, TU.MainSourceFile);
    } while (In.nextDocument());
  }
  std::move(Convert).finish(OS);
  return llvm::Error::success();
}

llvm::Expected<llvm::json::Value>
fixesYamlToSarif(llvm::StringRef Yaml, const SarifOptions &Options) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (llvm::Error Error = writeSarifLog(Yaml, Options, OS))
    return std::move(Error);
  return llvm::json::parse(Text);
}

llvm::Expected<DiagnosticCounts> countDiagnostics(llvm::StringRef Yaml) {
  DiagnosticCounts Counts;
  if (Yaml.trim().empty())
    return Counts;
  llvm::StringSet<> Seen;
  llvm::yaml::Input In(Yaml);
  do {
    tooling::TranslationUnitDiagnostics TU;
    In >> TU;
    if (std::error_code Error = In.error())
      return llvm::createStringError(
          Error, "cannot read the clang-tidy fixes YAML: " + Error.message());
    for (const tooling::Diagnostic &Diag : TU.Diagnostics) {
      const tooling::DiagnosticMessage &M = Diag.Message;
      if (!Seen.insert(llvm::formatv("{0}\n{1}\n{2}\n{3}", Diag.DiagnosticName,
                                     M.FilePath, M.FileOffset, M.Message)
                           .str())
               .second)
        continue;
      if (Diag.DiagLevel == tooling::Diagnostic::Error)
        ++Counts.Errors;
      else if (Diag.DiagLevel == tooling::Diagnostic::Warning)
        ++Counts.Warnings;
    }
  } while (In.nextDocument());
  return Counts;
}

bool isSarifLog(llvm::StringRef Content) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Content);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return false;
  }
  const Object *Log = Parsed->getAsObject();
  return Log && Log->getString("version") && Log->getArray("runs");
}

llvm::Error checkSarifTarget(llvm::StringRef Path) {
  if (Path.empty())
    return llvm::createStringError(std::make_error_code(std::errc::invalid_argument),
                                   "--tma-export-sarif needs a file name");
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) || !llvm::sys::fs::exists(Status))
    return llvm::Error::success();
  if (!llvm::sys::fs::is_regular_file(Status))
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "'" + Path + "' is not a regular file; not writing the SARIF log");
  if (Status.getSize() == 0)
    return llvm::Error::success();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer || !isSarifLog((*Buffer)->getBuffer()))
    return llvm::createStringError(
        std::make_error_code(std::errc::file_exists),
        "'" + Path +
            "' exists and is not a SARIF log; not overwriting it (give "
            "--tma-export-sarif=<new file>.sarif)");
  return llvm::Error::success();
}

bool isFixesYaml(llvm::StringRef Content) {
  llvm::yaml::Input In(Content, /*Ctxt=*/nullptr,
                       [](const llvm::SMDiagnostic &, void *) {});
  do {
    tooling::TranslationUnitDiagnostics TU;
    In >> TU;
    if (In.error())
      return false;
  } while (In.nextDocument());
  return true;
}

llvm::Error checkFixesTarget(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) || !llvm::sys::fs::exists(Status))
    return llvm::Error::success();
  if (!llvm::sys::fs::is_regular_file(Status))
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "'" + Path + "' is not a regular file; not writing the fixes there");
  if (Status.getSize() == 0)
    return llvm::Error::success();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer || !isFixesYaml((*Buffer)->getBuffer()))
    return llvm::createStringError(
        std::make_error_code(std::errc::file_exists),
        "'" + Path +
            "' exists and is not a clang-tidy fixes file; not overwriting it "
            "(give --export-fixes=<new file>.yaml)");
  return llvm::Error::success();
}

llvm::Error convertFixesFile(llvm::StringRef FixesFile,
                             llvm::StringRef SarifFile,
                             const SarifOptions &Options) {
  if (llvm::Error Refused = checkSarifTarget(SarifFile))
    return Refused;
  std::string Yaml;
  if (!FixesFile.empty() && llvm::sys::fs::exists(FixesFile)) {
    auto Buffer = llvm::MemoryBuffer::getFile(FixesFile);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(),
                                     "cannot read " + FixesFile + ": " +
                                         Buffer.getError().message());
    Yaml = (*Buffer)->getBuffer().str();
  }
  // A temporary file in the same directory, renamed over the target: a
  // reader never sees half a log, and a failed write leaves the old one.
  llvm::SmallString<256> Model(SarifFile);
  llvm::sys::path::remove_filename(Model);
  llvm::sys::path::append(Model, "." + llvm::sys::path::filename(SarifFile) +
                                     ".tmp-%%%%%%");
  int FD = -1;
  llvm::SmallString<256> Temporary;
  if (std::error_code Error =
          llvm::sys::fs::createUniqueFile(Model, FD, Temporary))
    return llvm::createStringError(Error, "cannot write " + SarifFile + ": " +
                                              Error.message());
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    llvm::Error Written = writeSarifLog(Yaml, Options, Out);
    Out << "\n";
    Out.close();
    if (Written) {
      std::error_code Ignored = llvm::sys::fs::remove(Temporary);
      (void)Ignored;
      return Written;
    }
    if (Out.has_error()) {
      std::error_code Error = Out.error();
      Out.clear_error();
      llvm::sys::fs::remove(Temporary);
      return llvm::createStringError(Error, "cannot write " + SarifFile +
                                                ": " + Error.message());
    }
  }
  if (std::error_code Error = llvm::sys::fs::rename(Temporary, SarifFile)) {
    llvm::sys::fs::remove(Temporary);
    return llvm::createStringError(Error, "cannot write " + SarifFile + ": " +
                                              Error.message());
  }
  return llvm::Error::success();
}

} // namespace tma::sarif
