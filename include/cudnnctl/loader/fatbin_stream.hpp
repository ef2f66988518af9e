#pragma once
// The GPU code of a library read in one forward pass over its bytes (an archive member being decompressed),
// where the fat-binary reader's random access is not available: an ELF file names its `.nv_fatbin`
// section in the section table at its end, after the fat binaries themselves.
//
// The scanner looks for fat-binary containers in the byte stream (the 8 bytes of a container header that
// do not vary: magic 0xBA55ED50, version 1, header size 16), reads each container's entry headers with the
// fat-binary reader's rules and skips their payloads. It keeps only the first 64 KiB of the file (the ELF
// header; a PE file's section table) and the bytes just before and in the ELF section table (where the
// section-name table lies in what GNU ld and NVIDIA write). At the end it finds the section the way
// read_gpu_code does and keeps the containers inside it, which must tile the section exactly as the random-
// access reader walks it (back to back from its start, then at most 64 KiB of zeros): a section the
// scanner could not walk completely is an error, never a shorter answer. Memory: about 2 MiB of buffers, the
// section table (at most 4 MiB kept) and one record per entry (capped as in fatbin_reader.hpp).
#include <cstdint>
#include <memory>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"

namespace cudnnctl {

class FatbinStreamScanner {
 public:
  /// `what` names the file in errors.
  explicit FatbinStreamScanner(std::string what);
  ~FatbinStreamScanner();
  FatbinStreamScanner(const FatbinStreamScanner&) = delete;
  FatbinStreamScanner& operator=(const FatbinStreamScanner&) = delete;

  /// The next `n` bytes of the file, in order (any chunking).
  void feed(const char* data, std::size_t n);
  /// After the last byte: what read_gpu_code would say of the whole file.
  Result<GpuCode> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace cudnnctl
