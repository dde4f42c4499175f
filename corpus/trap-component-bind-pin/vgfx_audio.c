// SPDX-License-Identifier: GPL-2.0-only
/*
 * vgfx_audio: the audio side of a virtual display controller, handed to
 * the HD-audio driver through the component framework (as i915 and
 * amdgpu do).
 *
 * vgfx_audio_ops has no owner. The only core code that pins it is
 * hdac_component_master_bind(), when the audio master binds, and
 * hdac_component_master_unbind() drops that pin: it lasts as long as the
 * binding, which vgfx's remove ends with component_del() before the
 * module can go. No path of user space holds it. Nothing to report.
 */
#include <linux/component.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <drm/drm_audio_component.h>

static int vgfx_get_cdclk_freq(struct device *dev)
{
	return 337500;
}

static int vgfx_get_eld(struct device *dev, int port, int pipe,
			bool *enabled, unsigned char *buf, int max_bytes)
{
	*enabled = false;
	return 0;
}

static const struct drm_audio_component_ops vgfx_audio_ops = {
	.get_cdclk_freq	= vgfx_get_cdclk_freq,
	.get_eld	= vgfx_get_eld,
};

static int vgfx_audio_bind(struct device *dev, struct device *master,
			   void *data)
{
	struct drm_audio_component *acomp = data;

	acomp->ops = &vgfx_audio_ops;
	acomp->dev = dev;
	return 0;
}

static void vgfx_audio_unbind(struct device *dev, struct device *master,
			      void *data)
{
	struct drm_audio_component *acomp = data;

	acomp->ops = NULL;
	acomp->dev = NULL;
}

static const struct component_ops vgfx_audio_component = {
	.bind	= vgfx_audio_bind,
	.unbind	= vgfx_audio_unbind,
};

static int vgfx_probe(struct platform_device *pdev)
{
	return component_add(&pdev->dev, &vgfx_audio_component);
}

static int vgfx_remove(struct platform_device *pdev)
{
	component_del(&pdev->dev, &vgfx_audio_component);
	return 0;
}

static struct platform_driver vgfx_driver = {
	.probe	= vgfx_probe,
	.remove	= vgfx_remove,
	.driver	= {
		.name	= "vgfx-audio",
	},
};
module_platform_driver(vgfx_driver);

MODULE_DESCRIPTION("virtual display controller audio component");
MODULE_LICENSE("GPL");
