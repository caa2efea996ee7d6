# Finds what the Python module needs: Python 3's interpreter and headers with numpy, and
# pybind11. Sets simdcollide_python_found.
#
# CMake's FindPython stops at the first interpreter on PATH; where that one lacks numpy or
# headers (a pyenv or a virtual environment), the system's /usr/bin/python3 is tried too.
# -DPython3_EXECUTABLE=... picks another.
set(simdcollide_python_found OFF)
find_package(Python3 QUIET COMPONENTS Interpreter Development.Module NumPy)
if(NOT Python3_FOUND AND NOT DEFINED CACHE{Python3_EXECUTABLE} AND EXISTS /usr/bin/python3)
    unset(_Python3_EXECUTABLE CACHE)
    unset(_Python3_INCLUDE_DIR CACHE)
    unset(_Python3_NumPy_INCLUDE_DIR CACHE)
    set(Python3_EXECUTABLE /usr/bin/python3)
    find_package(Python3 QUIET COMPONENTS Interpreter Development.Module NumPy)
endif()
if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
    if(pybind11_FOUND)
        set(simdcollide_python_found ON)
    endif()
endif()
