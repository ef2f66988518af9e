#include <catch2/catch.hpp>

#include "cudnnctl/base/strings.hpp"

using namespace cudnnctl;

TEST_CASE("parse_decimal refuses signs, leading zeros and overflow", "[strings]") {
  CHECK(parse_decimal("0") == 0u);
  CHECK(parse_decimal("70") == 70u);
  CHECK_FALSE(parse_decimal("07"));
  CHECK_FALSE(parse_decimal("-1"));
  CHECK_FALSE(parse_decimal("+1"));
  CHECK_FALSE(parse_decimal(""));
  CHECK_FALSE(parse_decimal("123", 2));
  CHECK_FALSE(parse_decimal("99999999999", 11));
  CHECK(parse_decimal("4294967295", 10) == 4294967295u);
}

TEST_CASE("with_backslashes writes a path as Windows does", "[strings]") {
  CHECK(with_backslashes(".cudnnctl/backup-1") == ".cudnnctl\\backup-1");
  CHECK(with_backslashes("C:/CUDA/v13.0/bin/x64") == "C:\\CUDA\\v13.0\\bin\\x64");
  CHECK(with_backslashes("C:\\already") == "C:\\already");
}

TEST_CASE("base_name splits on both separators", "[strings]") {
  CHECK(base_name("C:\\Users\\me\\Downloads\\a.zip") == "a.zip");
  CHECK(base_name("/tmp/x/b.tar.xz") == "b.tar.xz");
  CHECK(base_name("mixed/dir\\c.zip") == "c.zip");
  CHECK(base_name("plain.zip") == "plain.zip");
  CHECK(base_name("dir/") == "");
}

TEST_CASE("decode_utf8 rejects overlong, surrogate and truncated forms", "[strings]") {
  CHECK(decode_utf8("\xE2\x80\x90") == std::pair<char32_t, std::size_t>{0x2010, 3});
  CHECK(decode_utf8("\xC0\xAF").first == 0xFFFD);       // overlong '/'
  CHECK(decode_utf8("\xED\xA0\x80").first == 0xFFFD);   // surrogate
  CHECK(decode_utf8("\xE2\x80").first == 0xFFFD);       // truncated
  CHECK(decode_utf8("\xF4\x90\x80\x80").first == 0xFFFD);  // past U+10FFFF
  CHECK(decode_utf8("a") == std::pair<char32_t, std::size_t>{'a', 1});
}

TEST_CASE("sha256 hex and sizes", "[strings]") {
  CHECK(is_sha256_hex(std::string(64, 'a')));
  CHECK(is_sha256_hex(std::string(64, 'F')));
  CHECK_FALSE(is_sha256_hex(std::string(63, 'a')));
  CHECK_FALSE(is_sha256_hex(std::string(63, 'a') + "g"));
  const unsigned char bytes[] = {0x00, 0xab, 0xff};
  CHECK(to_hex(bytes, 3) == "00abff");
  CHECK(human_size(669629858) == "669629858 bytes (638.61 MiB)");
  CHECK(human_size(10) == "10 bytes");
}

TEST_CASE("terminal_safe: control bytes and invalid UTF-8 become an escaped hex pair, text stays", "[strings]") {
  CHECK(terminal_safe("plain text\nnext\tline") == "plain text\nnext\tline");
  CHECK(terminal_safe("\xe6\x88\x91 cuDNN") == "\xe6\x88\x91 cuDNN");  // valid UTF-8 kept
  CHECK(terminal_safe("a\x1b[2Jb") == "a\\x1b[2Jb");
  CHECK(terminal_safe("bell\x07") == "bell\\x07");
  CHECK(terminal_safe("\x7f") == "\\x7f");
  CHECK(terminal_safe("lat\xe9in") == "lat\\xe9in");          // Latin-1, not UTF-8
  CHECK(terminal_safe("\xc2\x9b" "31m") == "\\xc2\\x9b31m");   // C1 CSI, even when well-formed
  CHECK(terminal_safe("\r") == "\\x0d");
}

TEST_CASE("incomplete_utf8_tail: a sequence cut at the end is held back", "[strings]") {
  CHECK(incomplete_utf8_tail("abc") == 0);
  CHECK(incomplete_utf8_tail("ab\xe6") == 1);
  CHECK(incomplete_utf8_tail("ab\xe6\x88") == 2);
  CHECK(incomplete_utf8_tail("ab\xe6\x88\x91") == 0);
  CHECK(incomplete_utf8_tail("\xff") == 0);
}

TEST_CASE("parse_uint: digits that fit 32 bits, never a throw on anything else", "[strings]") {
  CHECK(parse_uint("0") == 0u);
  CHECK(parse_uint("009") == 9u);
  CHECK(parse_uint("4294967295") == 4294967295u);
  CHECK_FALSE(parse_uint("4294967296").has_value());
  CHECK_FALSE(parse_uint("99999999999999999999").has_value());  // the name of the hostile review's N6 library
  CHECK_FALSE(parse_uint("").has_value());
  CHECK_FALSE(parse_uint("-1").has_value());
  CHECK_FALSE(parse_uint("12a").has_value());
  CHECK(parse_uint_or("99999999999999999999", 0) == 0u);
}

TEST_CASE("html_escape: the five characters that end text or an attribute, nothing else", "[strings]") {
  CHECK(html_escape("a<b>&\"c'd") == "a&lt;b&gt;&amp;&quot;c&#39;d");
  CHECK(html_escape("plain /path é") == "plain /path é");
  CHECK(html_escape("&amp;") == "&amp;amp;");  // escaped again: the input is text, not HTML
  CHECK(html_escape("").empty());
}
