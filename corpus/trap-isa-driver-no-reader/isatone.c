// SPDX-License-Identifier: GPL-2.0-only
/*
 * isatone: a tone generator card on the ISA bus, probed at a module
 * parameter's port.
 *
 * The isa_driver sits inside the module's own struct, as the ISA radio
 * drivers keep theirs, and is handed over with isa_register_driver(),
 * which never fills in .driver.driver.owner. The ISA bus core never pins
 * a driver's module for anything user space holds: a bound device's
 * attributes are removed when isa_unregister_driver() unbinds it at exit.
 * Nothing to report.
 */
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/isa.h>
#include <linux/module.h>

static unsigned long io = 0x2a0;
module_param_hw(io, ulong, ioport, 0444);
MODULE_PARM_DESC(io, "I/O port of the card");

struct isatone_driver {
	struct isa_driver driver;
	unsigned int region;
};

static int isatone_match(struct device *dev, unsigned int id)
{
	return io != 0;
}

static int isatone_probe(struct device *dev, unsigned int id)
{
	if (!request_region(io, 2, "isatone"))
		return -EBUSY;
	outb(0, io);
	return 0;
}

static void isatone_remove(struct device *dev, unsigned int id)
{
	outb(0, io);
	release_region(io, 2);
}

static struct isatone_driver isatone = {
	.driver = {
		.match		= isatone_match,
		.probe		= isatone_probe,
		.remove		= isatone_remove,
		.driver		= {
			.name	= "isatone",
		},
	},
	.region = 2,
};

static int __init isatone_init(void)
{
	return isa_register_driver(&isatone.driver, 1);
}

static void __exit isatone_exit(void)
{
	isa_unregister_driver(&isatone.driver);
}

module_init(isatone_init);
module_exit(isatone_exit);
MODULE_DESCRIPTION("ISA tone generator");
MODULE_LICENSE("GPL");
