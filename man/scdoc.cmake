# scdoc < IN | gzip -9n > OUT, failing when either fails (a shell pipe
# would hide scdoc's error behind gzip's success).
execute_process(COMMAND ${SCDOC} INPUT_FILE ${IN} OUTPUT_FILE ${OUT}.roff RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.roff)
  message(FATAL_ERROR "scdoc failed on ${IN}")
endif()
execute_process(COMMAND gzip -9n -c ${OUT}.roff OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
file(REMOVE ${OUT}.roff)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT})
  message(FATAL_ERROR "gzip failed on ${OUT}")
endif()
