#pragma once
// The dynamic loader's error kinds on Linux (ld.so/dlopen) and Windows (LoadLibrary, Python's os.add_dll_directory
// and ctypes) as users paste them, and what each says about the file it names.
#include <optional>
#include <string>
#include <string_view>

namespace cudnnctl {

enum class LoaderErrorKind {
  not_found,          // cannot open shared object file, Could not locate, WinError 126 without "dependencies", ...
  dependency_missing, // Windows 126 naming the DLL's own path: the file is there, a DLL it imports is not
  undefined_symbol,   // undefined symbol / symbol ... not defined in file / WinError 127: the copy found lacks an export
  wrong_class,        // wrong ELF class / wrong machine / WinError 193: a 32-bit or other-machine copy is found first
  glibc_version,      // version `GLIBC_2.x' / `GLIBCXX_3.4.x' not found: built on a newer system
  invalid_handle,     // "Invalid handle. Cannot load symbol X": a use after a failed load (a consequence)
  paging_file,        // WinError 1455: the paging file is too small to map the DLLs
};

struct LoaderError {
  LoaderErrorKind kind = LoaderErrorKind::not_found;
  std::string symbol;        // the symbol missing (undefined_symbol, invalid_handle)
  std::string symbol_owner;  // the library that should define it ("version libcudnn_ops_infer.so.8"), may be empty
  std::string failing_file;  // the file whose load failed on the symbol (its path as written), may be empty
  std::string meaning() const;  // what this kind says about the file named
};

std::optional<LoaderError> loader_error_in(std::string_view line);

} // namespace cudnnctl
