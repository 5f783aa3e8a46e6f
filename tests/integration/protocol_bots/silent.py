"""A protocol bot that says hello, then never answers (the arena counts timeouts); it exits at end of input."""

import json
import os
import sys

if len(sys.argv) > 1:
    with open(sys.argv[1], "a") as fh:
        fh.write(f"{os.getpid()}\n")
print(json.dumps({"type": "hello", "protocol": 1, "engine": "silent", "version": "1", "capabilities": ["turn"]}),
      flush=True)
for _line in sys.stdin:
    pass
