#include <catch2/catch.hpp>

#include "cudnnctl/catalog/architecture_spans.hpp"

using namespace cudnnctl;

TEST_CASE("architecture spans: the built-in table parses, and every span carries its sources", "[architecture_spans]") {
  const auto& table = builtin_architecture_spans();
  REQUIRE(table.size() >= 2);
  for (const auto& s : table) {
    INFO(s.family);
    CHECK_FALSE(s.sources.empty());
    CHECK_FALSE(s.capabilities.empty());
  }
}

TEST_CASE("architecture spans: which releases and CUDA builds carry code for a GPU family", "[architecture_spans]") {
  // Maxwell/Pascal/Volta up to 9.10.2
  CHECK_FALSE(architecture_span_reason("9.10.2", "12", 6, 1));
  CHECK_FALSE(architecture_span_reason("9.1.0", "11", 5, 0));
  const auto pascal = architecture_span_reason("9.11.0", "12", 6, 1);
  REQUIRE(pascal);
  CHECK_THAT(*pascal, Catch::Contains("cuDNN 9.11.0 has no code for Maxwell, Pascal and Volta GPUs (compute 6.1)") && Catch::Contains("9.10.2"));
  CHECK(architecture_span_reason("9.19.0", "13", 7, 0));
  CHECK_FALSE(architecture_span_reason("9.19.0", "13", 7, 5));  // Turing: no span speaks of it
  // Blackwell from 9.7.0, CUDA 12 and 13 builds only
  const auto early = architecture_span_reason("9.5.1", "12", 12, 0);
  REQUIRE(early);
  CHECK_THAT(*early, Catch::Contains("predates Blackwell support (compute 12.0): it came with cuDNN 9.7.0"));
  const auto cuda11 = architecture_span_reason("9.10.2", "11", 10, 0);
  REQUIRE(cuda11);
  CHECK_THAT(*cuda11, Catch::Contains("the CUDA 11 build of cuDNN 9.10.2 has no Blackwell code"));
  CHECK_FALSE(architecture_span_reason("9.7.0", "12", 12, 0));
  CHECK_FALSE(architecture_span_reason("9.19.0", "13", 12, 1));  // a capability no span lists: nothing said
}

TEST_CASE("architecture spans: a table without sources, releases or capabilities is refused", "[architecture_spans]") {
  CHECK_FALSE(parse_architecture_spans("[]", "t.json"));
  CHECK_FALSE(parse_architecture_spans(R"({"spans": [{"family": "X", "compute_capabilities": ["6.1"], "last_release": "9.10.2"}]})", "t.json"));
  CHECK_FALSE(parse_architecture_spans(R"({"spans": [{"family": "X", "compute_capabilities": ["6.1"], "sources": ["s"]}]})", "t.json"));
  CHECK_FALSE(parse_architecture_spans(R"({"spans": [{"family": "X", "compute_capabilities": ["61"], "last_release": "9.10.2", "sources": ["s"]}]})",
                                       "t.json"));
  CHECK_FALSE(parse_architecture_spans(R"({"spans": [{"family": "X", "compute_capabilities": ["6.1"], "last_release": "9.10", "sources": ["s"]}]})",
                                       "t.json"));
  const auto ok = parse_architecture_spans(
      R"({"spans": [{"family": "X", "compute_capabilities": ["6.1"], "last_release": "9.10.2", "cuda_variants": ["12"], "sources": ["s"]}]})", "t.json");
  REQUIRE(ok);
  CHECK(ok->front().cuda_variants == std::vector<std::string>{"12"});
}

TEST_CASE("architecture spans: the advice for a fix names the family and the releases, from the table", "[architecture_spans]") {
  CHECK(architecture_span_advice(6, 1) == "Maxwell, Pascal and Volta GPUs (compute 6.1) need cuDNN 9.10.2 or older");
  CHECK(architecture_span_advice(12, 0) == "Blackwell GPUs (compute 12.0) need cuDNN 9.7.0 or newer in a CUDA 12/13 build");
  CHECK_FALSE(architecture_span_advice(8, 6));
}
