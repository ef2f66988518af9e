#include <catch2/catch.hpp>

#include "cudnnctl/platform/http.hpp"

using namespace cudnnctl::platform;

TEST_CASE("http head: Content-Range, validators, and a redirect's head forgotten", "[http_head]") {
  HttpHead h;
  take_http_header_line(h, "HTTP/1.1 302 Found\r\n");
  CHECK(h.status == 302);
  take_http_header_line(h, "ETag: \"old\"\r\n");
  take_http_header_line(h, "Content-Length: 0\r\n");
  take_http_header_line(h, "HTTP/1.1 206 Partial Content\r\n");  // the redirect's target answers
  CHECK(h.status == 206);
  CHECK(h.etag.empty());
  CHECK_FALSE(h.content_length);
  take_http_header_line(h, "content-range:   bytes 100-199/1000\r\n");
  take_http_header_line(h, "CONTENT-LENGTH: 100\r\n");
  take_http_header_line(h, "ETag: W/\"v2\"\r\n");
  take_http_header_line(h, "Last-Modified: Sat, 05 Dec 2026 10:00:00 GMT\r\n");
  take_http_header_line(h, "X-Other: ignored\r\n");
  take_http_header_line(h, "\r\n");
  CHECK(h.range_first == 100u);
  CHECK(h.range_last == 199u);
  CHECK(h.total == 1000u);
  CHECK(h.content_length == 100u);
  CHECK(h.etag == "W/\"v2\"");
  CHECK(h.last_modified == "Sat, 05 Dec 2026 10:00:00 GMT");
}

TEST_CASE("http head: malformed Content-Range values are refused", "[http_head]") {
  HttpHead h;
  CHECK(parse_content_range("bytes */500", h));
  CHECK(h.total == 500u);
  CHECK_FALSE(h.range_first);
  for (const char* bad : {"bytes 10-5/100", "bytes 0-100/100", "items 0-1/2", "bytes 0-1", "bytes a-b/3", "bytes 0-1/x", "bytes -1-2/5", "bytes */*"}) {
    HttpHead b;
    INFO(bad);
    CHECK_FALSE(parse_content_range(bad, b));
  }
  HttpHead open;
  CHECK(parse_content_range("bytes 0-4/*", open));
  CHECK_FALSE(open.total);
}

TEST_CASE("http head: the Range a request asks for", "[http_head]") {
  HttpGet g;
  CHECK(http_range_value(g).empty());
  g.resume_from = 10;
  CHECK(http_range_value(g) == "bytes=10-");
  g.range_last = 19;
  CHECK(http_range_value(g) == "bytes=10-19");
  g.resume_from = 0;
  CHECK(http_range_value(g) == "bytes=0-19");
}
