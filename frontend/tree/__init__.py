# SPDX-License-Identifier: GPL-2.0-only
"""The kernel-tree model: which files are module code, their
Kconfig options, kbuild's flags, generated and other architectures' headers."""
