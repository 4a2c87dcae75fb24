# Writes OUT, a C++ source holding the text of IN (the similarity test's shipped position set), so that
# `quince similarity` needs no file beside the program.
file(READ "${IN}" text)
string(FIND "${text}" ")QPOSITIONS\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter )QPOSITIONS\"")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${NAME} by cmake/embed_positions.cmake; do not edit.\nnamespace quince::similarity {\nextern const char* const SHIPPED_POSITIONS;\nconst char* const SHIPPED_POSITIONS = R\"QPOSITIONS(${text})QPOSITIONS\";\n}  // namespace quince::similarity\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
