// The control surface of the stateful mocks: reset all state, advance the clock, freeze and unfreeze it, over
// HTTP under /__control/ on each mock (a prefix neither API uses: REST lives under /v1, MCP at /mcp) and from
// the CLI. Mocks started together (ideas-contract mock) share one Control, so a reset or an advance sent to
// either acts on both. Who may use the HTTP surface: control-guard.ts.
import type { IncomingMessage } from "node:http";
import type { Clock } from "./clock.js";
import { controlPrefix, controlRefusal, controlTarget, newControlToken } from "./control-guard.js";

export { controlPrefix, controlTokenHeader } from "./control-guard.js";

export interface Control {
  clock: Clock;
  /** This run's control token: with it in X-Control-Token, /__control/ answers from anywhere (see control-guard.ts). */
  readonly token: string;
  /** Registers how a mock drops its state (called by reset). */
  onReset(drop: () => void): void;
  /** Every registered mock starts afresh, and the clock goes back to the wall clock, unfrozen. */
  reset(): void;
}

export function createControl(clock: Clock, token = newControlToken()): Control {
  const drops: (() => void)[] = [];
  return {
    clock,
    token,
    onReset: (drop) => void drops.push(drop),
    reset() {
      clock.resync();
      for (const drop of drops) drop();
    },
  };
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration such as `90s`, `1h30m`, `2d`, `500ms` or a bare number of milliseconds; null if malformed. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(t)) return null;
  let ms = 0;
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) ms += Number(n) * units[unit!]!;
  return ms;
}

/** What the clock says, as every control answer reports it. */
export const clockView = (clock: Clock) => ({ now: clock.iso(), frozen: clock.frozen, timeScale: clock.timeScale });

export interface ControlAnswer {
  status: number;
  body?: unknown;
  /** An error: the mock answers it in its own protocol's shape. */
  error?: { code: string; message: string };
  headers?: Record<string, string>;
}

const actions: Record<string, (control: Control, url: URL) => ControlAnswer | null> = {
  reset: (c) => (c.reset(), null),
  freeze: (c) => (c.clock.freeze(), null),
  unfreeze: (c) => (c.clock.unfreeze(), null),
  advance(c, url) {
    const by = url.searchParams.get("by");
    const ms = by === null ? null : parseDuration(by);
    if (ms === null) return { status: 400, error: { code: "invalid_duration", message: "Say how far with ?by=, e.g. ?by=90s, ?by=1h30m or ?by=2d." } };
    c.clock.advance(ms);
    return null;
  },
};

/** The answer to a request under /__control/ (GET clock; POST reset, advance?by=D, freeze, unfreeze). */
export function controlAnswer(control: Control, method: string, url: URL): ControlAnswer {
  const name = url.pathname.slice(controlPrefix.length);
  if (name === "clock") {
    if (method !== "GET") return { status: 405, error: { code: "method_not_allowed", message: "GET /__control/clock." }, headers: { Allow: "GET" } };
    return { status: 200, body: clockView(control.clock) };
  }
  const action = actions[name];
  if (!action || !Object.hasOwn(actions, name)) {
    return { status: 404, error: { code: "not_found", message: `No control ${name}; there are GET clock and POST reset, advance?by=D, freeze, unfreeze.` } };
  }
  if (method !== "POST") return { status: 405, error: { code: "method_not_allowed", message: `POST ${controlPrefix}${name}.` }, headers: { Allow: "POST" } };
  return action(control, url) ?? { status: 200, body: clockView(control.clock) };
}

/**
 * Serves a request about the control surface (a canonical control path, or a trick that resolves to one, which
 * is refused); returns whether it did. `errorBody` writes the mock's error shape for a status.
 */
export function serveControl(
  control: Control,
  req: IncomingMessage,
  send: (status: number, body: unknown, headers?: Record<string, string>) => void,
  errorBody: (code: string, message: string, status: number) => unknown,
): boolean {
  if (controlTarget(req.url) === null) return false;
  req.resume();
  const refused = controlRefusal(req, control.token);
  const answer: ControlAnswer = refused
    ? { status: refused.status, error: { code: refused.code, message: refused.message } }
    : controlAnswer(control, req.method ?? "GET", new URL(req.url ?? "/", "http://mock"));
  send(answer.status, answer.error ? errorBody(answer.error.code, answer.error.message, answer.status) : answer.body, answer.headers);
  return true;
}
