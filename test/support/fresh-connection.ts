// Test clients talk to the mocks on a fresh connection per request. A pooled keep-alive socket races the
// server's idle timeout (Node's default 5 s): a request written just as the server closes the idle socket is
// answered with ECONNRESET, and on a loaded host, where the event loop stalls for hundreds of milliseconds,
// that window is hit (fuzz-mcp and mcp-mock-bounds failed so when test files ran in parallel). A fresh
// connection has no idle period to race; what a test asserts about the mock is unchanged.
import http from "node:http";

/** A request header that makes fetch (undici) close the connection after the answer instead of pooling it. */
export const closeAfterAnswer = { connection: "close" } as const;

/** A node:http agent that opens a fresh connection for every request (at most `maxSockets` at once). */
export const freshAgent = (maxSockets = Infinity): http.Agent => new http.Agent({ keepAlive: false, maxSockets });
