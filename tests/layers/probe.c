/* One file of a layer that includes one header, PROBE_HEADER: built by
 * tests/scripts/test_layers.sh with the layer's include directories and
 * definitions (CMakeLists.txt, mdsim_layer_probe), it compiles only if
 * the layer may include that header. */
#include PROBE_HEADER

int layer_probe(void);
int layer_probe(void) { return 0; }
