// The Windows command line cudnnctl builds for CreateProcessW (trace, the doctor's child): each argument
// comes back whole from the C runtime's splitting. The same cases run under wine through CommandLineToArgvW
// (tests/windows/windows_test.cpp).
#include <catch2/catch.hpp>

#include "cudnnctl/platform/windows_command_line.hpp"

using namespace cudnnctl::platform;

TEST_CASE("windows quoting: plain arguments stay as they are", "[windows_command_line]") {
  CHECK(quote_windows_argument("load:cudnn64_9.dll") == "load:cudnn64_9.dll");
  CHECK(quote_windows_argument(R"(C:\tools\bin\)") == R"(C:\tools\bin\)");  // no quotes around it: backslashes are literal
  CHECK(windows_command_line({"probe.exe", "7", "a"}) == "probe.exe 7 a");
}

TEST_CASE("windows quoting: spaces, tabs and empty arguments are quoted", "[windows_command_line]") {
  CHECK(quote_windows_argument("two words") == "\"two words\"");
  CHECK(quote_windows_argument("tab\there") == "\"tab\there\"");
  CHECK(quote_windows_argument("") == "\"\"");
  CHECK(windows_command_line({"p", "", "x y"}) == "p \"\" \"x y\"");
}

TEST_CASE("windows quoting: quotes are escaped and backslashes before a quote doubled", "[windows_command_line]") {
  CHECK(quote_windows_argument(R"(say "hi")") == R"("say \"hi\"")");
  CHECK(quote_windows_argument(R"(a\"b)") == R"("a\\\"b")");        // one backslash then a quote: 3 backslashes
  CHECK(quote_windows_argument(R"(C:\my dir\)") == R"("C:\my dir\\")");  // a trailing backslash before the closing quote
  CHECK(quote_windows_argument(R"(a\\b c)") == R"("a\\b c")");       // backslashes not before a quote: as they are
  CHECK(quote_windows_argument("\"") == R"("\"")");
}

TEST_CASE("windows quoting: the program name is quoted without escapes", "[windows_command_line]") {
  CHECK(quote_windows_program(R"(C:\Program Files\app\app.exe)") == R"("C:\Program Files\app\app.exe")");
  CHECK(quote_windows_program(R"(C:\tools\app.exe)") == R"(C:\tools\app.exe)");
  CHECK(quote_windows_program(R"(C:\dir with space\)") == R"("C:\dir with space\")");  // no doubling: argv[0] has no escapes
  CHECK(windows_command_line({R"(C:\a b\p.exe)", R"(x\")"}) == R"("C:\a b\p.exe" "x\\\"")");
}
