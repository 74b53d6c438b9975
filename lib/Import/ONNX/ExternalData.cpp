//===- ExternalData.cpp - tensors whose bytes live in another file --------===//
//
// ONNX's external data (onnx/docs/ExternalData.md): a TensorProto with
// data_location = EXTERNAL names a file (`location`, relative to the model's
// directory) and a byte range (`offset`, `length`) holding its raw_data.
// torch's exporter writes large models so, and ONNX Runtime's model builder
// always does (model.onnx + model.onnx.data).
//
// A model is untrusted input, so the rules are strict: the location is a
// relative path without `..` (as newer ONNX checkers require), the
// file a regular one (a FIFO or a device would block or never end), and the
// range inside it and exactly the tensor's size. Symbolic links are
// followed only within the model's directory: the data ends up in the
// compiled code, so a link out of it (a downloaded archive holding
// `root -> /`) must not let a model read any file of the machine.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// Parses `offset` or `length`: a decimal integer in [0, 2^63).
static std::optional<int64_t> parseByteCount(llvm::StringRef text) {
  uint64_t value;
  if (text.empty() || !llvm::all_of(text, llvm::isDigit) ||
      text.getAsInteger(10, value) || value > uint64_t(INT64_MAX))
    return std::nullopt;
  return int64_t(value);
}

/// `text` for a diagnostic: at most 200 characters.
static std::string shown(llvm::StringRef text) {
  constexpr size_t kMax = 200;
  return text.size() <= kMax ? text.str()
                             : (text.take_front(kMax) + "...").str();
}

FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
Importer::readExternalData(const onnx::TensorProto &t, int64_t byteCount) {
  auto bad = [&](const Twine &why) {
    return fail("tensor '" + shown(t.name()) + "' is stored externally, but " +
                why);
  };
  if (t.has_raw_data() || t.float_data_size() || t.int32_data_size() ||
      t.int64_data_size() || t.double_data_size() || t.uint64_data_size() ||
      t.string_data_size())
    return bad("it also holds data in the model (ONNX allows one or the "
               "other)");

  std::optional<std::string> location;
  int64_t offset = 0;
  std::optional<int64_t> length;
  llvm::StringSet<> seen;
  for (const onnx::StringStringEntryProto &entry : t.external_data()) {
    llvm::StringRef key = entry.key(), value = entry.value();
    if (!seen.insert(key).second)
      return bad("its external data key '" + shown(key) + "' appears twice");
    if (key == "location") {
      location = entry.value();
    } else if (key == "offset" || key == "length") {
      std::optional<int64_t> count = parseByteCount(value);
      if (!count)
        return bad("its " + key +
                   " must be a non-negative decimal integer below 2^63, "
                   "not '" +
                   shown(value) + "'");
      (key == "offset" ? offset : length.emplace()) = *count;
    } else if (key != "checksum") {
      return bad("its external data key '" + shown(key) +
                 "' is unknown (ONNX defines location, offset, length and "
                 "checksum)");
    }
  }
  if (!location || location->empty())
    return bad("it has no location");
  // A NUL would end the path the file system sees.
  if (location->find('\0') != std::string::npos)
    return bad("its location holds a NUL character");
  if (llvm::sys::path::is_absolute(*location))
    return bad("its location '" + shown(*location) +
               "' is an absolute path (it must be relative to the model's "
               "directory)");
  for (llvm::StringRef part : llvm::make_range(
           llvm::sys::path::begin(*location), llvm::sys::path::end(*location)))
    if (part == "..")
      return bad("its location '" + shown(*location) +
                 "' leaves the model's directory ('..')");
  if (options.externalDataDir.empty())
    return bad("no directory for external data was given (quant-import-onnx "
               "reads it beside the model or from --external-data-dir; a "
               "library caller sets ImportOptions::externalDataDir)");
  if (length && *length != byteCount)
    return bad("its length is " + Twine(*length) + " bytes, not the " +
               Twine(byteCount) + " its shape and type need");

  llvm::SmallString<256> path(options.externalDataDir);
  llvm::sys::path::append(path, *location);
  std::string where = shown(path);
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return bad("its file '" + where + "' cannot be read: " + ec.message());
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return bad("its file '" + where + "' is not a regular file");
  // Links are followed within the directory only.
  llvm::SmallString<256> realDir, realFile;
  if (llvm::sys::fs::real_path(options.externalDataDir, realDir) ||
      llvm::sys::fs::real_path(path, realFile))
    return bad("its file '" + where + "' cannot be resolved");
  if (!llvm::StringRef(realFile).starts_with(realDir) ||
      (realFile.size() > realDir.size() &&
       !llvm::sys::path::is_separator(realFile[realDir.size()])))
    return bad("its file '" + where + "' is '" + shown(realFile) +
               "', outside the model's directory '" + shown(realDir) +
               "' (through a symbolic link); copy the data beside the "
               "model");
  uint64_t fileSize = status.getSize();
  if (uint64_t(offset) > fileSize ||
      uint64_t(byteCount) > fileSize - uint64_t(offset))
    return bad("bytes [" + Twine(offset) + ", " + Twine(offset) + " + " +
               Twine(byteCount) + ") lie beyond the end of '" + where + "' (" +
               Twine(fileSize) + " bytes)");
  if (byteCount == 0)
    return llvm::MemoryBuffer::getMemBuffer("", where);
  // Mapped, not copied: readTensor reads the values from it.
  auto buffer = llvm::MemoryBuffer::getFileSlice(path, byteCount, offset,
                                                 /*IsVolatile=*/false);
  if (!buffer)
    return bad("its file '" + where +
               "' cannot be read: " + buffer.getError().message());
  return std::move(*buffer);
}
