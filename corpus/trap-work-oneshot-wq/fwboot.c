// SPDX-License-Identifier: GPL-2.0-only
/*
 * fwboot: loads a (simulated) firmware image on a one-shot workqueue, as
 * some video decoders do so that a slow load does not hold the system
 * queue. The queue lives in a local variable of the loading function,
 * which waits for the load and destroys the queue before it returns:
 * nothing is left pending, and exit has nothing to cancel.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/workqueue.h>

struct fwboot {
	struct work_struct load_work;
	struct completion loaded;
	int status;
};

static struct fwboot fwboot;

static void fwboot_load(struct work_struct *work)
{
	struct fwboot *fb = container_of(work, struct fwboot, load_work);

	fb->status = 0;
	complete(&fb->loaded);
}

static int fwboot_run(struct fwboot *fb)
{
	struct workqueue_struct *q;

	q = alloc_ordered_workqueue("fwboot", 0);
	if (!q)
		return -ENOMEM;
	init_completion(&fb->loaded);
	INIT_WORK(&fb->load_work, fwboot_load);
	queue_work(q, &fb->load_work);
	wait_for_completion(&fb->loaded);
	destroy_workqueue(q);
	return fb->status;
}

static int __init fwboot_init(void)
{
	return fwboot_run(&fwboot);
}

static void __exit fwboot_exit(void)
{
	pr_info("fwboot: unloaded\n");
}

module_init(fwboot_init);
module_exit(fwboot_exit);
MODULE_DESCRIPTION("Firmware load on a one-shot local workqueue");
MODULE_LICENSE("GPL");
