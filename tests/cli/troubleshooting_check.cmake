# Fails when docs/troubleshooting.md differs from what the doctor's table generates.
execute_process(COMMAND ${CMD} __generate troubleshooting OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
file(READ "${DOC}" current)
if(NOT rc EQUAL 0 OR NOT generated STREQUAL current)
  message(FATAL_ERROR "docs/troubleshooting.md is out of date: run 'build/cudnnctl __generate troubleshooting > docs/troubleshooting.md'")
endif()
