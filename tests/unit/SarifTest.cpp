//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// SARIF 2.1.0 from clang-tidy's --export-fixes YAML (checker/tidy/Sarif.h),
// with the files in memory.
//
//===----------------------------------------------------------------------===//

#include "tidy/Sarif.h"

#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

namespace {

using namespace tma::sarif;
using llvm::json::Object;

// Line 2, column 5 is offset 15; line 3, column 9 (512) is offset 31.
const char *const Source = "int x = 1;\n/**/ int y;\nint z = 512;\n";

const char *const Yaml = R"(---
MainSourceFile:  '/src/k.cu'
Diagnostics:
  - DiagnosticName:  tma-descriptor
    DiagnosticMessage:
      Message:         'boxDim[0] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE)'
      FilePath:        '/src/k.cu'
      FileOffset:      15
      Replacements:    []
    Notes:
      - Message:         'boxDim[0] = 512 comes from here'
        FilePath:        '/src/k.cu'
        FileOffset:      31
        Replacements:    []
      - Message:         'split the box'
        FilePath:        '/src/k.cu'
        FileOffset:      31
        Replacements:
          - FilePath:        '/src/k.cu'
            Offset:          31
            Length:          3
            ReplacementText: '256'
    Level:           Warning
    BuildDirectory:  '/build'
  - DiagnosticName:  clang-diagnostic-error
    DiagnosticMessage:
      Message:         'boom'
      FilePath:        '/elsewhere/h.h'
      FileOffset:      0
      Replacements:    []
    Level:           Error
    BuildDirectory:  '/build'
...
)";

SarifOptions options() {
  SarifOptions Options;
  Options.RootDirectory = "/src";
  Options.InformationUri = "https://example.org/tma-tidy";
  Options.HelpUriBase = "https://example.org/docs/rules/";
  Options.ReadFile = [](llvm::StringRef Path) -> std::optional<std::string> {
    if (Path == "/src/k.cu")
      return std::string(Source);
    if (Path == "/elsewhere/h.h")
      return std::string("#error boom\n");
    return std::nullopt;
  };
  return Options;
}

Object convert(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> Log = fixesYamlToSarif(Text, options());
  if (!Log) {
    ADD_FAILURE() << llvm::toString(Log.takeError());
    return Object();
  }
  return *Log->getAsObject();
}

const Object &run(const Object &Log) {
  return *(*Log.getArray("runs"))[0].getAsObject();
}

