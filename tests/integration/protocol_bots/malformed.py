"""A protocol bot whose answers are malformed in turn: not JSON, a result without an action, an unknown action
kind, a table in bad notation, an error answer (the arena counts each as malformed)."""

import json
import sys

print(json.dumps({"type": "hello", "protocol": 1, "engine": "malformed", "version": "1", "capabilities": ["turn"]}),
      flush=True)
answers = [
    lambda rid: "this is not json",
    lambda rid: json.dumps({"id": rid, "type": "result"}),
    lambda rid: json.dumps({"id": rid, "type": "result", "action": {"kind": "fold"}}),
    lambda rid: json.dumps({"id": rid, "type": "result", "action": {"kind": "play", "table": "X99 Q"}}),
    lambda rid: json.dumps({"id": rid, "type": "error", "code": "internal", "message": "no idea"}),
]
for i, line in enumerate(sys.stdin):
    request = json.loads(line)
    if request["type"] == "quit":
        break
    print(answers[i % len(answers)](request["id"]), flush=True)
