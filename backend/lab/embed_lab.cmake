# Turns a lab file into a C string: the default lab is built from
# examples/labs/san-extension.lab, so that file is its one source.
file(READ ${IN} text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\n" "\\n\"\n\"" text "${text}")
get_filename_component(name ${IN} NAME)
file(WRITE ${OUT} "/* generated from examples/labs/${name} by backend/lab/embed_lab.cmake */\n#include \"lab/topology.h\"\nconst char topology_default_text[] =\n\"${text}\";\n")
