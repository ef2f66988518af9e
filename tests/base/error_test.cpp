#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "cudnnctl/base/command_status.hpp"
#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/error_table.hpp"

using namespace cudnnctl;

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
} // namespace

TEST_CASE("every error id and exit code is documented in docs/exit-codes.md", "[error]") {
  const auto doc = read_file(std::string(CUDNNCTL_SOURCE_DIR) + "/docs/exit-codes.md");
  REQUIRE_FALSE(doc.empty());
  std::set<std::string_view> ids;
  for (int i = 0; i <= static_cast<int>(k_last_error_code); ++i) {
    const auto code = static_cast<ErrorCode>(i);
    const auto id = error_id(code);
    INFO("error id " << id);
    CHECK(ids.insert(id).second);  // ids are unique
    CHECK(doc.find("`" + std::string(id) + "`") != std::string::npos);
    const auto exit = to_int(exit_code_for(code));
    CHECK(doc.find("| " + std::to_string(exit) + " |") != std::string::npos);
  }
}

TEST_CASE("the exit-code table: every error has a unique id, a meaning and a documented exit", "[error]") {
  std::set<std::string_view> ids;
  std::set<int> exits;
  int previous = -1;
  for (const auto& row : exit_rows()) {
    INFO("exit " << to_int(row.code) << " " << row.name);
    CHECK(to_int(row.code) > previous);  // ascending, each once
    previous = to_int(row.code);
    CHECK_FALSE(row.name.empty());
    CHECK_FALSE(row.summary.empty());
    CHECK_FALSE(row.meaning.empty());
    exits.insert(to_int(row.code));
  }
  REQUIRE(static_cast<int>(error_codes().size()) == static_cast<int>(k_last_error_code) + 1);
  for (int i = 0; i <= static_cast<int>(k_last_error_code); ++i) {
    const auto code = static_cast<ErrorCode>(i);
    CHECK(error_codes()[static_cast<std::size_t>(i)] == code);
    const auto id = error_id(code);
    INFO("error id " << id);
    CHECK_FALSE(id.empty());
    CHECK(ids.insert(id).second);
    CHECK_FALSE(error_meaning(code).empty());
    const int exit = to_int(exit_code_for(code));
    CHECK(exits.contains(exit));
    CHECK(exit != 0);
  }
  // an id is a lower-case word, or words joined by '.' and '-'
  for (const auto id : ids)
    for (const char c : id) CHECK(((c >= 'a' && c <= 'z') || c == '.' || c == '-'));
}

TEST_CASE("a command's status is a documented exit or a child's own status, typed apart", "[error]") {
  constexpr CommandStatus ok = ExitCode::ok;
  STATIC_REQUIRE(ok.exit() == 0);
  STATIC_REQUIRE_FALSE(ok.from_child());
  constexpr CommandStatus found = ExitCode::problems_found;
  STATIC_REQUIRE(found.exit() == 10);
  constexpr CommandStatus child = ChildExit{137};
  STATIC_REQUIRE(child.exit() == 137);
  STATIC_REQUIRE(child.from_child());
  // a child's status that happens to equal a table row is still the child's
  STATIC_REQUIRE(CommandStatus(ChildExit{14}).from_child());
}

TEST_CASE("errors carry code, message, hint and path", "[error]") {
  Result<int> r = fail(ErrorCode::hash_mismatch, "bad", "fix it", "a.zip");
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::hash_mismatch);
  CHECK(r.error().hint == "fix it");
  CHECK(r.error().path == "a.zip");
  CHECK(exit_code_for(r.error().code) == ExitCode::verification_failed);
  CHECK(exit_code_for(ErrorCode::name_malformed) == ExitCode::unrecognised_name);
  CHECK(exit_code_for(ErrorCode::usage) == ExitCode::usage);
}

namespace {
Result<int> number(bool ok) {
  if (!ok) return fail(ErrorCode::input_invalid, "not a number", "give one", "n.txt");
  return 42;
}
Result<void> checked(bool ok) {
  if (!ok) return fail(ErrorCode::usage, "bad usage");
  return {};
}
Result<std::string> twice(bool number_ok, bool check_ok, int& reached) {
  CUDNNCTL_TRY_ASSIGN(const int n, number(number_ok));
  reached = 1;
  CUDNNCTL_TRY(checked(check_ok));
  reached = 2;
  return std::to_string(n * 2);
}
} // namespace

TEST_CASE("CUDNNCTL_TRY and CUDNNCTL_TRY_ASSIGN return the first error unchanged, or go on with the value", "[error]") {
  int reached = 0;
  const auto ok = twice(true, true, reached);
  REQUIRE(ok);
  CHECK(*ok == "84");
  CHECK(reached == 2);

  reached = 0;
  const auto bad_number = twice(false, true, reached);
  REQUIRE_FALSE(bad_number);
  CHECK(reached == 0);
  CHECK(bad_number.error().code == ErrorCode::input_invalid);
  CHECK(bad_number.error().hint == "give one");
  CHECK(bad_number.error().path == "n.txt");

  const auto bad_check = twice(true, false, reached);
  REQUIRE_FALSE(bad_check);
  CHECK(reached == 1);
  CHECK(bad_check.error().code == ErrorCode::usage);
}
