// SPDX-License-Identifier: GPL-2.0-only
/*
 * stagedev: a platform device brought up in stages, each with an init and
 * a cleanup step, as larger drivers do; .remove runs the cleanups of the
 * stages that came up, in reverse order.
 *
 * The stage table is written with nested designators
 * (".stage[STAGE_EVENTS] = { ... }"): the cleanup that cancels the event
 * work is reached from .remove through that table.
 */
#include <linux/io.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/workqueue.h>

#define STAGEDEV_EVENT	0x00

enum { STAGE_MMIO, STAGE_EVENTS, STAGE_MAX };

struct stagedev;

struct stagedev_stage {
	int (*init)(struct stagedev *sd);
	void (*cleanup)(struct stagedev *sd);
};

struct stagedev_profile {
	struct stagedev_stage stage[STAGE_MAX];
};

struct stagedev {
	struct platform_device *pdev;
	void __iomem *base;
	struct work_struct event_work;
	const struct stagedev_profile *profile;
	int up;				/* stages that came up */
};

static void stagedev_event(struct work_struct *work)
{
	struct stagedev *sd = container_of(work, struct stagedev, event_work);

	dev_dbg(&sd->pdev->dev, "event %#x\n",
		readl(sd->base + STAGEDEV_EVENT));
}

static int stagedev_mmio_init(struct stagedev *sd)
{
	sd->base = devm_platform_ioremap_resource(sd->pdev, 0);
	return PTR_ERR_OR_ZERO(sd->base);
}

static void stagedev_mmio_cleanup(struct stagedev *sd)
{
}

static int stagedev_events_init(struct stagedev *sd)
{
	INIT_WORK(&sd->event_work, stagedev_event);
	schedule_work(&sd->event_work);	/* report the power-on event */
	return 0;
}

static void stagedev_events_cleanup(struct stagedev *sd)
{
	cancel_work_sync(&sd->event_work);
}

#define STAGE(_s, _init, _cleanup) \
	.stage[_s] = { .init = _init, .cleanup = _cleanup }

static const struct stagedev_profile stagedev_profile = {
	STAGE(STAGE_MMIO, stagedev_mmio_init, stagedev_mmio_cleanup),
	STAGE(STAGE_EVENTS, stagedev_events_init, stagedev_events_cleanup),
};

static void stagedev_down(struct stagedev *sd)
{
	while (sd->up > 0) {
		sd->up--;
		sd->profile->stage[sd->up].cleanup(sd);
	}
}

static int stagedev_probe(struct platform_device *pdev)
{
	struct stagedev *sd;
	int ret;

	sd = devm_kzalloc(&pdev->dev, sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->pdev = pdev;
	sd->profile = &stagedev_profile;
	for (sd->up = 0; sd->up < STAGE_MAX; sd->up++) {
		ret = sd->profile->stage[sd->up].init(sd);
		if (ret) {
			stagedev_down(sd);
			return ret;
		}
	}
	platform_set_drvdata(pdev, sd);
	return 0;
}

static int stagedev_remove(struct platform_device *pdev)
{
	stagedev_down(platform_get_drvdata(pdev));
	return 0;
}

static struct platform_driver stagedev_driver = {
	.probe = stagedev_probe,
	.remove = stagedev_remove,
	.driver = {
		.name = "stagedev",
	},
};
module_platform_driver(stagedev_driver);

MODULE_DESCRIPTION("staged bring-up platform device");
MODULE_LICENSE("GPL");