TEST(SarifTest, LogAndTool) {
  Object Log = convert(Yaml);
  EXPECT_EQ(Log.getString("version"), "2.1.0");
  EXPECT_EQ(Log.getString("$schema"),
            "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(Log.getArray("runs")->size(), 1u);
  const Object &Driver =
      *run(Log).getObject("tool")->getObject("driver");
  EXPECT_EQ(Driver.getString("name"), "tma-tidy");
  EXPECT_EQ(Driver.getString("informationUri"),
            "https://example.org/tma-tidy");
  const llvm::json::Array &Rules = *Driver.getArray("rules");
  ASSERT_EQ(Rules.size(), 2u);
  // A TMA rule id from the message, with its page of the rule reference.
  const Object &Rule = *Rules[0].getAsObject();
  EXPECT_EQ(Rule.getString("id"), "TMAP-TILED-BOX-RANGE");
  EXPECT_EQ(Rule.getObject("shortDescription")->getString("text"),
            "Every boxDim[i] is between 1 and 256.");
  EXPECT_TRUE(Rule.getObject("fullDescription")
                  ->getString("text")
                  ->starts_with("Each box extent in boxDim must be non-zero"));
  EXPECT_EQ(Rule.getString("helpUri"),
            "https://example.org/docs/rules/TMAP-TILED-BOX-RANGE.md");
  EXPECT_EQ(Rule.getObject("properties")->getString("check"),
            "tma-descriptor");
  // A clang error has no rule id: the check name, no help.
  const Object &Error = *Rules[1].getAsObject();
  EXPECT_EQ(Error.getString("id"), "clang-diagnostic-error");
  EXPECT_EQ(Error.get("helpUri"), nullptr);
  EXPECT_EQ(Error.get("shortDescription"), nullptr);
  EXPECT_EQ(run(Log)
                .getObject("originalUriBaseIds")
                ->getObject("%SRCROOT%")
                ->getString("uri"),
            "file:///src/");
}

TEST(SarifTest, ResultLocationNotesAndFix) {
  Object Log = convert(Yaml);
  const llvm::json::Array &Results = *run(Log).getArray("results");
  ASSERT_EQ(Results.size(), 2u);
  const Object &R = *Results[0].getAsObject();
  EXPECT_EQ(R.getString("ruleId"), "TMAP-TILED-BOX-RANGE");
  EXPECT_EQ(R.getInteger("ruleIndex"), 0);
  EXPECT_EQ(R.getString("level"), "warning");
  EXPECT_EQ(R.getObject("message")->getString("text"),
            "boxDim[0] is 512, above the limit of 256 (TMAP-TILED-BOX-RANGE)");

  const Object &Physical = *(*R.getArray("locations"))[0]
                                .getAsObject()
                                ->getObject("physicalLocation");
  EXPECT_EQ(Physical.getObject("artifactLocation")->getString("uri"), "k.cu");
  EXPECT_EQ(Physical.getObject("artifactLocation")->getString("uriBaseId"),
            "%SRCROOT%");
  EXPECT_EQ(Physical.getObject("region")->getInteger("startLine"), 2);
  EXPECT_EQ(Physical.getObject("region")->getInteger("startColumn"), 5);

  const llvm::json::Array &Related = *R.getArray("relatedLocations");
  ASSERT_EQ(Related.size(), 2u);
  const Object &Note = *Related[0].getAsObject();
  EXPECT_EQ(Note.getObject("message")->getString("text"),
            "boxDim[0] = 512 comes from here");
  const Object &NoteRegion =
      *Note.getObject("physicalLocation")->getObject("region");
  EXPECT_EQ(NoteRegion.getInteger("startLine"), 3);
  EXPECT_EQ(NoteRegion.getInteger("startColumn"), 9);

  const llvm::json::Array &Fixes = *R.getArray("fixes");
  ASSERT_EQ(Fixes.size(), 1u);
  const Object &Fix = *Fixes[0].getAsObject();
  EXPECT_EQ(Fix.getObject("description")->getString("text"), "split the box");
  const Object &Change = *(*Fix.getArray("artifactChanges"))[0].getAsObject();
  EXPECT_EQ(Change.getObject("artifactLocation")->getString("uri"), "k.cu");
  const Object &Replacement =
      *(*Change.getArray("replacements"))[0].getAsObject();
  EXPECT_EQ(Replacement.getObject("insertedContent")->getString("text"), "256");
  const Object &Deleted = *Replacement.getObject("deletedRegion");
  EXPECT_EQ(Deleted.getInteger("startLine"), 3);
  EXPECT_EQ(Deleted.getInteger("startColumn"), 9);
  EXPECT_EQ(Deleted.getInteger("endLine"), 3);
  EXPECT_EQ(Deleted.getInteger("endColumn"), 12);
}

TEST(SarifTest, ErrorOutsideTheRootIsAnAbsoluteUri) {
  Object Log = convert(Yaml);
  const Object &R = *(*run(Log).getArray("results"))[1].getAsObject();
  EXPECT_EQ(R.getString("level"), "error");
  EXPECT_EQ(R.getInteger("ruleIndex"), 1);
  EXPECT_EQ(R.get("fixes"), nullptr);
  const Object &Physical = *(*R.getArray("locations"))[0]
                                .getAsObject()
                                ->getObject("physicalLocation");
  EXPECT_EQ(Physical.getObject("artifactLocation")->getString("uri"),
            "file:///elsewhere/h.h");
  EXPECT_EQ(Physical.getObject("artifactLocation")->get("uriBaseId"), nullptr);
  EXPECT_EQ(Physical.getObject("region")->getInteger("startLine"), 1);
}

TEST(SarifTest, DuplicatesAcrossDocumentsAreKeptOnce) {
  std::string Twice = std::string(Yaml) + Yaml;
  Object Log = convert(Twice);
  EXPECT_EQ(run(Log).getArray("results")->size(), 2u);
}

TEST(SarifTest, EmptyYamlIsAnEmptyRun) {
  Object Log = convert("");
  EXPECT_EQ(run(Log).getArray("results")->size(), 0u);
  EXPECT_EQ(run(Log).getObject("tool")->getObject("driver")->getArray("rules")
                ->size(),
            0u);
}

TEST(SarifTest, BadYamlIsAnError) {
  llvm::Expected<llvm::json::Value> Log =
      fixesYamlToSarif("Diagnostics: [", options());
  EXPECT_FALSE(static_cast<bool>(Log));
  llvm::consumeError(Log.takeError());
}

TEST(SarifTest, UnreadableFileFallsBackToBytes) {
  std::string Text = Yaml;
  std::size_t At = Text.find("'/elsewhere/h.h'");
  Text.replace(At, 16, "'/gone.h'");
  Object Log = convert(Text);
  const Object &R = *(*run(Log).getArray("results"))[1].getAsObject();
  const Object &Region = *(*R.getArray("locations"))[0]
                              .getAsObject()
                              ->getObject("physicalLocation")
                              ->getObject("region");
  EXPECT_EQ(Region.getInteger("byteOffset"), 0);
  EXPECT_EQ(Region.get("startLine"), nullptr);
}


const Object &invocation(const Object &Log) {
  return *(*run(Log).getArray("invocations"))[0].getAsObject();
}

Object convertWith(llvm::StringRef Text,
                   const SarifOptions::Invocation &Invocation) {
  SarifOptions Options = options();
  Options.Run = Invocation;
  llvm::Expected<llvm::json::Value> Log = fixesYamlToSarif(Text, Options);
  if (!Log) {
    ADD_FAILURE() << llvm::toString(Log.takeError());
    return Object();
  }
  return *Log->getAsObject();
}

TEST(SarifTest, CleanRunIsSuccessful) {
  Object Log = convertWith("", {});
  EXPECT_EQ(invocation(Log).getBoolean("executionSuccessful"), true);
  EXPECT_EQ(invocation(Log).getInteger("exitCode"), 0);
  EXPECT_EQ(invocation(Log).get("toolExecutionNotifications"), nullptr);
}

TEST(SarifTest, FailedRunIsNeverAnEmptySuccess) {
  SarifOptions::Invocation Failed;
  Failed.ExitCode = 1;
  Object Log = convertWith("", Failed);
  EXPECT_EQ(invocation(Log).getBoolean("executionSuccessful"), false);
  EXPECT_EQ(invocation(Log).getInteger("exitCode"), 1);
  const llvm::json::Array &Notes =
      *invocation(Log).getArray("toolExecutionNotifications");
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_EQ(Notes[0].getAsObject()->getObject("message")->getString("text"),
            "clang-tidy exited with status 1");
}

TEST(SarifTest, WarningsAsErrorsIsASuccessfulRunUnlessClangFailed) {
  SarifOptions::Invocation Run;
  Run.ExitCode = 1;
  Run.WarningsAsErrors = true;
  // The YAML has a clang error: the file was not fully analysed.
  EXPECT_EQ(invocation(convertWith(Yaml, Run)).getBoolean("executionSuccessful"),
            false);
  std::string OnlyTidy = Yaml;
  OnlyTidy.erase(OnlyTidy.find("  - DiagnosticName:  clang-diagnostic-error"),
                 OnlyTidy.find("...") -
                     OnlyTidy.find("  - DiagnosticName:  clang-diagnostic-error"));
  EXPECT_EQ(
      invocation(convertWith(OnlyTidy, Run)).getBoolean("executionSuccessful"),
      true);
  // Nothing found yet status 1: not a warnings-as-errors failure.
  EXPECT_EQ(invocation(convertWith("", Run)).getBoolean("executionSuccessful"),
            false);
}

TEST(SarifTest, ToolErrorsFailTheRun) {
  SarifOptions::Invocation Run;
  Run.Errors.push_back("'k.cu' has no entry in the compile database");
  Run.Warnings.push_back("something to know");
  Object Log = convertWith("", Run);
  const Object &Inv = invocation(Log);
  EXPECT_EQ(Inv.getBoolean("executionSuccessful"), false);
  const llvm::json::Array &Notes = *Inv.getArray("toolExecutionNotifications");
  ASSERT_EQ(Notes.size(), 2u);
  EXPECT_EQ(Notes[0].getAsObject()->getString("level"), "error");
  EXPECT_EQ(Notes[1].getAsObject()->getString("level"), "warning");
}

TEST(SarifTest, PositionsOnLaterLines) {
  // Offsets far into a long file: a line index, not a scan from the start.
  std::string Big;
  for (int I = 0; I < 20000; ++I)
    Big += "int v" + std::to_string(I) + ";\n";
  std::size_t Offset = Big.find("int v19999;") + 4;
  std::string Text = Yaml;
  Text.replace(Text.find("FileOffset:      15"), 19,
               "FileOffset:      " + std::to_string(Offset));
  SarifOptions Options = options();
  Options.ReadFile = [&](llvm::StringRef Path) -> std::optional<std::string> {
    if (Path == "/src/k.cu")
      return Big;
    return std::nullopt;
  };
  llvm::Expected<llvm::json::Value> Log = fixesYamlToSarif(Text, Options);
  ASSERT_TRUE(static_cast<bool>(Log));
  const Object &R = *(*run(*Log->getAsObject()).getArray("results"))[0]
                         .getAsObject();
  const Object &Region = *(*R.getArray("locations"))[0]
                              .getAsObject()
                              ->getObject("physicalLocation")
                              ->getObject("region");
  EXPECT_EQ(Region.getInteger("startLine"), 20000);
  EXPECT_EQ(Region.getInteger("startColumn"), 5);
}

// Diagnostics without a location: a missing input, "too many errors
// emitted". Code scanning refuses a result without a location.
const char *const Unlocated = R"(---
MainSourceFile:  '/src/main.cu'
Diagnostics:
  - DiagnosticName:  clang-diagnostic-error
    DiagnosticMessage:
      Message:         'no such file or directory: ''/src/gone.cu'''
      FilePath:        ''
      FileOffset:      0
      Replacements:    []
    Level:           Error
    BuildDirectory:  ''
  - DiagnosticName:  clang-diagnostic-error
    DiagnosticMessage:
      Message:         too many errors emitted, stopping now
      FilePath:        ''
      FileOffset:      0
      Replacements:    []
    Level:           Error
    BuildDirectory:  '/src'
...
)";

