# SPDX-License-Identifier: GPL-2.0-only
"""modlife prove: run-time proofs of findings under qemu."""
