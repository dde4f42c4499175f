// SPDX-License-Identifier: GPL-2.0-only
/*
 * vlid: reports the state of an ACPI lid device (PNP0C0D) through a
 * read-only module parameter, for testing firmware tables.
 *
 * The acpi_driver has no .owner: acpi_bus_register_driver() copies it into
 * the embedded struct device_driver, whose owner the driver core does not
 * pin (only bus- and subsystem-specific code does, on ways in that this
 * driver does not take). Nothing to report.
 */
#include <linux/module.h>
#include <linux/acpi.h>

static bool lid_open;
module_param(lid_open, bool, 0444);
MODULE_PARM_DESC(lid_open, "lid state at the last notification");

static void vlid_update(struct acpi_device *adev)
{
	unsigned long long state;

	if (ACPI_SUCCESS(acpi_evaluate_integer(adev->handle, "_LID", NULL,
					       &state)))
		lid_open = !!state;
}

static int vlid_add(struct acpi_device *adev)
{
	vlid_update(adev);
	return 0;
}

static void vlid_notify(struct acpi_device *adev, u32 event)
{
	vlid_update(adev);
}

static const struct acpi_device_id vlid_ids[] = {
	{ "PNP0C0D", 0 },
	{ }
};
MODULE_DEVICE_TABLE(acpi, vlid_ids);

static struct acpi_driver vlid_driver = {
	.name	= "vlid",
	.class	= "vlid",
	.ids	= vlid_ids,
	.ops	= {
		.add	= vlid_add,
		.notify	= vlid_notify,
	},
};

static int __init vlid_init(void)
{
	return acpi_bus_register_driver(&vlid_driver);
}

static void __exit vlid_exit(void)
{
	acpi_bus_unregister_driver(&vlid_driver);
}

module_init(vlid_init);
module_exit(vlid_exit);
MODULE_DESCRIPTION("ACPI lid state as a module parameter");
MODULE_LICENSE("GPL");
