// The one way parprim writes a file (PNG frames and images, JSON, CSV, diagnostics, snapshots):
//
//   1. check_output_path() before any work: the target is missing or a regular file (through
//      a symbolic link is fine), and its directory exists;
//   2. the bytes go to a temporary file beside the target (.NAME.XXXXXX), every write and the
//      close are checked;
//   3. commit() renames the temporary over the target, after checking once more that the
//      target is still missing or a regular file; a failure anywhere removes the temporary.
//
// So a run that fails leaves an existing file as it was, a reader never sees half a file, and
// a device node or directory named as an output is refused instead of replaced.
#pragma once

#include <cstdio>
#include <string>

namespace parprim::apps {

// Throws parprim::error (io_error) naming `who` and the path when `path` cannot become an
// output file: empty, a directory, a device or other non-regular file, a dangling link, or a
// directory part that does not exist.
void check_output_path(const std::string& path, const std::string& who);

class output_file {
 public:
  // Checks the path (as check_output_path) and opens the temporary file.
  output_file(const std::string& path, const std::string& who);
  ~output_file();  // without commit(): closes and removes the temporary
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  // The temporary file, for fprintf and libpng; write errors are found by commit().
  std::FILE* stream() const { return file_; }
  void write(const std::string& bytes);
  // Flushes, closes and renames into place; throws io_error (and removes the temporary) when
  // any write failed (a full device, a file-size limit) or the target turned non-regular.
  void commit();
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what);
  std::string path_;    // as given (for messages)
  std::string target_;  // what the rename replaces: path_, or the file a link points to
  std::string temp_;
  std::string who_;
  std::FILE* file_ = nullptr;
};

// An output_file written in one go.
void write_file(const std::string& path, const std::string& bytes, const std::string& who);

}  // namespace parprim::apps
