// SPDX-License-Identifier: GPL-2.0-only
/*
 * The translation unit being checked (tu.h). State only: it calls no
 * other file of the checker, so that every layer may read it.
 */
#include <string.h>
#include "tu.h"

struct tu_state tu;

/* -I directories of the module itself ("ccflags-y += -I$(src)/inc") */
#define MAX_LOCAL_DIRS 32
static const char *local_dirs[MAX_LOCAL_DIRS];
static int nr_local_dirs;

/* A new file: nothing of the previous one is left. */
void tu_begin(const char *file, int is_module, const char *modname)
{
	memset(&tu, 0, sizeof(tu));
	tu.file = file;
	tu.is_module = is_module;
	tu.modname = modname;
}

void tu_add_local_dir(const char *dir)
{
	if (nr_local_dirs < MAX_LOCAL_DIRS)
		local_dirs[nr_local_dirs++] = dir;
}

static int under(const char *name, const char *dir)
{
	size_t len = strlen(dir);

	return !strncmp(name, dir, len) && name[len] == '/';
}

/* Under one of the module's own -I directories (--modlife-local-dir). */
int in_local_dir(const char *name)
{
	int i;

	for (i = 0; i < nr_local_dirs; i++)
		if (under(name, local_dirs[i]))
			return 1;
	return 0;
}