/// The artifact URI and start line of result I.
std::pair<std::string, int64_t> artifactOf(const Object &Log, std::size_t I) {
  const Object &Physical = *(*(*run(Log).getArray("results"))[I]
                                  .getAsObject()
                                  ->getArray("locations"))[0]
                                .getAsObject()
                                ->getObject("physicalLocation");
  return {Physical.getObject("artifactLocation")->getString("uri")->str(),
          *Physical.getObject("region")->getInteger("startLine")};
}

TEST(SarifTest, UnlocatedDiagnosticsGoOnTheirFile) {
  SarifOptions Options = options();
  Options.InputFiles = {"/src/main.cu", "/src/gone.cu"};
  llvm::Expected<llvm::json::Value> Log = fixesYamlToSarif(Unlocated, Options);
  ASSERT_TRUE(static_cast<bool>(Log)) << llvm::toString(Log.takeError());
  const Object &L = *Log->getAsObject();
  ASSERT_EQ(run(L).getArray("results")->size(), 2u);
  // The input the message names; else the document's main file.
  EXPECT_EQ(artifactOf(L, 0), std::make_pair(std::string("gone.cu"), int64_t(1)));
  EXPECT_EQ(artifactOf(L, 1), std::make_pair(std::string("main.cu"), int64_t(1)));
  // One input file: every such diagnostic is about it.
  Options.InputFiles = {"/src/only.cu"};
  llvm::Expected<llvm::json::Value> One = fixesYamlToSarif(Unlocated, Options);
  ASSERT_TRUE(static_cast<bool>(One)) << llvm::toString(One.takeError());
  EXPECT_EQ(artifactOf(*One->getAsObject(), 1).first, "only.cu");
}

