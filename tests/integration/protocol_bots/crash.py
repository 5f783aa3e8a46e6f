"""A protocol bot that says hello, then exits with status 3 at its first turn (the arena counts a crash)."""

import json
import os
import sys

if len(sys.argv) > 1:
    with open(sys.argv[1], "a") as fh:
        fh.write(f"{os.getpid()}\n")
print(json.dumps({"type": "hello", "protocol": 1, "engine": "crash", "version": "1", "capabilities": ["turn"]}),
      flush=True)
sys.stdin.readline()
sys.exit(3)
