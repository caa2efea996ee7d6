# cmake -DDEMO=simdcollide-demo -DOUT=folder -P check_demo.cmake
# The demo writes its frames as PNG files, for the crates scene too, and refuses an unknown
# scene and an unwritable folder with a message and a non-zero exit.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${DEMO} --scene hourglass --circles 50 --frames 2 --every 3
    --width 64 --height 48 --out ${OUT}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the demo failed (${rc}): ${out}${err}")
endif()
foreach(frame frame_0000.png frame_0001.png)
    if(NOT EXISTS ${OUT}/${frame})
        message(FATAL_ERROR "no ${OUT}/${frame}")
    endif()
    file(READ ${OUT}/${frame} signature LIMIT 8 HEX)
    if(NOT signature STREQUAL "89504e470d0a1a0a")
        message(FATAL_ERROR "${frame} is not a PNG (starts ${signature})")
    endif()
endforeach()

# The crates scene: circles and dynamic boxes, counted in the demo's summary.
execute_process(COMMAND ${DEMO} --scene crates --circles 40 --frames 2 --every 3
    --width 64 --height 48 --out ${OUT}/crates
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "2 frames of crates \\(40 circles, 36 crates\\)"
   OR NOT EXISTS ${OUT}/crates/frame_0001.png)
    message(FATAL_ERROR "the crates scene failed (${rc}): ${out}${err}")
endif()

execute_process(COMMAND ${DEMO} --scene volcano --out ${OUT}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "unknown scene \"volcano\"")
    message(FATAL_ERROR "an unknown scene gave ${rc}: ${err}")
endif()

file(WRITE ${OUT}/a-file "not a folder")
execute_process(COMMAND ${DEMO} --frames 1 --out ${OUT}/a-file/frames
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "cannot make the folder")
    message(FATAL_ERROR "an unwritable folder gave ${rc}: ${err}")
endif()
message(STATUS "demo: frames written, bad arguments refused")
