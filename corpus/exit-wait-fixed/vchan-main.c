// SPDX-License-Identifier: GPL-2.0-only
/*
 * vchan: a set of software transmit channels, /sys/devices/vchan0..N-1,
 * each counting what is written to its "xmit" attribute.
 * Channel setup and teardown live in vchan-core.c.
 */
#include <linux/err.h>
#include <linux/module.h>
#include "vchan.h"

#define VCHAN_MAX	8

static unsigned int nr_channels = 2;
module_param(nr_channels, uint, 0444);
MODULE_PARM_DESC(nr_channels, "Number of channels (1-8)");

static struct vchan *vchans[VCHAN_MAX];

static int __init vchan_init(void)
{
	unsigned int i;
	int ret;

	if (!nr_channels || nr_channels > VCHAN_MAX)
		return -EINVAL;

	for (i = 0; i < nr_channels; i++) {
		vchans[i] = vchan_setup(i);
		if (IS_ERR(vchans[i])) {
			ret = PTR_ERR(vchans[i]);
			goto err_unwind;
		}
	}
	return 0;

err_unwind:
	while (i--)
		vchan_teardown(vchans[i]);
	return ret;
}

static void __exit vchan_exit(void)
{
	unsigned int i;

	for (i = 0; i < nr_channels; i++)
		vchan_teardown(vchans[i]);
}

module_init(vchan_init);
module_exit(vchan_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Software transmit channels (release frees, exit does not wait)");