TEST(SarifTest, DiagnosticWithNoFileAtAllIsANotification) {
  std::string Text = Unlocated;
  Text.replace(Text.find("'/src/main.cu'"), 14, "''");
  SarifOptions::Invocation Failed;
  Failed.ExitCode = 1;
  Object Log = convertWith(Text, Failed);
  EXPECT_EQ(run(Log).getArray("results")->size(), 0u);
  const llvm::json::Array &Notes =
      *invocation(Log).getArray("toolExecutionNotifications");
  ASSERT_EQ(Notes.size(), 3u);
  EXPECT_EQ(Notes[1].getAsObject()->getObject("message")->getString("text"),
            "too many errors emitted, stopping now [clang-diagnostic-error]");
  EXPECT_EQ(invocation(Log).getBoolean("executionSuccessful"), false);
}

TEST(SarifTest, IsSarifLog) {
  EXPECT_TRUE(isSarifLog(R"({"version": "2.1.0", "runs": []})"));
  EXPECT_FALSE(isSarifLog("#include <cuda.h>\n"));
  EXPECT_FALSE(isSarifLog(R"({"version": "2.1.0"})"));
  EXPECT_FALSE(isSarifLog("[1, 2]"));
  EXPECT_FALSE(isSarifLog(""));
}

class SarifFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("sarif-test", Dir));
  }
  void TearDown() override {
    std::error_code Ignored = llvm::sys::fs::remove_directories(Dir);
    (void)Ignored;
  }
  std::string path(llvm::StringRef Name) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    return P.str().str();
  }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    std::error_code Error;
    llvm::raw_fd_ostream Out(path(Name), Error);
    ASSERT_FALSE(Error);
    Out << Text;
  }
  std::string read(llvm::StringRef Name) {
    auto Buffer = llvm::MemoryBuffer::getFile(path(Name));
    return Buffer ? (*Buffer)->getBuffer().str() : "<none>";
  }
  /// The names in the directory.
  std::vector<std::string> files() {
    std::vector<std::string> Names;
    std::error_code Error;
    for (llvm::sys::fs::directory_iterator It(Dir, Error), End;
         It != End && !Error; It.increment(Error))
      Names.push_back(llvm::sys::path::filename(It->path()).str());
    std::sort(Names.begin(), Names.end());
    return Names;
  }
  llvm::SmallString<128> Dir;
};

