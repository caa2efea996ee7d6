# cmake -DMODE=<find_package|add_subdirectory|fetchcontent> -DSOURCE=<repo> -DBUILD=<build dir>
#       -DWORK=<scratch dir> -P run.cmake
# Configures, builds and runs tests/consumer against simdcollide in the given MODE.
foreach(var MODE SOURCE BUILD WORK)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "run.cmake needs -D${var}=...")
    endif()
endforeach()
file(REMOVE_RECURSE ${WORK})

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed (${rc}): ${ARGN}")
    endif()
endfunction()

set(extra "")
# The modes that build the library from source build it unoptimised: they check the
# packaging, and an optimised build of every instruction set's kernels takes minutes.
set(type Debug)
if(MODE STREQUAL "find_package")
    run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
    set(extra -DCMAKE_PREFIX_PATH=${WORK}/prefix)
    set(type Release)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE}/tests/consumer -B ${WORK}/build -DSIMDCOLLIDE_CONSUME=${MODE}
    -DSIMDCOLLIDE_SOURCE_DIR=${SOURCE} -DCMAKE_BUILD_TYPE=${type} ${extra})
run(${CMAKE_COMMAND} --build ${WORK}/build -j2)
run(${WORK}/build/consumer)
