#include "cudnnctl/platform/files.hpp"

#include <windows.h>

#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "wide.hpp"

namespace cudnnctl::platform {

std::FILE* open_stdio_file(const std::string& path, const char* mode) {
  return _wfopen(win::long_path(path).c_str(), win::widen(mode).c_str());
}

namespace {
Unexpected<Error> io_error(const std::string& what, const std::string& path, DWORD e) {
  std::string hint;
  if (e == ERROR_ACCESS_DENIED) hint = "access denied: run from an elevated prompt (Run as administrator), or choose a folder you own";
  else if (e == ERROR_DISK_FULL || e == ERROR_HANDLE_DISK_FULL) hint = "the disk is full: free space or choose another folder";
  else if (e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS) hint = "something already has this name; the target must be empty";
  return fail(e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? ErrorCode::file_not_found : ErrorCode::io,
              fmt::format("{} '{}': {}", what, path, win::error_text(e)), hint, path);
}
} // namespace

Result<NewFile> NewFile::create(const std::string& path, std::uint32_t) {
  HANDLE h = CreateFileW(win::long_path(path).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT,
                         nullptr);
  if (h == INVALID_HANDLE_VALUE) return io_error("cannot create", path, GetLastError());
  return NewFile(path, reinterpret_cast<std::intptr_t>(h));
}

NewFile::NewFile(NewFile&& other) noexcept
    : m_path(std::move(other.m_path)), m_handle(other.m_handle), m_written(other.m_written), m_submitted(other.m_submitted) {
  other.m_handle = -1;
}

NewFile::~NewFile() {
  if (m_handle != -1) CloseHandle(reinterpret_cast<HANDLE>(m_handle));
}

Result<void> NewFile::write(const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(n, 1u << 30));
    DWORD written = 0;
    if (!WriteFile(reinterpret_cast<HANDLE>(m_handle), p, chunk, &written, nullptr)) return io_error("cannot write", m_path, GetLastError());
    p += written;
    n -= written;
    m_written += written;
  }
  return {};
}

// Windows has no "start writing, do not wait" call for one file (FlushFileBuffers waits): the later
// flush_to_disk does all of it.
void NewFile::start_writeback() { m_submitted = m_written; }

Result<void> NewFile::close() {
  const auto h = reinterpret_cast<HANDLE>(m_handle);
  m_handle = -1;
  if (h != reinterpret_cast<HANDLE>(-1) && !CloseHandle(h)) return io_error("cannot close", m_path, GetLastError());
  return {};
}

Result<PositionalFile> PositionalFile::open(const std::string& path) {
  HANDLE h = CreateFileW(win::long_path(path).c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) return io_error("cannot open for writing", path, GetLastError());
  return PositionalFile(path, reinterpret_cast<std::intptr_t>(h));
}

PositionalFile::PositionalFile(PositionalFile&& other) noexcept : m_path(std::move(other.m_path)), m_handle(other.m_handle) {
  other.m_handle = -1;
}

PositionalFile::~PositionalFile() {
  if (m_handle != -1) CloseHandle(reinterpret_cast<HANDLE>(m_handle));
}

Result<void> PositionalFile::write_at(std::uint64_t offset, const void* data, std::size_t n) const {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    OVERLAPPED ov{};
    ov.Offset = static_cast<DWORD>(offset & 0xFFFFFFFFu);
    ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
    DWORD wrote = 0;
    if (!WriteFile(reinterpret_cast<HANDLE>(m_handle), p, static_cast<DWORD>(std::min<std::size_t>(n, 1u << 30)), &wrote, &ov))
      return io_error("cannot write", m_path, GetLastError());
    p += wrote;
    n -= wrote;
    offset += wrote;
  }
  return {};
}

std::int64_t PositionalFile::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  OVERLAPPED ov{};
  ov.Offset = static_cast<DWORD>(offset & 0xFFFFFFFFu);
  ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
  DWORD got = 0;
  if (!ReadFile(reinterpret_cast<HANDLE>(m_handle), buffer, static_cast<DWORD>(std::min<std::size_t>(n, 1u << 30)), &got, &ov))
    return GetLastError() == ERROR_HANDLE_EOF ? 0 : -1;
  return got;
}

Result<void> PositionalFile::resize(std::uint64_t size) const {
  FILE_END_OF_FILE_INFO eof{};
  eof.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
  if (!SetFileInformationByHandle(reinterpret_cast<HANDLE>(m_handle), FileEndOfFileInfo, &eof, sizeof eof))
    return io_error("cannot set the size of", m_path, GetLastError());
  return {};
}

Result<void> PositionalFile::close() {
  const auto h = m_handle;
  m_handle = -1;
  if (h != -1 && !CloseHandle(reinterpret_cast<HANDLE>(h))) return io_error("cannot close", m_path, GetLastError());
  return {};
}

Result<ReadOnlyFile> ReadOnlyFile::open(const std::string& path) { return open_sharing(path, false); }

Result<ReadOnlyFile> ReadOnlyFile::open_while_written(const std::string& path) { return open_sharing(path, true); }

