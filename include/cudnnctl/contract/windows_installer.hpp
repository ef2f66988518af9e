#pragma once
// The folders NVIDIA's Windows cuDNN 9 installer (the exe of NVIDIA's Windows installation guide) writes:
// <ProgramFiles>\NVIDIA\CUDNN\v9.<minor>\bin\<cuda>\ (from 9.18 one machine folder deeper, bin\<cuda>\x64\),
// one CUDA folder per CUDA major the user picked, side by side; it adds ...\v9.<minor>\bin to PATH, a folder
// without DLLs, and never writes into CUDA_PATH (docs/owners.md). Pure: names only, no I/O.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

/// The installer's folder below %ProgramFiles%, as Windows writes it.
inline constexpr std::string_view k_windows_installer_folder = "NVIDIA\\CUDNN";

/// A release folder's name: "v9.1" -> "9.1", "V9.19" -> "9.19"; nullopt for anything else.
std::optional<std::string> installer_release_folder(std::string_view name);

/// A CUDA folder's name under bin: "12.4" -> true; "x64", "12", "12.4.1", "" -> false.
bool installer_cuda_folder(std::string_view name);

/// Of the CUDA folders (their names, "11.8", "12.4", "13.0"), the one whose DLLs fit a toolkit of CUDA
/// `toolkit_version` ("12.4", "12.4.1"): the same CUDA major (cuDNN built for CUDA X.y runs on every X.z
/// toolkit), the toolkit's own minor first, then the newest minor not newer than the toolkit's, then the
/// oldest newer one. nullopt when none has the toolkit's major or the version is unreadable.
std::optional<std::size_t> fitting_cuda_folder(const std::vector<std::string>& cuda_folders, std::string_view toolkit_version);

}  // namespace cudnnctl
