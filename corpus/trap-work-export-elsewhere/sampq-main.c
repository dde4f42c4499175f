// SPDX-License-Identifier: GPL-2.0-only
/* sampq: the module, and the interface it exports to client drivers. */
#include <linux/export.h>
#include <linux/module.h>
#include "sampq.h"

EXPORT_SYMBOL_GPL(sampq_open_chan);
EXPORT_SYMBOL_GPL(sampq_close_chan);
EXPORT_SYMBOL_GPL(sampq_read);

static int __init sampq_init(void)
{
	pr_info("sampq: ready\n");
	return 0;
}

static void __exit sampq_exit(void)
{
	pr_info("sampq: gone\n");
}

module_init(sampq_init);
module_exit(sampq_exit);
MODULE_DESCRIPTION("Sampling channels for client drivers");
MODULE_LICENSE("GPL");
