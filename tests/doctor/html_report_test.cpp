#include <catch2/catch.hpp>

#include "cudnnctl/doctor/doctor.hpp"

using namespace cudnnctl;

TEST_CASE("the HTML report: every check a row, causes and fixes, the search order drawn, text escaped", "[html_report]") {
  DoctorReport r;
  Toolkit t;
  t.root = "/opt/cuda<&>";
  t.version = "12.4";
  r.toolkit = t;
  r.checks = {{"toolkit.found", 1, CheckStatus::pass, "CUDA 12.4", "", ""},
              {"files.search_path", 2, CheckStatus::fail, "an <old> copy first", "the loader finds another copy first", "put the toolkit first"},
              {"driver.library", 4, CheckStatus::skip, "no driver", "", ""}};
  ShadowReport sh;
  sh.order = {{"/old/lib", "LD_LIBRARY_PATH"}, {"/opt/cuda/lib64", "ld.so cache"}, {"/usr/lib", "default folder"}};
  sh.copies = {{"/old/lib", "LD_LIBRARY_PATH", 9, "libcudnn.so.9", "9.0.0", true, false, "x86_64", false},
               {"/opt/cuda/lib64", "ld.so cache", 9, "libcudnn.so.9", "9.1.0", false, true, "x86_64", false}};
  r.search = sh;
  r.search_origin = "this process's environment";
  const auto html = doctor_html(r);
  CHECK(html.starts_with("<!DOCTYPE html>"));
  CHECK_THAT(html, Catch::Contains("/opt/cuda&lt;&amp;&gt;") && !Catch::Contains("/opt/cuda<&>"));
  CHECK_THAT(html, Catch::Contains("an &lt;old&gt; copy first"));
  CHECK_THAT(html, Catch::Contains("<tr class=\"check fail\" data-id=\"files.search_path\""));
  CHECK_THAT(html, Catch::Contains("<b>cause:</b> the loader finds another copy first") && Catch::Contains("<b>fix:</b> put the toolkit first"));
  CHECK_THAT(html, Catch::Contains("data-exit-code=\"10\""));
  CHECK_THAT(html, Catch::Contains("<g class=\"copy winner shadowing\" data-version=\"9.0.0\""));
  CHECK_THAT(html, Catch::Contains("<g class=\"copy installed\" data-version=\"9.1.0\""));
  CHECK_THAT(html, Catch::Contains("data-index=\"3\""));
  // self-contained: nothing fetched
  CHECK_THAT(html, !Catch::Contains("http://") || Catch::Contains("xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(html, !Catch::Contains("<script") && !Catch::Contains("<link") && !Catch::Contains("src="));
  r.search.reset();
  CHECK_THAT(doctor_html(r), Catch::Contains("id=\"no-search-order\""));
}