Result<ReadOnlyFile> ReadOnlyFile::open_sharing(const std::string& path, bool with_writers) {
  const DWORD share = FILE_SHARE_READ | FILE_SHARE_DELETE | (with_writers ? FILE_SHARE_WRITE : 0);
  HANDLE h = CreateFileW(win::long_path(path).c_str(), GENERIC_READ, share, nullptr, OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_SEQUENTIAL_SCAN, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    const DWORD e = GetLastError();
    log::debug("open for reading {}: {}", path, win::error_text(e));
    return io_error("cannot open", path, e);
  }
  LARGE_INTEGER size{};
  GetFileSizeEx(h, &size);
  log::debug("open for reading {}: {} bytes", path, size.QuadPart);
  return ReadOnlyFile(reinterpret_cast<std::intptr_t>(h), static_cast<std::uint64_t>(size.QuadPart));
}

ReadOnlyFile::ReadOnlyFile(ReadOnlyFile&& other) noexcept : m_handle(other.m_handle), m_size(other.m_size) { other.m_handle = -1; }

ReadOnlyFile::~ReadOnlyFile() {
  if (m_handle != -1) CloseHandle(reinterpret_cast<HANDLE>(m_handle));
}

std::int64_t ReadOnlyFile::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  OVERLAPPED ov{};
  ov.Offset = static_cast<DWORD>(offset & 0xFFFFFFFFu);
  ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
  DWORD got = 0;
  if (!ReadFile(reinterpret_cast<HANDLE>(m_handle), buffer, static_cast<DWORD>(std::min<std::size_t>(n, 1u << 30)), &got, &ov)) {
    if (GetLastError() == ERROR_HANDLE_EOF) return 0;
    return -1;
  }
  return got;
}

Result<void> make_directories(const std::string& path) {
  std::string partial;
  std::string p = path;
  for (auto& c : p)
    if (c == '\\') c = '/';
  std::size_t pos = 0;
  while (pos <= p.size()) {
    const auto next = p.find('/', pos);
    partial = p.substr(0, next == std::string::npos ? p.size() : next);
    pos = next == std::string::npos ? p.size() + 1 : next + 1;
    if (partial.empty() || (partial.size() == 2 && partial[1] == ':')) continue;
    const DWORD attrs = GetFileAttributesW(win::long_path(partial).c_str());
    if (attrs != INVALID_FILE_ATTRIBUTES) {
      if (!(attrs & FILE_ATTRIBUTE_DIRECTORY) || (attrs & FILE_ATTRIBUTE_REPARSE_POINT))
        return io_error("not a folder:", partial, ERROR_DIRECTORY);
      continue;
    }
    if (!CreateDirectoryW(win::long_path(partial).c_str(), nullptr) && GetLastError() != ERROR_ALREADY_EXISTS)
      return io_error("cannot create the folder", partial, GetLastError());
  }
  return {};
}

Result<void> make_symlink(const std::string& target, const std::string& path) {
  std::wstring t = win::widen(target);
  for (auto& c : t)
    if (c == L'/') c = L'\\';
  if (!CreateSymbolicLinkW(win::long_path(path).c_str(), t.c_str(), SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE))
    return io_error("cannot create the symbolic link", path, GetLastError());
  return {};
}

Result<FileStamp> file_stamp(const std::string& path) {
  HANDLE h = CreateFileW(win::long_path(path).c_str(), FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                         OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) return io_error("cannot read", path, GetLastError());
  BY_HANDLE_FILE_INFORMATION info{};
  const bool ok = GetFileInformationByHandle(h, &info);
  const DWORD e = GetLastError();
  CloseHandle(h);
  if (!ok) return io_error("cannot read", path, e);
  const auto u64 = [](DWORD hi, DWORD lo) { return (static_cast<std::uint64_t>(hi) << 32) | lo; };
  // Windows keeps no change time a program cannot set: the file id and the volume stand in for it
  return FileStamp{u64(info.nFileSizeHigh, info.nFileSizeLow), u64(info.ftLastWriteTime.dwHighDateTime, info.ftLastWriteTime.dwLowDateTime),
                   info.dwVolumeSerialNumber, u64(info.nFileIndexHigh, info.nFileIndexLow)};
}

