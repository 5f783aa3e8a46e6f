"""A protocol bot that ignores end of input and SIGTERM and never answers: only a kill stops it."""

import json
import os
import signal
import sys
import time

if len(sys.argv) > 1:
    with open(sys.argv[1], "a") as fh:
        fh.write(f"{os.getpid()}\n")
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print(json.dumps({"type": "hello", "protocol": 1, "engine": "stubborn", "version": "1", "capabilities": ["turn"]}),
      flush=True)
while True:
    time.sleep(1)
