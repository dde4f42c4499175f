/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MODLIFE_STRMAP_H
#define MODLIFE_STRMAP_H
#include <stdio.h>

struct sm_ent {
	char *key;
	void *val;
};
struct strmap {
	struct sm_ent *v;
	unsigned long cap, n;
};
struct ivec {
	int n, cap;
	int *v;
};

/*
 * The exit status when memory ran out (the address space cap): the run
 * said nothing that can be trusted, and must not read as a clean check.
 */
#define EXIT_OUT_OF_MEMORY 3
extern int ran_out_of_memory;
void out_of_memory(void) __attribute__((noreturn));

char *ml_strdup(const char *s);
void **strmap_get(const struct strmap *m, const char *key);
const char *strmap_intern(struct strmap *m, const char *s);
void **strmap_add(struct strmap *m, const char *key);
struct ivec *strmap_ivec(struct strmap *m, const char *key);
void strmap_free(struct strmap *m, void (*free_val)(void *));
void ivec_push(struct ivec *v, int x);
void ivec_free(void *p);
/* grows an array to hold @need elements of @size bytes */
void *xgrow(void *p, int *cap, int need, size_t size);

#endif
