"""S19.2: the name rules of the strictest model APIs."""

from __future__ import annotations

import re

#: S19.2: the property-key rule of the strictest model APIs.
PORTABLE_KEY = re.compile(r"[A-Za-z0-9_.-]{1,64}")
LIMIT = 64
#: S8.1: an MCP tool name.
MCP_TOOL = re.compile(r"[A-Za-z0-9_.-]{1,128}")