TEST_F(SarifFileTest, RefusesToOverwriteASource) {
  write("victim.cu", "__global__ void k() {}\n");
  llvm::Error Error = convertFixesFile("", path("victim.cu"), options());
  ASSERT_TRUE(static_cast<bool>(Error));
  EXPECT_NE(llvm::toString(std::move(Error)).find("is not a SARIF log"),
            std::string::npos);
  EXPECT_EQ(read("victim.cu"), "__global__ void k() {}\n");
  EXPECT_EQ(files(), std::vector<std::string>{"victim.cu"});
}

TEST_F(SarifFileTest, RefusesADirectory) {
  ASSERT_FALSE(llvm::sys::fs::create_directory(path("out.sarif")));
  llvm::Error Error = checkSarifTarget(path("out.sarif"));
  ASSERT_TRUE(static_cast<bool>(Error));
  llvm::consumeError(std::move(Error));
}

TEST_F(SarifFileTest, ReplacesAnOldLogAndLeavesNoTemporary) {
  write("out.sarif", R"({"version": "2.1.0", "runs": []})");
  write("empty.sarif", "");
  ASSERT_FALSE(static_cast<bool>(
      convertFixesFile("", path("out.sarif"), options())));
  ASSERT_FALSE(static_cast<bool>(
      convertFixesFile("", path("empty.sarif"), options())));
  EXPECT_TRUE(isSarifLog(read("out.sarif")));
  EXPECT_TRUE(isSarifLog(read("empty.sarif")));
  EXPECT_EQ(files(), (std::vector<std::string>{"empty.sarif", "out.sarif"}));
}

TEST_F(SarifFileTest, UnwritableDirectoryIsAnError) {
  llvm::Error Error =
      convertFixesFile("", path("no/such/dir/out.sarif"), options());
  ASSERT_TRUE(static_cast<bool>(Error));
  EXPECT_NE(llvm::toString(std::move(Error)).find("cannot write"),
            std::string::npos);
}

} // namespace
