// SPDX-License-Identifier: GPL-2.0-only
/*
 * pnpbeep: ISA PnP system speaker found through ACPI (PNP0800).
 *
 * The pnp_driver sets no .driver.owner and is registered with plain
 * pnp_register_driver(), which (in 6.1) does not fill it in either. That is
 * fine: the driver core never pins a driver's module through it, unbinding
 * is done by pnp_unregister_driver() from module exit.
 */
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/module.h>
#include <linux/pnp.h>
#include <linux/slab.h>

#define PNPBEEP_CTRL		0	/* offset of the speaker gate port */
#define PNPBEEP_GATE_MASK	0x03

struct pnpbeep {
	struct pnp_dev *pnp;
	unsigned long port;
	u8 saved_ctrl;
};

static const struct pnp_device_id pnpbeep_ids[] = {
	{ .id = "PNP0800" },
	{ .id = "" }
};
MODULE_DEVICE_TABLE(pnp, pnpbeep_ids);

static void pnpbeep_click(struct pnpbeep *pb)
{
	u8 ctrl = inb(pb->port + PNPBEEP_CTRL);

	outb(ctrl | PNPBEEP_GATE_MASK, pb->port + PNPBEEP_CTRL);
	udelay(50);
	outb(ctrl & ~PNPBEEP_GATE_MASK, pb->port + PNPBEEP_CTRL);
}

static int pnpbeep_probe(struct pnp_dev *pnp, const struct pnp_device_id *id)
{
	struct pnpbeep *pb;

	if (!pnp_port_valid(pnp, 0))
		return -ENODEV;

	pb = kzalloc(sizeof(*pb), GFP_KERNEL);
	if (!pb)
		return -ENOMEM;
	pb->pnp = pnp;
	pb->port = pnp_port_start(pnp, 0);

	if (!request_region(pb->port, 1, "pnpbeep")) {
		dev_err(&pnp->dev, "port 0x%lx busy\n", pb->port);
		kfree(pb);
		return -EBUSY;
	}
	pb->saved_ctrl = inb(pb->port + PNPBEEP_CTRL);
	pnp_set_drvdata(pnp, pb);

	pnpbeep_click(pb);
	dev_info(&pnp->dev, "speaker at port 0x%lx\n", pb->port);
	return 0;
}

static void pnpbeep_remove(struct pnp_dev *pnp)
{
	struct pnpbeep *pb = pnp_get_drvdata(pnp);

	outb(pb->saved_ctrl, pb->port + PNPBEEP_CTRL);
	release_region(pb->port, 1);
	kfree(pb);
}

static struct pnp_driver pnpbeep_driver = {
	.name		= "pnpbeep",
	.id_table	= pnpbeep_ids,
	.probe		= pnpbeep_probe,
	.remove		= pnpbeep_remove,
};

static int __init pnpbeep_init(void)
{
	return pnp_register_driver(&pnpbeep_driver);
}

static void __exit pnpbeep_exit(void)
{
	pnp_unregister_driver(&pnpbeep_driver);
}

module_init(pnpbeep_init);
module_exit(pnpbeep_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PnP system speaker click (pnp_driver without driver owner)");
