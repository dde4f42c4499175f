# SPDX-License-Identifier: GPL-2.0-only
"""modlife fix: the semantic patches' safe fixes, their checks and
--format-patch."""
