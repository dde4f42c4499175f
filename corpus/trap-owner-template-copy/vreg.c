// SPDX-License-Identifier: GPL-2.0-only
/*
 * vreg: regulators of a made-up PMIC, described by per-chip templates.
 *
 * The static regulator_desc tables are templates: probe copies one into
 * each device's own struct and sets the owner on the copy, which is what
 * it registers (as qcom_smd-regulator does). The templates themselves
 * are never registered, so their missing .owner is not a bug.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/regulator/driver.h>
#include <linux/slab.h>
#include <linux/string.h>

struct vreg {
	struct regulator_desc desc;
	struct regulator_dev *rdev;
	unsigned int uv;
	bool on;
};

static int vreg_enable(struct regulator_dev *rdev)
{
	struct vreg *v = rdev_get_drvdata(rdev);

	v->on = true;
	return 0;
}

static int vreg_disable(struct regulator_dev *rdev)
{
	struct vreg *v = rdev_get_drvdata(rdev);

	v->on = false;
	return 0;
}

static int vreg_is_enabled(struct regulator_dev *rdev)
{
	struct vreg *v = rdev_get_drvdata(rdev);

	return v->on;
}

static const struct regulator_ops vreg_ops = {
	.enable		= vreg_enable,
	.disable	= vreg_disable,
	.is_enabled	= vreg_is_enabled,
};

static const struct regulator_desc vreg_buck_template = {
	.name		= "buck",
	.ops		= &vreg_ops,
	.type		= REGULATOR_VOLTAGE,
	.n_voltages	= 1,
	.fixed_uV	= 1200000,
};

static const struct regulator_desc vreg_ldo_template = {
	.name		= "ldo",
	.ops		= &vreg_ops,
	.type		= REGULATOR_VOLTAGE,
	.n_voltages	= 1,
	.fixed_uV	= 3300000,
};

static const struct regulator_desc *const vreg_templates[] = {
	&vreg_buck_template,
	&vreg_ldo_template,
};

static int vreg_probe(struct platform_device *pdev)
{
	struct regulator_config config = { .dev = &pdev->dev };
	int i;

	for (i = 0; i < ARRAY_SIZE(vreg_templates); i++) {
		struct vreg *v;

		v = devm_kzalloc(&pdev->dev, sizeof(*v), GFP_KERNEL);
		if (!v)
			return -ENOMEM;
		memcpy(&v->desc, vreg_templates[i], sizeof(v->desc));
		v->desc.id = i;
		v->desc.owner = THIS_MODULE;
		config.driver_data = v;
		v->rdev = devm_regulator_register(&pdev->dev, &v->desc,
						  &config);
		if (IS_ERR(v->rdev))
			return PTR_ERR(v->rdev);
	}
	return 0;
}

static struct platform_driver vreg_driver = {
	.probe	= vreg_probe,
	.driver	= {
		.name	= "vreg",
	},
};
module_platform_driver(vreg_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PMIC regulators registered from copies of static templates (owner set on the copy)");
