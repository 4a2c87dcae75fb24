# Registers quince_tests' GoogleTest tests with ctest for the AddressSanitizer build (cmake -P, after each link of
# quince_tests; tests/CMakeLists.txt): a test listed in test_costs.txt (a second or more under a sanitizer)
# is a ctest test of its own, as gtest_discover_tests makes every test; the other tests of a suite run in one
# process, ctest test `Suite.*` (GoogleTest's filter lists them). An ASan process takes about 0.15 s to start
# and end, more than most of the suite's tests run: with a process per test the suite took a sixth longer.
# A group's cost (ctest's start order) is half a second per test.
#
# Variables: EXE (the test program), COSTS (tests/test_costs.txt), OUT (the ctest file written),
# WORKDIR (the tests' working folder), TIMEOUT (seconds per ctest test).
cmake_minimum_required(VERSION 3.20)  # IN_LIST
execute_process(COMMAND "${EXE}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXE} --gtest_list_tests failed (${status})")
endif()

file(STRINGS "${COSTS}" cost_lines)
set(single "")
foreach(line IN LISTS cost_lines)
  if(line MATCHES "^([^ ]+) [0-9]+ ([0-9.]+)$")
    list(APPEND single "${CMAKE_MATCH_1}")
    set("cost_${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}")
  endif()
endforeach()

string(REPLACE "\n" ";" lines "${listing}")
set(suites "")
set(suite "")
set(text "# Written by tests/group_tests.cmake from `${EXE} --gtest_list_tests`.\n")
macro(register name filter cost)
  string(APPEND text "add_test([==[${name}]==] \"${EXE}\" [==[--gtest_filter=${filter}]==])\n"
                     "set_tests_properties([==[${name}]==] PROPERTIES WORKING_DIRECTORY \"${WORKDIR}\" "
                     "TIMEOUT ${TIMEOUT} COST ${cost})\n")
endmacro()
foreach(line IN LISTS lines)
  if(line MATCHES "^([A-Za-z0-9_]+)\\.$")
    set(suite "${CMAKE_MATCH_1}")
    list(APPEND suites "${suite}")
    set("members_${suite}" "")
  elseif(line MATCHES "^  ([A-Za-z0-9_]+)$" AND suite)
    set(test "${suite}.${CMAKE_MATCH_1}")
    if(test IN_LIST single)
      register("${test}" "${test}" "${cost_${test}}")
    else()
      list(APPEND "members_${suite}" "${test}")
    endif()
  elseif(NOT line STREQUAL "" AND NOT line MATCHES "^Running main\\(\\) from ")  # gtest_main's banner
    message(FATAL_ERROR "unexpected line in ${EXE} --gtest_list_tests: '${line}'")
  endif()
endforeach()
foreach(suite IN LISTS suites)
  list(LENGTH "members_${suite}" n)
  if(n EQUAL 1)
    register("${members_${suite}}" "${members_${suite}}" 0.5)
  elseif(n GREATER 1)
    list(JOIN "members_${suite}" ":" filter)
    math(EXPR whole "${n} / 2")
    math(EXPR tenths "${n} % 2 * 5")
    register("${suite}.*" "${filter}" "${whole}.${tenths}")
  endif()
endforeach()
file(WRITE "${OUT}.tmp" "${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
