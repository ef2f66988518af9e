#include <catch2/catch.hpp>

#include "cudnnctl/env/ld_conf.hpp"
#include "cudnnctl/env/loader_path.hpp"

using namespace cudnnctl;

TEST_CASE("ld.so.conf.d: one file name per toolkit, even with the same last folder", "[ld_conf]") {
  const auto a = ld_conf_file_name("/a/cuda");
  const auto b = ld_conf_file_name("/b/cuda");
  CHECK(a != b);
  CHECK(a.starts_with("cudnnctl-cuda-"));
  CHECK(a.ends_with(".conf"));
  CHECK(ld_conf_file_name("/a/cuda") == a);  // stable
  CHECK(ld_conf_file_name("/x/\xe6\x88\x91 #:dir") .find_first_of(" #:\xe6") == std::string::npos);
}

TEST_CASE("ld.so.conf.d: folders ldconfig cannot hold are named with the reason", "[ld_conf]") {
  CHECK(ld_conf_problem("/opt/cuda/lib64").empty());
  CHECK(ld_conf_problem("/opt/my cuda/lib64").empty());
  CHECK_THAT(ld_conf_problem("/opt/hash#dir/lib64"), Catch::Contains("comment"));
  CHECK_THAT(ld_conf_problem("/opt/new\nline"), Catch::Contains("line break"));
  CHECK_THAT(ld_conf_problem("/opt/colon:dir"), Catch::Contains("':'"));
  CHECK_THAT(ld_conf_problem("/opt/a=b"), Catch::Contains("TYPE"));
  CHECK_THAT(ld_conf_problem("relative/lib"), Catch::Contains("absolute"));
}

TEST_CASE("ld.so.conf.d: the cache's folders for one soname, first wins", "[ld_conf]") {
  const std::string text = "3 libs found in cache `/etc/ld.so.cache'\n"
                           "\tlibcudnn_ops.so.9 (libc6,x86-64) => /opt/b/lib/libcudnn_ops.so.9\n"
                           "\tlibcudnn.so.9 (libc6,x86-64) => /opt/b/lib/libcudnn.so.9\n"
                           "\tlibcudnn.so.9 (libc6,x86-64) => /opt/a/lib/libcudnn.so.9\n"
                           "\tlibcudnn.so (libc6,x86-64) => /opt/a/lib/libcudnn.so\n";
  CHECK(cache_dirs_for(text, "libcudnn.so.9") == std::vector<std::string>{"/opt/b/lib", "/opt/a/lib"});
  CHECK(cache_dirs_for(text, "libcudnn.so.8").empty());
}

TEST_CASE("loader path: printed commands name the toolkit, quoted for the shell", "[loader_path]") {
  CHECK(toolkit_command("/usr/local/cuda", "path", "--apply") == "cudnnctl path --cuda-path /usr/local/cuda --apply");
  CHECK(toolkit_command("/opt/my cuda", "path") == "cudnnctl path --cuda-path '/opt/my cuda'");
  CHECK(shell_word("it's") == "'it'\\''s'");
  // a Windows toolkit's command is typed into cmd or PowerShell: double quotes (cmd takes '...' literally)
  CHECK(toolkit_command("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4", "path", "--apply --scope user") ==
        "cudnnctl path --cuda-path \"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\" --apply --scope user");
  CHECK(toolkit_command("C:\\CUDA\\v12.4", "path") == "cudnnctl path --cuda-path C:\\CUDA\\v12.4");
}

TEST_CASE("loader path: empty and relative LD_LIBRARY_PATH entries are warned about", "[loader_path]") {
  CHECK(loader_path_warnings("/a:/b").empty());
  CHECK(loader_path_warnings("/a::/b").size() == 1);
  CHECK(loader_path_warnings("/a:").size() == 1);
  CHECK(loader_path_warnings(":/a").size() == 1);
  const auto rel = loader_path_warnings("/a:lib");
  REQUIRE(rel.size() == 1);
  CHECK_THAT(rel[0], Catch::Contains("'lib' is relative"));
}

TEST_CASE("fix lines name the toolkit that was checked, quoted for its shell, so they run as printed", "[loader_path]") {
  // the signature table's fixed texts (DOCFIX in the round 4 hostile review)
  CHECK(with_toolkit_named("cudnnctl path shows the order; sudo cudnnctl path --apply puts the toolkit first", "/opt/my cuda") ==
        "cudnnctl path --cuda-path '/opt/my cuda' shows the order; sudo cudnnctl path --cuda-path '/opt/my cuda' --apply puts the toolkit first");
  CHECK(with_toolkit_named("cudnnctl doctor again; in a virtual machine, pass the GPU through first", "/tk") ==
        "cudnnctl doctor --cuda-path /tk again; in a virtual machine, pass the GPU through first");
  CHECK(with_toolkit_named("on that machine: `cudnnctl path --apply --scope user` puts it first", "C:\\Program Files\\CUDA\\v12.4") ==
        "on that machine: `cudnnctl path --cuda-path \"C:\\Program Files\\CUDA\\v12.4\" --apply --scope user` puts it first");
  // a command that names a toolkit already, and the <toolkit> placeholder
  CHECK(with_toolkit_named("cudnnctl install cudnn-x.tar.xz --cuda-path <toolkit>", "/a b") == "cudnnctl install cudnn-x.tar.xz --cuda-path '/a b'");
  CHECK(with_toolkit_named("run `cudnnctl uninstall --cuda-path /tk` first", "/other") == "run `cudnnctl uninstall --cuda-path /tk` first");
  // commands that take no toolkit, and words that only look like one, are left alone
  CHECK(with_toolkit_named("cudnnctl trace -- python app.py shows what was loaded", "/tk") == "cudnnctl trace -- python app.py shows what was loaded");
  CHECK(with_toolkit_named("mycudnnctl path x", "/tk") == "mycudnnctl path x");
  CHECK(with_toolkit_named("reinstall with cudnnctl install", "/tk") == "reinstall with cudnnctl install --cuda-path /tk");
  CHECK(with_toolkit_named("cudnnctl path shows it", "") == "cudnnctl path shows it");
}

TEST_CASE("ldconfig reads ld.so.conf.d only where ld.so.conf includes it", "[ld_conf]") {
  CHECK(conf_d_unread(std::string("include /etc/ld.so.conf.d/*.conf\n")).empty());
  CHECK(conf_d_unread(std::string("# Debian\n\ninclude   /etc/ld.so.conf.d/*.conf   # the distribution's\n")).empty());
  CHECK(conf_d_unread(std::string("include ld.so.conf.d/*.conf\n")).empty());
  CHECK(conf_d_unread(std::string("/usr/local/lib\ninclude /etc/other.d/*.conf /etc/ld.so.conf.d/*\n")).empty());
  CHECK_THAT(conf_d_unread(std::string("# include /etc/ld.so.conf.d/*.conf\n/usr/local/lib\n")), Catch::Contains("include /etc/ld.so.conf.d/*.conf"));
  CHECK_THAT(conf_d_unread(std::string("included /etc/ld.so.conf.d/*.conf\n")), Catch::Contains("no line"));
  CHECK_THAT(conf_d_unread(std::string()), Catch::Contains("no line"));
  CHECK_THAT(conf_d_unread(std::nullopt), Catch::Contains("no etc/ld.so.conf"));
}
