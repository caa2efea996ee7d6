# cmake -DREADME=README.md -DEXAMPLE=tests/test_embedding_example.cpp -P check_readme_example.cmake
# Fails unless the README contains, verbatim, the lines of the example between its markers.
file(READ ${EXAMPLE} example)
string(REGEX MATCH "// \\[readme-example\\]\n(.*)// \\[readme-example\\]" _ "${example}")
set(snippet "${CMAKE_MATCH_1}")
if(snippet STREQUAL "")
    message(FATAL_ERROR "no [readme-example] markers in ${EXAMPLE}")
endif()
file(READ ${README} readme)
string(FIND "${readme}" "${snippet}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "README.md does not contain the example of ${EXAMPLE} verbatim; copy "
                        "the lines between the [readme-example] markers into it")
endif()
message(STATUS "README example matches ${EXAMPLE}")
