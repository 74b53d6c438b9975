//===- InputLimits.h - bounded reading of a tool's MLIR input ---*- C++ -*-===//
//
// Two hostile inputs no tool could finish: a file with no end (`/dev/zero`,
// an endless pipe), which LLVM's read-to-end kept reading until it aborted
// out of memory, and brackets nested tens of thousands deep, where
// upstream's parser and verifier take time quadratic in the depth (20000
// nested regions: about 90 s before any of our code runs). The tools that
// read MLIR text open their input through openLimitedInputFile, which stops
// both before parsing with a diagnostic naming the limit and its option.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TOOLS_INPUTLIMITS_H
#define QUANTOPT_TOOLS_INPUTLIMITS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace quantopt {

/// The limits a tool's input is read under.
struct InputLimits {
  /// Bytes read at most (1 GiB).
  uint64_t maxBytes = uint64_t(1) << 30;
  /// Where the byte limit comes from, for the diagnostic.
  llvm::StringRef maxBytesSource = "--max-input-bytes";
  /// Depth of nested '{', '(' and '[' at most, outside strings and comments.
  /// 4096 levels parse in about a second; regions of real programs nest a
  /// few dozen deep and dense literals as deep as their rank.
  unsigned maxNesting = 4096;
};

/// Registers --max-input-bytes and --max-input-nesting as command-line
/// options. Call before parsing the command line; the returned limits hold
/// the parsed values afterwards.
inline const InputLimits &declareInputLimitOptions() {
  static InputLimits limits;
  static llvm::cl::opt<uint64_t, /*ExternalStorage=*/true> maxBytes(
      "max-input-bytes",
      llvm::cl::desc("Refuse input larger than this many bytes"),
      llvm::cl::location(limits.maxBytes),
      llvm::cl::init(InputLimits().maxBytes));
  static llvm::cl::opt<unsigned, /*ExternalStorage=*/true> maxNesting(
      "max-input-nesting",
      llvm::cl::desc("Refuse input whose '{', '(' and '[' nest deeper than "
                     "this (0: no limit)"),
      llvm::cl::location(limits.maxNesting),
      llvm::cl::init(InputLimits().maxNesting));
  return limits;
}

namespace detail {

/// Returns the offset of the first bracket that nests deeper than
/// `maxNesting` in MLIR text, skipping string literals and `//` comments.
inline std::optional<size_t> findTooDeepBracket(llvm::StringRef text,
                                                unsigned maxNesting) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    switch (text[i]) {
    case '"':
      // To the closing quote; a backslash escapes the next character.
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        i = std::min(text.find('\n', i), e);
      break;
    case '{':
    case '(':
    case '[':
      if (++depth > maxNesting)
        return i;
      break;
    case '}':
    case ')':
    case ']':
      // Unbalanced closers are the parser's to report.
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

/// Reads a stream that has no size up front (stdin, a pipe, a device) to its
/// end, or fails once it holds more than `maxBytes`.
inline std::unique_ptr<llvm::MemoryBuffer>
readStreamBounded(llvm::sys::fs::file_t file, llvm::StringRef name,
                  const InputLimits &limits, std::string *errorMessage) {
  llvm::SmallVector<char, 0> data;
  constexpr size_t kChunk = size_t(1) << 16;
  while (true) {
    size_t size = data.size();
    data.resize_for_overwrite(size + kChunk);
    llvm::Expected<size_t> read = llvm::sys::fs::readNativeFile(
        file, llvm::MutableArrayRef<char>(data.data() + size, kChunk));
    if (!read) {
      *errorMessage = ("cannot read input '" + name +
                       "': " + llvm::toString(read.takeError()))
                          .str();
      return nullptr;
    }
    data.truncate(size + *read);
    if (*read == 0)
      break;
    if (data.size() > limits.maxBytes) {
      *errorMessage = ("input '" + name + "' holds more than " +
                       llvm::Twine(limits.maxBytes) + " bytes, the most that " +
                       limits.maxBytesSource + " allows")
                          .str();
      return nullptr;
    }
  }
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(data.data(), data.size()), name);
}

} // namespace detail

/// Opens `filename` ("-": stdin) like mlir::openInputFile, but refuses input
/// over `limits`, setting `errorMessage` to a diagnostic naming the limit.
inline std::unique_ptr<llvm::MemoryBuffer>
openLimitedInputFile(llvm::StringRef filename, const InputLimits &limits,
                     std::string *errorMessage) {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  llvm::sys::fs::file_status status;
  if (filename != "-" && !llvm::sys::fs::status(filename, status) &&
      llvm::sys::fs::is_regular_file(status)) {
    if (status.getSize() > limits.maxBytes) {
      *errorMessage =
          ("input '" + filename + "' holds " + llvm::Twine(status.getSize()) +
           " bytes, more than the " + llvm::Twine(limits.maxBytes) + " that " +
           limits.maxBytesSource + " allows")
              .str();
      return nullptr;
    }
    auto fileOrErr =
        llvm::MemoryBuffer::getFile(filename, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/true);
    if (std::error_code error = fileOrErr.getError()) {
      *errorMessage =
          ("cannot open input file '" + filename + "': " + error.message())
              .str();
      return nullptr;
    }
    buffer = std::move(*fileOrErr);
  } else if (filename == "-") {
    buffer = detail::readStreamBounded(llvm::sys::fs::getStdinHandle(),
                                       "<stdin>", limits, errorMessage);
  } else {
    llvm::Expected<llvm::sys::fs::file_t> file =
        llvm::sys::fs::openNativeFileForRead(filename);
    if (!file) {
      *errorMessage = ("cannot open input file '" + filename +
                       "': " + llvm::toString(file.takeError()))
                          .str();
      return nullptr;
    }
    buffer = detail::readStreamBounded(*file, filename, limits, errorMessage);
    llvm::sys::fs::closeFile(*file);
  }
  if (!buffer)
    return nullptr;

  // MLIR bytecode starts with "ML\xefR"; only text has brackets to count.
  llvm::StringRef text = buffer->getBuffer();
  if (limits.maxNesting == 0 || text.starts_with("ML\xef"
                                                 "R"))
    return buffer;
  std::optional<size_t> tooDeep =
      detail::findTooDeepBracket(text, limits.maxNesting);
  if (!tooDeep)
    return buffer;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(*buffer, /*RequiresNullTerminator=*/
                                       false),
      llvm::SMLoc());
  llvm::raw_string_ostream os(*errorMessage);
  sourceMgr.PrintMessage(
      os, llvm::SMLoc::getFromPointer(text.data() + *tooDeep),
      llvm::SourceMgr::DK_Error,
      "'{', '(' and '[' nest more than " + llvm::Twine(limits.maxNesting) +
          " deep here: the tools read at most --max-input-nesting levels "
          "(MLIR's parser and verifier take time quadratic in the depth)",
      /*Ranges=*/{}, /*FixIts=*/{}, /*ShowColors=*/false);
  // PrintMessage ends with a newline; callers add their own.
  if (!errorMessage->empty() && errorMessage->back() == '\n')
    errorMessage->pop_back();
  return nullptr;
}

} // namespace quantopt

#endif // QUANTOPT_TOOLS_INPUTLIMITS_H
