/* The port-channel shows (pc_show.c) and the registry's interface hooks. */
#ifndef MDSIM_PC_SHOW_H
#define MDSIM_PC_SHOW_H
struct session;
struct cmd_args;
struct lab;
struct strbuf;

int pc_show_summary(struct session *s, const struct cmd_args *a);
int pc_show_database(struct session *s, const struct cmd_args *a);
int pc_show_interface(struct session *s, const struct cmd_args *a);
int pc_show_running(struct session *s, const struct cmd_args *a);
void pc_show_brief(struct session *s);
void pc_show_interfaces(struct session *s);

#endif
