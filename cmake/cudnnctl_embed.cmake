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

# The data files compiled into cudnnctl, listed once: <module> <file under data/> <symbol>, a row each. The main
# build and the Windows test build (tests/windows) both embed them through cudnnctl_embed_data.
set(CUDNNCTL_EMBEDDED_DATA
  catalog cudnn-catalog.json catalog_json
  catalog cudnn-advisories.json advisories_json
  catalog driver-floors.json driver_floors_json
  catalog gpu-architecture-spans.json architecture_spans_json
  explain failure-signatures.json signatures_json
  explain cuda-errors.json cuda_errors_json)

# cudnnctl_embed_data(<out-var> <source root> <module>...): embeds the rows of CUDNNCTL_EMBEDDED_DATA that belong to
# the modules named; the generated sources' paths go into <out-var>.
function(cudnnctl_embed_data out_var root)
  set(sources)
  list(LENGTH CUDNNCTL_EMBEDDED_DATA count)
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 3)
    math(EXPR f "${i} + 1")
    math(EXPR s "${i} + 2")
    list(GET CUDNNCTL_EMBEDDED_DATA ${i} module)
    list(GET CUDNNCTL_EMBEDDED_DATA ${f} file)
    list(GET CUDNNCTL_EMBEDDED_DATA ${s} symbol)
    if(module IN_LIST ARGN)
      cudnnctl_embed(generated ${root}/data/${file} ${symbol})
      list(APPEND sources ${generated})
    endif()
  endforeach()
  set(${out_var} ${sources} PARENT_SCOPE)
endfunction()
