// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanctl: PWM fan controller with a fault LED. The hwmon device reports
 * the fan speed and takes the PWM duty; the LED lights when the fan is
 * commanded to run below its stall limit.
 *
 * Everything is devm_-managed on the platform device: the private data,
 * the LED class device, the hwmon device. Their lifetime ends at unbind
 * and their releases live in the core; the module writes none.
 */
#include <linux/device.h>
#include <linux/hwmon.h>
#include <linux/hwmon-sysfs.h>
#include <linux/leds.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#define FANCTL_RPM_PER_STEP	20
#define FANCTL_STALL_PWM	40

struct fanctl {
	struct mutex lock;
	unsigned int pwm;
	struct led_classdev fault_led;
};

static ssize_t fan1_input_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct fanctl *fc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(fc->pwm) * FANCTL_RPM_PER_STEP);
}
static SENSOR_DEVICE_ATTR_RO(fan1_input, fan1_input, 0);

static ssize_t pwm1_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct fanctl *fc = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(fc->pwm));
}

static ssize_t pwm1_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct fanctl *fc = dev_get_drvdata(dev);
	unsigned int val;
	int ret;

	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;
	if (val > 255)
		return -EINVAL;

	mutex_lock(&fc->lock);
	fc->pwm = val;
	led_set_brightness(&fc->fault_led,
			   val && val < FANCTL_STALL_PWM ? LED_FULL : LED_OFF);
	mutex_unlock(&fc->lock);
	return count;
}
static SENSOR_DEVICE_ATTR_RW(pwm1, pwm1, 0);

static struct attribute *fanctl_attrs[] = {
	&sensor_dev_attr_fan1_input.dev_attr.attr,
	&sensor_dev_attr_pwm1.dev_attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(fanctl);

static void fanctl_led_set(struct led_classdev *led,
			   enum led_brightness value)
{
	dev_dbg(led->dev, "fault %s\n", value ? "on" : "off");
}

static int fanctl_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device *hwmon;
	struct fanctl *fc;
	int ret;

	fc = devm_kzalloc(dev, sizeof(*fc), GFP_KERNEL);
	if (!fc)
		return -ENOMEM;
	mutex_init(&fc->lock);
	fc->pwm = 128;

	fc->fault_led.name = "fanctl:red:fault";
	fc->fault_led.max_brightness = LED_FULL;
	fc->fault_led.brightness_set = fanctl_led_set;
	ret = devm_led_classdev_register(dev, &fc->fault_led);
	if (ret)
		return dev_err_probe(dev, ret, "fault LED\n");

	hwmon = devm_hwmon_device_register_with_groups(dev, "fanctl", fc,
						       fanctl_groups);
	if (IS_ERR(hwmon))
		return dev_err_probe(dev, PTR_ERR(hwmon), "hwmon\n");

	platform_set_drvdata(pdev, fc);
	return 0;
}

static struct platform_driver fanctl_driver = {
	.probe	= fanctl_probe,
	.driver	= {
		.name	= "fanctl",
	},
};
module_platform_driver(fanctl_driver);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("PWM fan controller with fault LED (devm-managed objects)");
MODULE_ALIAS("platform:fanctl");
