# cmake "-DREADME=README.md;docs/threads.md" -DEXAMPLE=tests/test_embedding_example.cpp
#       -P check_readme_example.cmake
# Fails unless one of the documents in README contains, verbatim, the lines of each example
# between a pair of "// [readme-...]" markers in EXAMPLE.
file(READ ${EXAMPLE} example)
set(readme "")
foreach(document IN LISTS README)
    file(READ ${document} text)
    string(APPEND readme "${text}")
endforeach()
string(REGEX MATCHALL "// \\[readme-[a-z-]+\\]" markers "${example}")
list(REMOVE_DUPLICATES markers)
if(NOT markers)
    message(FATAL_ERROR "no [readme-...] markers in ${EXAMPLE}")
endif()
foreach(marker IN LISTS markers)
    string(FIND "${example}" "${marker}\n" begin)
    string(LENGTH "${marker}\n" skip)
    math(EXPR begin "${begin} + ${skip}")
    string(SUBSTRING "${example}" ${begin} -1 rest)
    string(FIND "${rest}" "${marker}" end)
    string(SUBSTRING "${rest}" 0 ${end} snippet)
    string(FIND "${readme}" "${snippet}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "${README} do not contain the ${marker} example of ${EXAMPLE} "
                            "verbatim; copy the lines between its markers into one of them")
    endif()
    message(STATUS "the ${marker} example matches ${EXAMPLE}")
endforeach()
