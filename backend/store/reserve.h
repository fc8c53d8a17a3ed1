/*
 * A reserve of disk space beside the lab file (LAB-reserve, 1 MiB), kept
 * so that on a full disk the commands that free space in the lab (delete
 * bootflash:, write erase) can still commit: a WAL-mode SQLite file needs
 * room to write even a delete. docs/durability.md.
 */
#ifndef MDSIM_STORE_RESERVE_H
#define MDSIM_STORE_RESERVE_H
#include <stdbool.h>

enum { STORE_RESERVE_BYTES = 1 << 20 };

/* Makes the reserve when missing, if the disk has room for it four times
 * over (the reserve must never be what fills it). Best effort. */
void store_reserve_make(const char *lab_path);
/* Gives the reserve back to the disk; true when there was one. */
bool store_reserve_release(const char *lab_path);

#endif
