#include <catch2/catch.hpp>

#include "cudnnctl/contract/version.hpp"

using namespace cudnnctl;

TEST_CASE("CUDNN_VERSION follows each major's encoding", "[version]") {
  CHECK(cudnn_version_macro(*parse_version("9.1.0.70")) == 90100u);
  CHECK(cudnn_version_macro(*parse_version("9.10.1.4")) == 91001u);
  CHECK(cudnn_version_macro(*parse_version("9.27.0.42")) == 92700u);
  CHECK(cudnn_version_macro(*parse_version("9.19.0.56")) == 91900u);
  CHECK(cudnn_version_macro(*parse_version("8.9.7.29")) == 8907u);
  CHECK(cudnn_version_macro(*parse_version("7.6.5.32")) == 7605u);
  CHECK_FALSE(cudnn_version_macro(*parse_version("7.1")));
}

TEST_CASE("versions order numerically and label releases by three parts", "[version]") {
  CHECK(*parse_version("9.10.0.1") > *parse_version("9.9.0.1"));
  CHECK(*parse_version("8.9.5.30") > *parse_version("8.9.5.29"));
  CHECK(parse_version("9.1.0.70")->release_label() == "9.1.0");
  CHECK(parse_version("7")->release_label() == "7");
  CHECK_FALSE(parse_version("9.1.0.70.1"));
  CHECK_FALSE(parse_version("a.b"));
  CHECK_FALSE(parse_version("9.1.-1"));
}
