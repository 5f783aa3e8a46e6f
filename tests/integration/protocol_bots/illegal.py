"""A protocol bot that always answers a well-formed but illegal play: the table unchanged (no rack tile)."""

import json
import sys

print(json.dumps({"type": "hello", "protocol": 1, "engine": "illegal", "version": "1", "capabilities": ["turn"]}),
      flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "quit":
        break
    table = request["observation"]["table"]
    print(json.dumps({"id": request["id"], "type": "result", "action": {"kind": "play", "table": table or "R1 R2 R3"}}),
          flush=True)
