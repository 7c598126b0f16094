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
  EXPECT_EQ(Rules[0].getAsObject()->getString("id"), "tma-descriptor");
  EXPECT_EQ(Rules[1].getAsObject()->getString("id"), "clang-diagnostic-error");
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
  EXPECT_EQ(R.getString("ruleId"), "tma-descriptor");
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

} // namespace