Result<std::uint64_t> file_size(const std::string& path) {
  WIN32_FILE_ATTRIBUTE_DATA data{};
  if (!GetFileAttributesExW(win::long_path(path).c_str(), GetFileExInfoStandard, &data)) {
    const DWORD e = GetLastError();
    if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
      return fail(ErrorCode::file_not_found, fmt::format("'{}' does not exist", path), "check the path of the archive", path);
    return io_error("cannot read", path, e);
  }
  if (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
    return fail(ErrorCode::io, fmt::format("'{}' is not a regular file", path), "give the path of the archive file", path);
  return (static_cast<std::uint64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow;
}

Result<std::string> convert_to_utf8(std::string_view bytes, const std::string& encoding) {
  std::string e;
  for (char c : encoding) e += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  UINT cp = 0;
  if (e.rfind("CP", 0) == 0) cp = static_cast<UINT>(std::strtoul(e.c_str() + 2, nullptr, 10));
  else if (e == "GBK" || e == "GB2312") cp = 936;
  else if (e == "SHIFT_JIS" || e == "SJIS") cp = 932;
  else if (e == "BIG5") cp = 950;
  else if (e == "EUC-KR") cp = 949;
  else if (e == "LATIN1" || e == "ISO-8859-1") cp = 28591;
  if (cp == 0 || !IsValidCodePage(cp))
    return fail(ErrorCode::usage, fmt::format("unknown name encoding '{}'", encoding), "use a Windows code page, e.g. CP437, CP936 (GBK), CP932");
  const int n = MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, bytes.data(), static_cast<int>(bytes.size()), nullptr, 0);
  if (n == 0 && !bytes.empty()) return fail(ErrorCode::archive_encoding, fmt::format("the bytes are not valid {}", encoding), "");
  std::wstring w(static_cast<std::size_t>(n), L'\0');
  MultiByteToWideChar(cp, 0, bytes.data(), static_cast<int>(bytes.size()), w.data(), n);
  return win::narrow(w);
}

Result<std::string> rename_aside(const std::string& path) {
  // a loaded DLL cannot be deleted or overwritten, but it can be renamed (the loader opened it with
  // FILE_SHARE_DELETE); the renamed file is deleted at the next reboot (needs an elevated prompt)
  const std::string aside = path + ".cudnnctl-old";
  if (!MoveFileExW(win::long_path(path).c_str(), win::long_path(aside).c_str(), MOVEFILE_WRITE_THROUGH))
    return io_error("cannot move aside", path, GetLastError());
  MoveFileExW(win::long_path(aside).c_str(), nullptr, MOVEFILE_DELAY_UNTIL_REBOOT);
  return aside;
}

namespace {
// Depth-first delete with \\?\ paths (std::filesystem stops at MAX_PATH with mingw); links are removed,
// never followed.
void remove_wide(const std::wstring& p) {
  const DWORD attrs = GetFileAttributesW(p.c_str());
  if (attrs == INVALID_FILE_ATTRIBUTES) return;
  if ((attrs & FILE_ATTRIBUTE_DIRECTORY) && !(attrs & FILE_ATTRIBUTE_REPARSE_POINT)) {
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW((p + L"\\*").c_str(), &fd);
    if (h != INVALID_HANDLE_VALUE) {
      do {
        const std::wstring n = fd.cFileName;
        if (n != L"." && n != L"..") remove_wide(p + L"\\" + n);
      } while (FindNextFileW(h, &fd));
      FindClose(h);
    }
    RemoveDirectoryW(p.c_str());
    return;
  }
  if (attrs & FILE_ATTRIBUTE_READONLY) SetFileAttributesW(p.c_str(), attrs & ~FILE_ATTRIBUTE_READONLY);
  if ((attrs & FILE_ATTRIBUTE_DIRECTORY)) RemoveDirectoryW(p.c_str());
  else DeleteFileW(p.c_str());
}
} // namespace

void remove_tree(const std::string& path) { remove_wide(win::long_path(path)); }

Result<FolderPlace> folder_place(const std::string& path) {
  wchar_t volume[MAX_PATH + 1] = {};
  if (!GetVolumePathNameW(win::long_path(path).c_str(), volume, MAX_PATH)) return io_error("cannot read", path, GetLastError());
  DWORD serial = 0;
  DWORD flags = 0;
  if (!GetVolumeInformationW(volume, nullptr, 0, &serial, nullptr, &flags, nullptr, 0)) return io_error("cannot read", path, GetLastError());
  return FolderPlace{serial, (flags & FILE_READ_ONLY_VOLUME) != 0};
}

Result<void> write_file_durably(const std::string& path, const std::string& content) {
  HANDLE h = CreateFileW(win::long_path(path).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS,
                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) return io_error("cannot write", path, GetLastError());
  const char* p = content.data();
  std::size_t n = content.size();
  while (n > 0) {
    DWORD written = 0;
    if (!WriteFile(h, p, static_cast<DWORD>(std::min<std::size_t>(n, 1u << 30)), &written, nullptr)) {
      const DWORD e = GetLastError();
      CloseHandle(h);
      return io_error("cannot write", path, e);
    }
    p += written;
    n -= written;
  }
  const bool flushed = FlushFileBuffers(h) != 0;
  const DWORD e = GetLastError();
  CloseHandle(h);
  if (!flushed) return io_error("cannot flush to disk", path, e);
  return {};
}

Result<void> flush_to_disk(const std::string& path) {
  // folders cannot be opened for FlushFileBuffers without backup rights; NTFS journals their entries
  const DWORD attrs = GetFileAttributesW(win::long_path(path).c_str());
  if (attrs == INVALID_FILE_ATTRIBUTES) return io_error("cannot flush to disk", path, GetLastError());
  if (attrs & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) return {};
  HANDLE h = CreateFileW(win::long_path(path).c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                         OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) return io_error("cannot flush to disk", path, GetLastError());
  const bool flushed = FlushFileBuffers(h) != 0;
  const DWORD e = GetLastError();
  CloseHandle(h);
  if (!flushed) return io_error("cannot flush to disk", path, e);
  return {};
}

} // namespace cudnnctl::platform
