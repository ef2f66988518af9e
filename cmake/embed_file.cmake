# cmake -DINPUT=<file> -DOUTPUT=<file.cpp> -DSYMBOL=<name> -P embed_file.cmake
# Writes a C++ source defining `std::string_view cudnnctl::embedded::SYMBOL()`: the file's bytes (NUL-terminated
# in memory). Users declare it where they read it: `namespace cudnnctl::embedded { std::string_view SYMBOL(); }`.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by cmake/embed_file.cmake. Do not edit.\n"
  "#include <string_view>\n"
  "namespace cudnnctl::embedded {\n"
  "namespace {\n"
  "const unsigned char ${SYMBOL}_bytes[] = {\n${bytes}0x00};\n"
  "}\n"
  "std::string_view ${SYMBOL}();\n"
  "std::string_view ${SYMBOL}() { return {reinterpret_cast<const char*>(${SYMBOL}_bytes), ${size}}; }\n"
  "}\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
