// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-pacer: a pass-through device-mapper target that counts the bios it
 * remaps and logs the rate once a second from a delayed work item.
 *
 * Table line: <start> <len> pacer <device>
 *
 * The module's exit cancels nothing: every table that uses the target
 * holds a reference on the module (dm_get_target_type()), and the device
 * mapper calls .dtr, which cancels the work, before it drops that
 * reference. The work cannot be pending when the module goes.
 */
#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/device-mapper.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#define DM_MSG_PREFIX "pacer"

struct pacer_ctx {
	struct dm_dev *dev;
	atomic_t bios;
	struct delayed_work report_work;
};

static void pacer_report(struct work_struct *work)
{
	struct pacer_ctx *pc = container_of(to_delayed_work(work),
					    struct pacer_ctx, report_work);

	DMDEBUG("%d bios/s", atomic_xchg(&pc->bios, 0));
	schedule_delayed_work(&pc->report_work, HZ);
}

static int pacer_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct pacer_ctx *pc;
	int ret;

	if (argc != 1) {
		ti->error = "Invalid argument count";
		return -EINVAL;
	}
	pc = kzalloc(sizeof(*pc), GFP_KERNEL);
	if (!pc) {
		ti->error = "Cannot allocate context";
		return -ENOMEM;
	}
	ret = dm_get_device(ti, argv[0], dm_table_get_mode(ti->table),
			    &pc->dev);
	if (ret) {
		ti->error = "Device lookup failed";
		kfree(pc);
		return ret;
	}
	atomic_set(&pc->bios, 0);
	INIT_DELAYED_WORK(&pc->report_work, pacer_report);
	schedule_delayed_work(&pc->report_work, HZ);
	ti->private = pc;
	return 0;
}

static void pacer_dtr(struct dm_target *ti)
{
	struct pacer_ctx *pc = ti->private;

	cancel_delayed_work_sync(&pc->report_work);
	dm_put_device(ti, pc->dev);
	kfree(pc);
}

static int pacer_map(struct dm_target *ti, struct bio *bio)
{
	struct pacer_ctx *pc = ti->private;

	atomic_inc(&pc->bios);
	bio_set_dev(bio, pc->dev->bdev);
	return DM_MAPIO_REMAPPED;
}

static struct target_type pacer_target = {
	.name = "pacer",
	.version = {1, 0, 0},
	.module = THIS_MODULE,
	.ctr = pacer_ctr,
	.dtr = pacer_dtr,
	.map = pacer_map,
};

static int __init dm_pacer_init(void)
{
	return dm_register_target(&pacer_target);
}

static void __exit dm_pacer_exit(void)
{
	dm_unregister_target(&pacer_target);
}

module_init(dm_pacer_init);
module_exit(dm_pacer_exit);
MODULE_DESCRIPTION("device-mapper pass-through target with a bio rate log");
MODULE_LICENSE("GPL");
