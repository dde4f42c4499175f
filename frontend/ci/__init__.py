# SPDX-License-Identifier: GPL-2.0-only
"""What CI reads: report formats, baselines, --diff-base and where
outputs are written."""
