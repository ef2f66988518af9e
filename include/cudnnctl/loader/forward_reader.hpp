#pragma once
// A ReadAt over data that can only be read forwards (an archive member being decompressed): it keeps the
// first `keep` bytes, so the ELF reader can go back to the headers near the start (the version tables),
// and skips forward to what lies further on (the dynamic section, the string table). A read that goes
// back past the kept prefix returns nothing (the ELF reader then reports the file as unreadable).
// 32 MB by default: the version tables follow .dynsym and .gnu.version, and in NVIDIA's
// libcudnn_cnn_infer.so.8 (8.9.6), whose .dynstr was moved to the end, they begin 8.1 MB in.
#include <cstdint>
#include <functional>
#include <memory>

#include "cudnnctl/loader/elf_reader.hpp"

namespace cudnnctl {

/// Pulls up to n bytes into buf; 0 at the end.
using ForwardPull = std::function<std::size_t(char* buf, std::size_t n)>;

ReadAt forward_reader(ForwardPull pull, std::size_t keep = std::size_t{32} << 20);

} // namespace cudnnctl
