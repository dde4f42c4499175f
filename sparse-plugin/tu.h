/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The translation unit being checked: what the walk and every hook know
 * of the current file. main.c starts each file with tu_begin(), walk.c
 * fills in what the file defines; the per-file tables of the other layers
 * (facts, member table, aliases) are theirs, and main.c resets them.
 */
#ifndef MODLIFE_TU_H
#define MODLIFE_TU_H

struct symbol;
struct symbol_list;

struct tu_state {
	const char *file;	/* main file, as given */
	int stream;		/* its stream number */
	int is_module;		/* compiled with -DMODULE */
	int kb_scan;		/* --modlife-kb-scan: facts for the knowledge file */
	const char *modname;	/* KBUILD_MODNAME, or NULL */
	struct symbol *init_fn;	/* module_init() target */
	struct symbol *exit_fn;	/* module_exit() target */
	struct symbol_list *objects;	/* static-storage objects of this TU */
	struct symbol_list *functions;	/* function definitions of this TU */
	struct symbol_list *symbols;	/* every top-level symbol of this TU */
};
extern struct tu_state tu;

void tu_begin(const char *file, int is_module, const char *modname);
/* the module's own -I directories, for the whole run */
void tu_add_local_dir(const char *dir);
int in_local_dir(const char *name);

#endif
