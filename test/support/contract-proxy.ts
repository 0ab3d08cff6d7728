// Our contract proxy in front of an allowed variant: nothing the suite sends through it may be recorded as the
// service's violation, since a variant differs from the reference only as the seeds allow (drift from inferred rules
// is allowed). Timing is left out: the proxy holds answers to 10 s of the wall clock, which a loaded test host, not
// the variant, may take.
import { startProxy, type ExchangeEvent } from "../../proxy/server.js";

export interface ContractProxy {
  /** Where the suite sends its requests instead of the variant. */
  url: URL;
  /** The service violations recorded so far, one line each (after every exchange is judged). */
  blamed(): Promise<string[]>;
  stop(): Promise<void>;
}

/** The service violations among the events, one line each, but the wall clock's answer time (see above). */
export const serviceBlames = (events: readonly ExchangeEvent[]): string[] =>
  events.flatMap((e) =>
    e.violations.filter((v) => v.side === "service" && v.rules.some((r) => r !== "answers-within-seconds")).map((v) => `${e.line.slice(0, 160)} — ${v.rules.join(", ")}: ${v.reason.slice(0, 300)}`),
  );

export async function contractProxyBefore(protocol: "rest" | "mcp", upstream: string): Promise<ContractProxy> {
  const events: ExchangeEvent[] = [];
  const proxy = await startProxy({ ...(protocol === "rest" ? { restUpstream: upstream } : { mcpUpstream: upstream }), onExchange: (e) => events.push(e) });
  return {
    url: protocol === "rest" ? proxy.restUrl! : proxy.mcpUrl!,
    async blamed() {
      await proxy.settled();
      return serviceBlames(events);
    },
    stop: () => proxy.stop(),
  };
}
