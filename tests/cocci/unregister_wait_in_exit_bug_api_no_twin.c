// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture: the exit function calls a *_unregister_wait() helper that
 * another file of the module defines, and no plain *_unregister() exists:
 * reported, but patch mode must not rename the call to a function that
 * does not exist.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/device.h>

struct ctr_dev;

extern struct ctr_dev *ctr_dev_create(const char *name);
extern void ctr_dev_unregister_wait(struct ctr_dev *cd);

static struct ctr_dev *ctr;

static int __init ctr_init(void)
{
	ctr = ctr_dev_create("ctr0");
	return ctr ? 0 : -ENOMEM;
}

static void __exit ctr_exit(void)
{
	ctr_dev_unregister_wait(ctr);
}

module_init(ctr_init);
module_exit(ctr_exit);
MODULE_LICENSE("GPL");
