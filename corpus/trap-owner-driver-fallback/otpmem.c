// SPDX-License-Identifier: GPL-2.0-only
/*
 * otpmem: a one-time-programmable memory exposed through nvmem.
 *
 * The nvmem_config has no .owner: nvmem_register() then takes the owner
 * of the driver bound to config->dev, and module_platform_driver()
 * registers that driver with THIS_MODULE (as bcm-ocotp does).
 */
#include <linux/io.h>
#include <linux/module.h>
#include <linux/nvmem-provider.h>
#include <linux/platform_device.h>

#define OTPMEM_WORDS	64

struct otpmem {
	void __iomem *base;
};

static int otpmem_read(void *context, unsigned int offset, void *val,
		       size_t bytes)
{
	struct otpmem *otp = context;
	u32 *buf = val;

	for (; bytes >= 4; bytes -= 4, offset += 4)
		*buf++ = readl(otp->base + offset);
	return 0;
}

static struct nvmem_config otpmem_config = {
	.name		= "otpmem",
	.read_only	= true,
	.word_size	= 4,
	.stride		= 4,
	.size		= OTPMEM_WORDS * 4,
	.reg_read	= otpmem_read,
};

static int otpmem_probe(struct platform_device *pdev)
{
	struct otpmem *otp;

	otp = devm_kzalloc(&pdev->dev, sizeof(*otp), GFP_KERNEL);
	if (!otp)
		return -ENOMEM;
	otp->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(otp->base))
		return PTR_ERR(otp->base);
	otpmem_config.dev = &pdev->dev;
	otpmem_config.priv = otp;
	return PTR_ERR_OR_ZERO(devm_nvmem_register(&pdev->dev, &otpmem_config));
}

static struct platform_driver otpmem_driver = {
	.probe	= otpmem_probe,
	.driver	= {
		.name	= "otpmem",
	},
};
module_platform_driver(otpmem_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("OTP memory through nvmem, owner from the bound driver");
