// Where the doctor's bundle search looks on Windows (bundle/windows_python_places.hpp): Windows' own places,
// read through a PythonDisk that holds a Windows machine's folders by their Windows names.
#include <catch2/catch.hpp>

#include <cctype>
#include <map>
#include <set>

#include "cudnnctl/bundle/windows_python_places.hpp"

using namespace cudnnctl;

namespace {

using Dirs = std::map<std::string, std::vector<std::string>>;

std::string folded_name(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Folders by their Windows names, case ignored as Windows does: each listed folder's entries; is_dir for those
// and every entry listed.
class WindowsFolders final : public PythonDisk {
 public:
  explicit WindowsFolders(const Dirs& dirs) {
    for (const auto& [d, names] : dirs) {
      m_dirs[folded_name(d)] = names;
      m_all.insert(folded_name(d));
      for (const auto& n : names) m_all.insert(folded_name(d + "\\" + n));
    }
  }
  bool exists(const std::string& p) override { return m_all.count(folded_name(p)) > 0; }
  bool is_dir(const std::string& p) override { return m_all.count(folded_name(p)) > 0; }
  std::optional<std::string> read_text(const std::string&) override { return std::nullopt; }
  std::vector<std::string> list_dir(const std::string& d) override {
    const auto it = m_dirs.find(folded_name(d));
    return it == m_dirs.end() ? std::vector<std::string>{} : it->second;
  }
  std::string real_path(const std::string& p) override { return p; }

 private:
  std::map<std::string, std::vector<std::string>> m_dirs;
  std::set<std::string> m_all;
};

const platform::MapEnvironment python_places_vars(std::map<std::string, std::string>{{"LOCALAPPDATA", "C:\\Users\\ana\\AppData\\Local"},
                                                                                     {"APPDATA", "C:\\Users\\ana\\AppData\\Roaming\\"},
                                                                                     {"ProgramFiles", "C:\\Program Files"},
                                                                                     {"USERPROFILE", "C:\\Users\\ana"},
                                                                                     {"ProgramData", "C:\\ProgramData"},
                                                                                     {"HOME", "/home/ana"}});

}  // namespace

TEST_CASE("Windows: the bundle search looks where Windows keeps Pythons, never in Linux prefixes", "[windows_python_places]") {
  WindowsFolders disk(Dirs{
      {"C:\\Users\\ana\\AppData\\Local\\Programs\\Python", {"Python311", "Python312", "Launcher"}},
      {"C:\\Users\\ana\\AppData\\Local\\Programs\\Python\\Python311\\Lib", {"site-packages"}},
      {"C:\\Users\\ana\\AppData\\Local\\Programs\\Python\\Python312\\Lib", {"site-packages"}},
      {"C:\\Program Files", {"Python310", "NVIDIA"}},
      {"C:\\Program Files\\Python310\\Lib", {"site-packages"}},
      {"C:\\Users\\ana\\miniconda3\\Lib", {"site-packages"}},
      {"C:\\Users\\ana\\miniconda3\\envs", {"torch"}},
      {"C:\\Users\\ana\\miniconda3\\envs\\torch\\Lib", {"site-packages"}},
      {"C:\\ProgramData\\anaconda3\\Lib", {"site-packages"}},
      {"C:\\Users\\ana\\AppData\\Roaming\\Python", {"Python311"}},
      {"C:\\Users\\ana\\AppData\\Roaming\\Python\\Python311", {"site-packages"}},
      {"D:\\Py\\Lib", {"site-packages"}},
      {"/usr/local/lib/python3.11", {"dist-packages"}},
  });
  // PEP 514's entries: one of them the same per-user install again, in another case
  const auto sites = windows_python_sites(python_places_vars, {"D:\\Py", "c:\\users\\ana\\appdata\\local\\programs\\python\\python311"}, disk);
  const std::vector<std::string> want{
      "D:\\Py\\Lib\\site-packages",
      "c:\\users\\ana\\appdata\\local\\programs\\python\\python311\\Lib\\site-packages",
      "C:\\Users\\ana\\AppData\\Local\\Programs\\Python\\Python312\\Lib\\site-packages",
      "C:\\Program Files\\Python310\\Lib\\site-packages",
      "C:\\Users\\ana\\miniconda3\\Lib\\site-packages",
      "C:\\Users\\ana\\miniconda3\\envs\\torch\\Lib\\site-packages",
      "C:\\ProgramData\\anaconda3\\Lib\\site-packages",
      "C:\\Users\\ana\\AppData\\Roaming\\Python\\Python311\\site-packages",
  };
  CHECK(sites == want);
}

TEST_CASE("Windows: no variables, no places", "[windows_python_places]") {
  WindowsFolders disk(Dirs{{"/usr/lib/python3", {"dist-packages"}}});
  CHECK(windows_python_sites(platform::MapEnvironment(std::map<std::string, std::string>{}), {}, disk).empty());
}
