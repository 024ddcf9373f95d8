"""The bare server of ``socket_floor.py``: read the mover's ``act``, encode one change, write
it to both seats' sockets; nothing of pickomino is imported. The change to send comes in the
environment (``FLOOR_CHANGE``, JSON). Run on uvicorn as ``python floor_app.py PORT WS`` (its
WebSocket implementation ``WS``, set as ``pickomino serve`` sets it), or imported by another
ASGI server as ``floor_app:app``.
"""

import json
import os
import sys
import time

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

CHANGE = json.loads(os.environ["FLOOR_CHANGE"])
games: dict[str, dict[int, WebSocket]] = {}


async def seat(websocket: WebSocket) -> None:
    game, number = websocket.path_params["game"], int(websocket.path_params["seat"])
    await websocket.accept()
    sockets = games.setdefault(game, {})
    sockets[number] = websocket
    try:
        while True:
            act = json.loads(await websocket.receive_text())
            version = act["seq"] + 1
            change = {**CHANGE, "base": version - 1, "v": version, "now": time.time()}
            change["set"] = {**CHANGE["set"], "seq": version}
            frame = json.dumps(change)
            for other in list(sockets.values()):
                await other.send_text(frame)
    except WebSocketDisconnect:
        sockets.pop(number, None)


app = Starlette(routes=[WebSocketRoute("/ws/{game}/{seat}", seat)])

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(
        app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", ws=sys.argv[2],
        ws_max_size=64 * 1024, ws_per_message_deflate=False,  # as pickomino serve sets them
    )  # fmt: skip
