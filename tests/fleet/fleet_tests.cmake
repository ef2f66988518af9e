# The fleet engines (issue 52, docs/fleets.md): doctor --prometheus and --nfd, cudnnctl report, and the examples
# in docs/examples/prometheus and docs/examples/kubernetes, each against the real engine where it can be
# installed (scripts/test.sh installs prometheus and prometheus-node-exporter); "SKIP:" only where it is missing.
# CUDNNCTL_REQUIRE_FLEET=1 turns those skips into failures.
set(CUDNNCTL_FLEET_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/fleet)
target_sources(cudnnctl_tests PRIVATE fleet/fleet_report_test.cpp)
if(NOT WIN32)
  add_test(NAME fleet.prometheus_engine
    COMMAND Python3::Interpreter ${CUDNNCTL_FLEET_TESTS}/prometheus_engine_test.py $<TARGET_FILE:cudnnctl>)
  add_test(NAME fleet.kubernetes_examples
    COMMAND Python3::Interpreter ${CUDNNCTL_FLEET_TESTS}/kubernetes_examples_test.py $<TARGET_FILE:cudnnctl>
            ${PROJECT_SOURCE_DIR}/docs/examples/kubernetes)
  add_test(NAME fleet.containerfile
    COMMAND bash ${CUDNNCTL_FLEET_TESTS}/containerfile_test.sh $<TARGET_FILE:cudnnctl> ${PROJECT_SOURCE_DIR}/docs/examples/kubernetes)
  add_test(NAME fleet.report COMMAND Python3::Interpreter ${CUDNNCTL_FLEET_TESTS}/report_cli_test.py $<TARGET_FILE:cudnnctl>)
  set_tests_properties(fleet.prometheus_engine fleet.kubernetes_examples fleet.containerfile fleet.report
                       PROPERTIES LABELS fleet TIMEOUT 300 SKIP_REGULAR_EXPRESSION "SKIP:")
endif()
add_test(NAME fleet.prometheus_rules COMMAND bash ${CUDNNCTL_FLEET_TESTS}/prometheus_rules_test.sh ${PROJECT_SOURCE_DIR}/docs/examples/prometheus)
set_tests_properties(fleet.prometheus_rules PROPERTIES LABELS fleet TIMEOUT 120 SKIP_REGULAR_EXPRESSION "SKIP:")
