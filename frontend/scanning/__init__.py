# SPDX-License-Identifier: GPL-2.0-only
"""Scanning: both engines over the files, the fact cache, the link step
and the knowledge scan."""
