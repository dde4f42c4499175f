# SPDX-License-Identifier: GPL-2.0-only
"""The modlife front end: scans trees with both engines and links facts."""
VERSION = "0.1.0"
