// SPDX-License-Identifier: GPL-2.0-only
/*
 * pulsegen: a software pulse generator behind a misc device. The START
 * ioctl begins a self-requeueing work item that toggles a counter; STOP
 * ends it. The generator may outlive the file that started it (it keeps
 * running after close, as a hardware generator would), so START takes a
 * reference to the module and STOP gives it back after the work is
 * cancelled: the module cannot be unloaded while the work is pending,
 * and the exit function has nothing to stop.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#define PULSEGEN_START	_IO('p', 1)
#define PULSEGEN_STOP	_IO('p', 2)

struct pulsegen {
	struct mutex lock;
	struct delayed_work tick;
	unsigned long pulses;
	bool running;
};

static struct pulsegen gen;

static void pulsegen_tick(struct work_struct *work)
{
	struct pulsegen *g = container_of(to_delayed_work(work),
					  struct pulsegen, tick);

	g->pulses++;
	schedule_delayed_work(&g->tick, msecs_to_jiffies(10));
}

static int pulsegen_begin(struct pulsegen *g)
{
	if (g->running)
		return -EBUSY;
	/* held until pulsegen_halt(): the work runs module code */
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	g->running = true;
	schedule_delayed_work(&g->tick, 0);
	return 0;
}

static int pulsegen_halt(struct pulsegen *g)
{
	if (!g->running)
		return -EINVAL;
	cancel_delayed_work_sync(&g->tick);
	g->running = false;
	module_put(THIS_MODULE);
	return 0;
}

static long pulsegen_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	long ret;

	mutex_lock(&gen.lock);
	switch (cmd) {
	case PULSEGEN_START:
		ret = pulsegen_begin(&gen);
		break;
	case PULSEGEN_STOP:
		ret = pulsegen_halt(&gen);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&gen.lock);
	return ret;
}

static const struct file_operations pulsegen_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= pulsegen_ioctl,
};

static struct miscdevice pulsegen_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "pulsegen",
	.fops	= &pulsegen_fops,
};

static int __init pulsegen_init(void)
{
	mutex_init(&gen.lock);
	INIT_DELAYED_WORK(&gen.tick, pulsegen_tick);
	return misc_register(&pulsegen_misc);
}

static void __exit pulsegen_exit(void)
{
	misc_deregister(&pulsegen_misc);
}

module_init(pulsegen_init);
module_exit(pulsegen_exit);
MODULE_DESCRIPTION("Software pulse generator that pins itself while running");
MODULE_LICENSE("GPL");
