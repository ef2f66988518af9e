#include <catch2/catch.hpp>

#include "cudnnctl/env/reg_export.hpp"

#include <filesystem>
#include <fstream>

using namespace cudnnctl;

namespace {
std::string utf16(const std::string& s) {
  std::string out = "\xFF\xFE";
  for (char c : s) out += c, out += '\0';
  return out;
}
} // namespace

TEST_CASE("registry exports: strings, expandable strings over continued lines, dwords", "[reg_export]") {
  // "C:\A;%X%\b" as REG_EXPAND_SZ: UTF-16LE bytes, wrapped as reg.exe wraps them
  const std::string text =
      "Windows Registry Editor Version 5.00\r\n\r\n"
      "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment]\r\n"
      "\"ComSpec\"=\"C:\\\\Windows\\\\system32\\\\cmd.exe\"\r\n"
      "\"Path\"=hex(2):43,00,3a,00,5c,00,41,00,3b,00,25,00,58,00,25,00,5c,00,\\\r\n"
      "  62,00,00,00\r\n"
      "\"NUMBER_OF_PROCESSORS\"=dword:00000010\r\n"
      "\"Quoted \\\"name\\\"\"=\"a \\\"b\\\"\"\r\n"
      "\r\n[HKEY_CURRENT_USER\\Environment]\r\n\"Path\"=\"D:\\\\user\"\r\n\"X\"=\"C:\\\\x\"\r\n";
  for (const auto& bytes : {utf16(text), text}) {
    const auto keys = parse_reg_export(bytes, "m.reg");
    REQUIRE(keys);
    REQUIRE(keys->size() == 2);
    const auto& v = (*keys)[0].values;
    REQUIRE(v.size() == 4);
    CHECK(v[0].type == "REG_SZ");
    CHECK(v[0].data == "C:\\Windows\\system32\\cmd.exe");
    CHECK(v[1].type == "REG_EXPAND_SZ");
    CHECK(v[1].data == "C:\\A;%X%\\b");
    CHECK(v[2].data == "16");
    CHECK(v[3].name == "Quoted \"name\"");
    CHECK(v[3].data == "a \"b\"");
    const auto env = environment_from_exports(*keys);
    CHECK(env.path == "C:\\A;%X%\\b;D:\\user");
    CHECK(env.vars.at("X") == "C:\\x");
    CHECK(env.sources.size() == 2);
  }
}

TEST_CASE("registry exports: what is not one is refused with the file named", "[reg_export]") {
  for (const std::string& bad : {std::string(), std::string("PATH=C:\\x\n"), std::string("Windows Registry Editor Version 5.00\n\"Path\"=\"x\"\n"),
                                std::string("Windows Registry Editor Version 5.00\n[HKCU\\Environment]\n\"Path\"=hex(2):zz,00\n"),
                                std::string("Windows Registry Editor Version 5.00\n[HKCU\\Environment\n")}) {
    const auto r = parse_reg_export(bad, "x.reg");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::input_invalid);
    CHECK(r.error().path == "x.reg");
    CHECK_THAT(r.error().hint, Catch::Contains("reg export"));
  }
}

TEST_CASE("registry exports: files are read, merged, and refused when no Environment key is in them", "[reg_export]") {
  const auto dir = std::filesystem::temp_directory_path() / "cudnnctl-reg-files";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  };
  const auto user = write("user.reg", "Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Environment]\r\n\"Path\"=\"C:\\\\tools\"\r\n");
  const auto other = write("other.reg", "Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\Software\\X]\r\n\"Path\"=\"C:\\\\x\"\r\n");
  const auto merged = read_environment_exports({user});
  REQUIRE(merged);
  CHECK(merged->path.find("C:\\tools") != std::string::npos);
  const auto none = read_environment_exports({other});
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::input_invalid);
  CHECK_THAT(none.error().message, Catch::Contains("other.reg") && Catch::Contains("neither the machine nor the user Environment key"));
  const auto missing = read_environment_exports({(dir / "nope.reg").string()});
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Catch::Contains("nope.reg"));
  const auto folder = read_environment_exports({dir.string()});  // a folder is refused by the input reader, named
  REQUIRE_FALSE(folder);
  std::filesystem::remove_all(dir);
}
