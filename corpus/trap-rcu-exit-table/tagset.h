/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TAGSET_H
#define TAGSET_H

int tagset_cache_init(void);
void tagset_cache_exit(void);
int tagset_cache_add(const char *name);
void tagset_cache_drop(const char *name);

#endif
