"""The defaults of `toolshape serve`'s limits, one place for the server and the command line
(which shows them in `--help` without loading the `serve` extra)."""

from __future__ import annotations

#: S23.5, S25.6: the defaults of `--timeout` (seconds), `--max-response-bytes` (what a result
#: may carry) and `--max-download-bytes` (the most read from the API, after decompression).
TIMEOUT = 30.0
MAX_RESPONSE_BYTES = 1024 * 1024
MAX_DOWNLOAD_BYTES = 16 * 1024 * 1024
#: S27.4: the defaults of `--retries` and `--max-retry-wait` (seconds).
RETRIES = 2
MAX_RETRY_WAIT = 10.0
#: S25.2: the most bytes of serialized tools on one `tools/list` page (well under the 10 MiB
#: the TypeScript client reads in one message); `page_size` may also cap the count.
PAGE_BYTES = 4 * 1024 * 1024
#: S23.2: no count limit on a page unless the server is told one (`--page-size`).
PAGE_SIZE: int | None = None
