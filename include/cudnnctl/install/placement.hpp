#pragma once
// What an install will leave behind, decided from its plan before anything moves: the receipt (every file
// placed, with its CRC-32, and every file it moved aside) and the journal of moves that puts the staged
// files into the toolkit, the files they replace moving to the backup folder first. Pure: no disk.
#include <cstdint>
#include <map>
#include <string>

#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/install/install_plan.hpp"
#include "cudnnctl/install/receipt.hpp"
#include "cudnnctl/install/transaction.hpp"

namespace cudnnctl {

struct PlacementInput {
  const InstallPlan& plan;
  const ArchiveName& name;
  const Toolkit& toolkit;                                   // root resolved through links
  std::string id;                                           // this run's id (staging, backup folder)
  std::string staging;                                      // where the archive was extracted
  std::string archive_file;                                 // the archive's file name as given
  std::string sha256;                                       // the archive's, as verified
  std::string verified_by;                                  // the origin of the matching hash
  std::string installed_at;                                 // UTC time stamp
  const std::map<std::string, std::uint32_t>& member_crc32; // member name -> CRC-32 of its bytes
};

struct Placement {
  Receipt receipt;
  Journal journal;             // the receipt's own moves are added by the caller (it is written to disk first)
  std::string backup_relative; // <root>/<this> keeps what the install replaced
};

Placement make_placement(const PlacementInput& in);

} // namespace cudnnctl
