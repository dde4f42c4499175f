// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: put-then-wait in code the exit function never reaches (an init
 * error path and a function only init calls), a wait before the put in
 * the exit function (a worker is stopped first), and an exit helper that
 * waits without putting anything.  Nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct baz {
	struct device dev;
	struct work_struct work;
	struct completion work_done;
};

static struct baz *baz;
static DECLARE_COMPLETION(baz_released);

static void baz_release(struct device *dev)
{
	kfree(container_of(dev, struct baz, dev));
	complete(&baz_released);
}

static void baz_work(struct work_struct *work)
{
	struct baz *b = container_of(work, struct baz, work);

	complete(&b->work_done);
}

static int baz_selftest(struct baz *b)
{
	get_device(&b->dev);
	put_device(&b->dev);
	wait_for_completion(&b->work_done);
	return 0;
}

static void baz_stop(struct baz *b)
{
	wait_for_completion(&b->work_done);
}

static int __init baz_init(void)
{
	int err;

	baz = kzalloc(sizeof(*baz), GFP_KERNEL);
	if (!baz)
		return -ENOMEM;
	INIT_WORK(&baz->work, baz_work);
	init_completion(&baz->work_done);
	baz->dev.release = baz_release;
	dev_set_name(&baz->dev, "baz");
	err = device_register(&baz->dev);
	if (err) {
		put_device(&baz->dev);
		wait_for_completion(&baz_released);
		return err;
	}
	schedule_work(&baz->work);
	return baz_selftest(baz);
}

static void __exit baz_exit(void)
{
	baz_stop(baz);
	device_unregister(&baz->dev);
}

module_init(baz_init);
module_exit(baz_exit);
MODULE_LICENSE("GPL");
