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
# Say which interpreter the module is for, and when the first python3 on PATH is another
# one (which could not import it).
if(simdcollide_python_found AND NOT simdcollide_python_reported)
    set(simdcollide_python_reported ON)
    message(STATUS "simdcollide: the Python module is built for ${Python3_EXECUTABLE} "
                   "(Python ${Python3_VERSION}, with numpy ${Python3_NumPy_VERSION})")
    find_program(simdcollide_first_python3 python3 NO_CACHE)
    if(simdcollide_first_python3)
        file(REAL_PATH "${simdcollide_first_python3}" first_python3)
        file(REAL_PATH "${Python3_EXECUTABLE}" module_python3)
        if(NOT first_python3 STREQUAL module_python3)
            message(STATUS "simdcollide: the first python3 on PATH, ${simdcollide_first_python3}, "
                           "is another interpreter: run the module with ${Python3_EXECUTABLE}, "
                           "or configure with -DPython3_EXECUTABLE=<yours> after installing "
                           "numpy and Python's headers for it")
        endif()
    endif()
elseif(NOT simdcollide_python_found AND NOT simdcollide_python_reported)
    set(simdcollide_python_reported ON)
    message(STATUS "simdcollide: no Python module: it needs Python 3 with its headers and "
                   "numpy, and pybind11 (Debian: python3-dev python3-numpy pybind11-dev)")
endif()
