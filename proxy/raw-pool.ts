// The fast path's connections to an upstream (fast-path.ts): raw TCP connections kept alive between requests,
// with the same keep-alive rules as the node:http agent of forward.ts (upstreamOf).
import net, { type Socket } from "node:net";
import { upstreamIdleMs } from "./forward.js";
import type { AnswerHead } from "./raw-http.js";

/** One raw upstream connection and whoever is using it. */
export interface Conn {
  socket: Socket;
  idle: boolean;
  /** The idle time its socket's timeout is set to (set again only when another is due: each setting makes a new timer). */
  keepMs?: number;
  owner?: { data(chunk: Buffer): void; gone(err?: NodeJS.ErrnoException): void };
}

/**
 * Raw keep-alive connections to one upstream, at most `max` in use (more wait their turn). An idle one is let
 * go before the upstream would close it, as upstreamOf's agent does: after 4 s, or 1 s before the time the
 * upstream announces in Keep-Alive if that is sooner.
 */
export class RawPool {
  readonly #idle: Conn[] = [];
  readonly #all = new Set<Conn>();
  readonly #waiting: (() => void)[] = [];
  #active = 0;
  #closed = false;
  constructor(
    readonly host: string,
    readonly port: number,
    readonly max = 64,
  ) {}

  /** A connection: an idle one unless `fresh`; `reused` says which. */
  acquire(fresh: boolean, use: (conn: Conn, reused: boolean) => void): void {
    if (!fresh) {
      const conn = this.#idle.pop();
      if (conn) {
        conn.idle = false;
        this.#active++;
        return use(conn, true);
      }
    }
    if (this.#active >= this.max) return void this.#waiting.push(() => this.acquire(fresh, use));
    this.#active++;
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    const conn: Conn = { socket, idle: false };
    this.#all.add(conn);
    socket.on("data", (chunk: Buffer) => (conn.owner ? conn.owner.data(chunk) : socket.destroy()));
    socket.on("error", (err: NodeJS.ErrnoException) => conn.owner?.gone(err));
    socket.on("close", () => {
      this.#all.delete(conn);
      if (conn.idle) this.#idle.splice(this.#idle.indexOf(conn), 1);
      conn.owner?.gone();
    });
    socket.on("timeout", () => conn.idle && socket.destroy());
    use(conn, false);
  }

  /** Gives a connection back: kept for the next request for `keepMs`, or closed (undefined). */
  release(conn: Conn, keepMs: number | undefined): void {
    this.#active--;
    conn.owner = undefined;
    if (keepMs === undefined || this.#closed || conn.socket.destroyed) conn.socket.destroy();
    else {
      conn.idle = true;
      // The socket's timeout counts from its last activity (the answer just read), so one setting serves every
      // later release with the same time; a timeout while in use closes nothing (see acquire).
      if (conn.keepMs !== keepMs) conn.socket.setTimeout((conn.keepMs = keepMs));
      this.#idle.push(conn);
    }
    this.#waiting.shift()?.();
  }

  close(): void {
    this.#closed = true;
    for (const c of this.#all) c.socket.destroy();
  }
}

/** How long an answer's connection may stay idle (Node's agent's rule, see upstreamOf), or undefined: not reused. */
export function keepFor(head: AnswerHead): number | undefined {
  if (!head.keepAlive) return undefined;
  const value = head.headers["keep-alive"];
  // An upstream announces the same Keep-Alive on every answer: read once.
  if (value !== lastKeepAlive.value) lastKeepAlive = { value, ms: keepForHint(value) };
  return lastKeepAlive.ms;
}
let lastKeepAlive: { value: unknown; ms: number | undefined } = { value: undefined, ms: keepForHint(undefined) };

function keepForHint(value: unknown): number | undefined {
  const hint = /timeout=(\d+)/.exec(String(value ?? ""))?.[1];
  if (hint === undefined) return upstreamIdleMs;
  const ms = Number(hint) * 1000 - 1000;
  return ms <= 0 ? undefined : Math.min(ms, upstreamIdleMs);
}
