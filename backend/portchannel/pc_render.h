#ifndef MDSIM_PC_RENDER_H
#define MDSIM_PC_RENDER_H
#include "strbuf.h"
struct lab;
void pc_render_one(struct lab *lab, int sw, int id, strbuf *out);
void pc_render(struct lab *lab, int sw, strbuf *out);
#endif
