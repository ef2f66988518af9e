#pragma once
// Private to install: the toolkit's state folder (.cudnnctl) as install and uninstall both meet it. The toolkit
// is resolved through links, its layout must stay inside its root, a lock keeps two runs off it, an interrupted
// run is finished or rolled back first, and the receipt is read whole or refused.
#include <optional>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/install/install_fs.hpp"
#include "cudnnctl/install/receipt.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

// The lock on a toolkit's state folder, held while it lives, and what the start-up recovery did ("" if nothing).
struct LockedState {
  platform::FileLock lock;
  std::string recovered;
};

// The toolkit with its root resolved through links (/usr/local/cuda -> cuda-13.0, a linked parent): the
// state folder and every journal path are built from it, and the extraction below it follows no link.
Toolkit resolved_toolkit(const Toolkit& t);

// The folders the toolkit's layout names stay inside its root, and its state folder is a real folder.
Result<void> check_toolkit_layout(const Toolkit& t, const InstallFs& fs);

// Creates the state folder, takes the lock and finishes or rolls back an interrupted run.
Result<LockedState> lock_and_recover(const Toolkit& t, InstallFs& fs);

// The receipt, if there is one. One that cannot be read or parsed, or that names paths outside the
// toolkit, is an error: ignoring it or carrying it forward would lose track of what is installed.
Result<std::optional<Receipt>> read_receipt(const std::string& state, const InstallFs& fs, const std::string& root);

// Removes the state folder again when a run leaves nothing in it but its lock (a refused or failed
// install writes nothing that stays).
void drop_empty_state(const std::string& state, InstallFs& fs);

} // namespace cudnnctl
