// Output files through a temporary file beside the target (see output_file.hpp).
#include "common/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "parprim/error.hpp"

namespace parprim::apps {
namespace {

[[noreturn]] void refuse(const std::string& who, const std::string& path, const std::string& why) {
  throw error(errc::io_error, who + ": cannot write '" + path + "': " + why);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What the final rename replaces: the path itself, or the regular file a link points to (so
// the link survives). Refuses anything but a missing or regular file.
std::string resolve_target(const std::string& path, const std::string& who) {
  if (path.empty()) refuse(who, path, "the file name is empty");
  if (path.back() == '/') refuse(who, path, "names a directory, not a file");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) return path;
    if (!S_ISLNK(st.st_mode))
      refuse(who, path, "it exists and is not a regular file (a directory, device, pipe or socket); "
                        "refusing to replace it");
    if (::stat(path.c_str(), &st) != 0) refuse(who, path, "it is a symbolic link to nothing");
    if (!S_ISREG(st.st_mode)) refuse(who, path, "it links to something that is not a regular file");
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved)) refuse(who, path, std::strerror(errno));
    return resolved;
  }
  if (errno != ENOENT) refuse(who, path, std::strerror(errno));
  const std::string dir = directory_of(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    refuse(who, path, "the directory '" + dir + "' does not exist");
  return path;
}

// Creates the temporary file beside `target` with the permissions the target has (or would
// get from the umask); returns its descriptor and fills `temp`.
int make_temp(const std::string& path, const std::string& target, const std::string& who, std::string& temp) {
  std::string name = directory_of(target) + "/." + base_of(target) + ".XXXXXX";
  std::vector<char> buf(name.begin(), name.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) refuse(who, path, std::string("cannot create a file in its directory: ") + std::strerror(errno));
  temp = buf.data();
  struct stat st {};
  mode_t mode;
  if (::stat(target.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd, mode);
  return fd;
}

}  // namespace

void check_output_path(const std::string& path, const std::string& who) {
  const std::string target = resolve_target(path, who);
  std::string temp;
  ::close(make_temp(path, target, who, temp));  // the directory takes new files
  std::remove(temp.c_str());
}

output_file::output_file(const std::string& path, const std::string& who)
    : path_(path), target_(resolve_target(path, who)), who_(who) {
  const int fd = make_temp(path_, target_, who_, temp_);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    std::remove(temp_.c_str());
    refuse(who_, path_, std::strerror(errno));
  }
}

output_file::~output_file() {
  if (file_) {
    std::fclose(file_);
    std::remove(temp_.c_str());
  }
}

void output_file::write(const std::string& bytes) {
  if (!bytes.empty()) std::fwrite(bytes.data(), 1, bytes.size(), file_);
}

void output_file::fail(const std::string& what) {
  std::remove(temp_.c_str());
  refuse(who_, path_, what);
}

void output_file::commit() {
  if (!file_) fail("the file was already closed");
  errno = 0;
  const bool flushed = std::fflush(file_) == 0;
  const int flush_errno = errno;
  const bool wrote = flushed && std::ferror(file_) == 0;
  const bool closed = std::fclose(file_) == 0;
  const int close_errno = errno;
  file_ = nullptr;
  if (!flushed) fail(std::string("writing failed: ") + std::strerror(flush_errno));
  if (!wrote) fail("writing failed");
  if (!closed) fail(std::string("closing failed: ") + std::strerror(close_errno));
  struct stat st {};
  if (::lstat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    fail("it became something other than a regular file while being written; left as it is");
  if (std::rename(temp_.c_str(), target_.c_str()) != 0)
    fail(std::string("renaming the finished file into place failed: ") + std::strerror(errno));
}

void write_file(const std::string& path, const std::string& bytes, const std::string& who) {
  output_file f(path, who);
  f.write(bytes);
  f.commit();
}

}  // namespace parprim::apps
