# cudnnctl_embed(<out-var> <input file> <symbol>): a build step that turns a data file into a C++ source defining
# std::string_view cudnnctl::embedded::<symbol>() (cmake/embed_file.cmake), rebuilt when the file changes; the
# source's path goes into <out-var>. Further arguments: what the step depends on besides the file (a target
# that makes it, e.g. cudnnctl_audit). The main build and the Windows test build (tests/windows) both use it.
set(CUDNNCTL_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_file.cmake)
function(cudnnctl_embed out_var input symbol)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_${symbol}.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/generated
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=${symbol} -P ${CUDNNCTL_EMBED_SCRIPT}
    DEPENDS ${input} ${CUDNNCTL_EMBED_SCRIPT} ${ARGN}
    COMMENT "Embedding ${input}")
  set(${out_var} ${output} PARENT_SCOPE)
endfunction()
