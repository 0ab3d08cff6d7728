// One keep-alive policy for the proxy's client connections, whichever path serves them (node:http's server or
// the fast path, fast-path.ts): the same time announced in Keep-Alive, the same idle time before closing.
//
// A kept-alive connection should be closed by the client first: clients close an idle one a second before the
// time the server announces (undici), and a loaded client can take many seconds to send its next request on it;
// a server that closes at the announced time races that request into a reset (seen at 5 s and at 15 s under
// load). 65 s, as load balancers use, leaves the gaps of a busy client well inside. This side of the race
// belongs to the client (only it knows when it will send; a server cannot close "safely"), so the long idle time
// stays; the proxy's own side (its pool towards the upstream) is fixed for real: it lets an idle connection go
// before the upstream does and resends what the upstream never took (forward.ts).
import type http from "node:http";

/** The idle time announced to clients (`Keep-Alive: timeout=65`) after an answer. */
export const clientKeepAliveMs = 65_000;

/**
 * node:http closes an idle kept-alive connection this long after the time it announces (Node's
 * HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER), so that a request sent at the last moment is not reset; the fast path
 * waits as long.
 */
const closeGraceMs = 1_000;

/** How long a client connection may stay silent between requests before the proxy closes it. */
export const clientIdleCloseMs = clientKeepAliveMs + closeGraceMs;

/** The Keep-Alive header's value on an answer that keeps the connection open. */
export const keepAliveValue = `timeout=${clientKeepAliveMs / 1000}`;

/** Configures a node:http server of the proxy with the policy. */
export function keepClientsAlive(server: http.Server): void {
  server.keepAliveTimeout = clientKeepAliveMs;
}
