// The proxy in front of the mutants of test/mutants/ (the reference mocks behind a proxy that breaks one rule
// each): a client flow goes through the proxy, and the proxy must report the mutant's broken rule by id, as a
// violation by the service, on an exchange of the kind that shows it. The mutants picked here break a rule that
// one exchange shows, or that the state the proxy remembers shows (a terminal state that came back, a batch that
// holds more than was asked for, a profile that forgot its deletion).
import { describe, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { startMcpMock } from "../mock/mcp/server.js";
import { startRestMock } from "../mock/rest/server.js";
import { inferredOnly } from "../proxy/provenance.js";
import { startProxy, type ExchangeEvent } from "../proxy/server.js";
import { mcpMutants } from "./mutants/mcp/catalogue.js";
import { mutants as restMutants } from "./mutants/rest/catalogue.js";
import { startMutantProxy, type Mutant } from "./mutants/rest/proxy.js";
import { mcpFlow, restFlow } from "./support/proxy-flows.js";
import { hangGuardMs } from "./support/hang-guard.js";
import { suiteStart } from "./support/rest-client.js";

/** REST mutant id → the exchanges (label) that show its break. */
const restPicks: Record<string, RegExp> = {
  "wrong-error-type-for-400": /^POST \/v1\/(ideas|brands)$/,
  "param-missing-on-400": /^POST \/v1\/(ideas|brands)$/,
  "ideas-answer-200-not-202": /^POST \/v1\/ideas$/,
  "done-batch-changes-later": /^GET \/v1\/ideas\/batch_/,
  "retry-after-missing": /^GET \/v1\/brands\//,
  "id-prefix-wrong": /\/v1\/(brands|ideas)/,
  "object-field-wrong": /\/v1\/ideas/,
  "brand-field-missing": /\/v1\/brands/,
  "content-type-not-json": /\/v1\//,
  "failed-batch-without-error": /^GET \/v1\/ideas\/batch_/,
  "model-not-named": /\/v1\/ideas/,
  "terminal-brand-flips": /^GET \/v1\/brands\//,
  "server-error-answered-503": /^POST \/v1\/ideas$/,
  "new-batch-has-left-out": /^POST \/v1\/ideas$/,
  "new-brand-shows-name": /^POST \/v1\/brands$/,
  "done-at-null-when-done": /^GET \/v1\/ideas\/batch_/,
  "ranks-out-of-order": /^GET \/v1\/ideas\/batch_/,
  "count-not-respected": /^GET \/v1\/ideas\/batch_/,
  "formats-not-respected": /^GET \/v1\/ideas\/batch_/,
  "feedback-reason-dropped": /^POST \/v1\/feedback$/,
  // Not "patch-website-not-reread": a re-read shows only through its outcome (the status during it is not shown),
  // which the suite provokes with its trigger; traffic alone cannot tell a quick re-read from none.
  "not-ready-code-missing": /^POST \/v1\/ideas$/,
  "not-found-param-missing": /^POST \/v1\/(ideas|feedback)$/,
  "missing-token-accepted": /^GET \/v1\/brands\//,
  "http-website-accepted": /^POST \/v1\/brands$/,
  "description-limit-not-enforced": /^POST \/v1\/brands$/,
  "count-limit-not-enforced": /^POST \/v1\/ideas$/,
  "predictions-unranked": /^POST \/v1\/predictions$/,
};

/** MCP mutant id → the exchanges that show its break. */
const mcpPicks: Record<string, RegExp> = {
  "mcp-is-error-missing": /^tools\/call (view_post|get_post_batch_status)$/,
  "mcp-retryable-flipped": /^tools\/call /,
  "mcp-text-differs": /^tools\/call /,
  "mcp-structured-content-dropped": /^tools\/call view_post$/,
  "mcp-output-off-schema": /^tools\/call view_post$/,
  "mcp-unknown-argument-accepted": /^tools\/call view_post$/,
  "mcp-validation-in-envelope": /^tools\/call create_posts$/,
  "mcp-unknown-tool-envelope": /^tools\/call no_such_tool$/,
  "mcp-401-without-challenge": /^initialize$/,
  "mcp-settled-while-generating": /^tools\/call get_post_batch_status$/,
  "mcp-counts-inconsistent": /^tools\/call get_post_batch_status$/,
  "mcp-created-items-without-platforms": /^tools\/call get_post_batch_status$/,
  "mcp-images-pending-overcounted": /^tools\/call get_post_batch_status$/,
  "mcp-read-only-hint-flipped": /^tools\/list$/,
  "mcp-delete-without-confirm": /^tools\/call delete_profile$/,
  "mcp-user-choice-inverted": /^tools\/call list_brands$/,
  "mcp-truncated-always-false": /^tools\/call get_workspaces$/,
  "mcp-deleted-forgotten": /^tools\/call delete_profile$/,
  "mcp-repeat-profile-created": /^tools\/call create_profile$/,
  "mcp-read-scope-refused": /^tools\/call get_workspaces$/,
};

function pick<M extends Mutant>(all: M[], picks: Record<string, RegExp>): [string, M, RegExp][] {
  return Object.entries(picks).map(([id, where]) => {
    const m = all.find((x) => x.id === id);
    if (!m) throw new Error(`no mutant ${id} in the catalogue`);
    return [id, m, where];
  });
}

/** The exchanges whose service violations name the rule. */
const names = (reported: string, rule: string) => reported === rule || reported.startsWith(`${rule}/`); // a family covers its members
// A mutant that breaks one member (auth-required-401/createFeedback) breaks its family's other members the same
// way; the exchange the flow shows may be another member's.
const family = (rule: string) => rule.split("/")[0]!;
// A rule the contract inferred is reported as drift (the service differs from our design, not from the seed).
const sideOf = (rule: string) => (inferredOnly([rule]) ? "drift" : "service");
const reporting = (events: ExchangeEvent[], rule: string) => events.filter((e) => e.violations.some((v) => v.side === sideOf(rule) && v.rules.some((r) => names(r, family(rule)))));

function expectCaught(events: ExchangeEvent[], mutant: Mutant, where: RegExp): void {
  const hits = reporting(events, mutant.rule);
  const lines = events.filter((e) => e.violations.length).map((e) => e.line);
  expect(hits.length, `${mutant.id}: no exchange reported ${mutant.rule}; violations seen:\n${lines.join("\n")}`).toBeGreaterThan(0);
  expect(hits.map((e) => e.verdict.label).filter((l) => where.test(l)), `${mutant.id}: ${mutant.rule} reported on ${hits.map((e) => e.verdict.label).join(", ")}`).not.toEqual([]);
}

/** A fresh mock behind the mutant behind the proxy; the protocol's flow through the proxy; the rule reported. */
async function caught(protocol: "rest" | "mcp", mutant: Mutant, where: RegExp): Promise<void> {
  const clock = createClock({ timeScale: 1, start: suiteStart });
  const mock = protocol === "rest" ? await startRestMock({ clock, seed: "proxy-mutants" }) : await startMcpMock({ clock });
  const broken = await startMutantProxy(mock.url, mutant);
  const events: ExchangeEvent[] = [];
  const upstream = protocol === "rest" ? { restUpstream: broken.url.href } : { mcpUpstream: new URL(mock.url.pathname, broken.url).href };
  const proxy = await startProxy({ ...upstream, onExchange: (e) => events.push(e) });
  try {
    if (protocol === "rest") await restFlow(proxy.restUrl!, clock);
    else await mcpFlow(proxy.mcpUrl!, clock);
    await proxy.settled();
    expectCaught(events, mutant, where);
  } finally {
    await proxy.stop();
    await broken.stop();
    await mock.stop();
  }
}

describe("proxy in front of the mutants", () => {
  it("picks at least 20 mutants across both protocols", () => {
    expect(Object.keys(restPicks).length + Object.keys(mcpPicks).length).toBeGreaterThanOrEqual(20);
  });

  it.concurrent.each(pick(restMutants, restPicks))("REST %s: the broken rule is reported by id", (_id, mutant, where) => caught("rest", mutant, where), hangGuardMs);
  it.concurrent.each(pick(mcpMutants, mcpPicks))("MCP %s: the broken rule is reported by id", (_id, mutant, where) => caught("mcp", mutant, where), hangGuardMs);
});
