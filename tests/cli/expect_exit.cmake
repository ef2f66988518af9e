# cmake -DCMD=<exe> -DARGS=<a;b;c> -DEXPECT=<code> -P expect_exit.cmake: fails unless CMD exits with EXPECT.
execute_process(COMMAND ${CMD} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECT)
  message(FATAL_ERROR "expected exit ${EXPECT}, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "exit ${rc} as expected; stderr: ${err}")
