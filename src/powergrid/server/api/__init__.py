"""The HTTP and WebSocket surface: the FastAPI app, its routes, the request bodies, and the
connection guard that uvicorn runs."""
