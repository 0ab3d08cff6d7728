// Connecting social accounts (create_connect_link, get_connect_options, complete_connect): a platform the gateway
// does not connect, one without a headless flow, an expired session, and what a finished headless connect changes.
// The client's part (signing in at the platform) is played by opening the link the way a browser would, on the
// gateway's own origin only; a link that needs a real sign-in leaves the check skipped.
import type { RuleId } from "../../../../generated/rules.js";
import { expectError, expectOk } from "../expect.js";
import type { McpContext } from "../extension.js";
import { eraseClient, newClient } from "./clients.js";
import { isLower, show, type McpCheck } from "./common.js";
import { brandIdOrSkip } from "./brand-under-test.js";

const group = "mcp-connecting";
/** Where the headless connects of the suite send the browser back (never fetched: it only goes into a redirect). */
export const connectReturnUrl = "https://return.conformance.example/connect";
/** A channel with options to bind to (Pages), so a headless connect goes through get_connect_options. */
const headlessChannel = "facebook";

/**
 * Starts a headless connect on `brandId` and plays the client's browser: opens the link and reads the return to
 * returnUrl. Returns the connectToken of status=needs_selection, or why there is none. `call` makes the
 * create_connect_link call (a check's judged call, with the token it uses).
 */
export async function openHeadlessConnect(m: McpContext, brandId: string, call: (tool: string, args: Record<string, unknown>) => Promise<any>): Promise<{ connectToken: string } | { why: string }> {
  const link = await call("create_connect_link", { brandId, platform: headlessChannel, returnUrl: connectReturnUrl });
  if (typeof link?.url !== "string") return { why: "create_connect_link made no link" };
  let url: URL;
  try {
    url = new URL(link.url);
  } catch {
    return { why: `create_connect_link answered url ${show(link.url)}, not an address` };
  }
  const res = await m.session.open(url);
  if (!res) return { why: `the connect link is on ${url.origin}, not the gateway's own origin: a client has to sign in there` };
  const back = res.header("location");
  let to: URL | undefined;
  try {
    to = back ? new URL(back, url) : undefined;
  } catch {
    to = undefined;
  }
  const expected = new URL(connectReturnUrl);
  if (!to || to.origin !== expected.origin || to.pathname !== expected.pathname)
    return { why: `opening the connect link answered HTTP ${res.status} without sending the browser back to returnUrl (it needs a real sign-in)` };
  const token = to.searchParams.get("connectToken");
  if (to.searchParams.get("status") !== "needs_selection" || !token) return { why: `the browser came back to returnUrl with ${to.search || "no parameters"}, not status=needs_selection and a connectToken` };
  return { connectToken: token };
}

const needs = ["mcp:profile-all"] as const;

export const connectingChecks: McpCheck[] = [
  {
    id: "mcp-connect-platform-refused",
    description: "create_connect_link for a platform the gateway does not connect answers platform_not_supported with supportedChannels, lowercase",
    rules: ["connect-platform-not-supported"],
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const rule = "connect-platform-not-supported";
      const brandId = await brandIdOrSkip(ctx, m);
      const e = expectError(ctx, await m.session.call("create_connect_link", { brandId, platform: "conformance_nowhere" }), { code: "platform_not_supported", rule });
      if (!e) return;
      const channels = e.supportedChannels;
      ctx.expect(Array.isArray(channels) && channels.length > 0 && channels.every(isLower), rule, `supportedChannels is ${show(channels)}: expected lowercase channels`);
      ctx.expect(!Array.isArray(channels) || !channels.includes("conformance_nowhere"), rule, `supportedChannels ${show(channels)} holds the channel just refused`);
    },
  },
  {
    id: "mcp-headless-connect-unavailable",
    description: "create_connect_link with platform and returnUrl for a platform without a headless flow answers headless_connect_unavailable",
    rules: ["headless-connect-unavailable"],
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const platform = ctx.slot("mcp.triggers.headless_unsupported_platform");
      const brandId = await brandIdOrSkip(ctx, m);
      expectError(ctx, await m.session.call("create_connect_link", { brandId, platform, returnUrl: connectReturnUrl }), { code: "headless_connect_unavailable", rule: "headless-connect-unavailable" });
    },
  },
  {
    id: "mcp-connect-session-expired",
    description: "get_connect_options and complete_connect with an expired connectToken answer connect_session_expired",
    rules: ["connect-session-expired"],
    group,
    needs,
    async run(ctx) {
      const m = ctx.mcp;
      const connectToken = ctx.slot("mcp.triggers.connect_token_expired");
      const brandId = await brandIdOrSkip(ctx, m);
      const rule = "connect-session-expired";
      expectError(ctx, await m.session.call("get_connect_options", { brandId, connectToken }), { code: "connect_session_expired", rule });
      expectError(ctx, await m.session.call("complete_connect", { brandId, connectToken, optionId: "conformance-option" }), { code: "connect_session_expired", rule });
    },
  },
  {
    id: "mcp-connect-completed",
    description: "A headless connect finished with complete_connect shows the channel connected in get_profile, and its session is used up",
    rules: ["connect-completed"],
    group,
    needs: ["mcp:profile-all", "mcp:partner-token", "mcp:cost-builds"],
    spend: () => ({ builds: 1 }),
    async run(ctx) {
      const m = ctx.mcp;
      const rule = (member: "channel-connected" | "session-used-up"): RuleId => `connect-completed/${member}`;
      const { brandId } = await newClient(ctx, m, "connect");
      try {
        const call = (tool: string, args: Record<string, unknown>) => m.session.callRaw(tool, args, "partner");
        const before = expectOk(ctx, await m.session.call("get_profile", { brandId }, "partner"), rule("channel-connected"));
        const session = await openHeadlessConnect(m, brandId, async (tool, args) => expectOk(ctx, await call(tool, args), rule("channel-connected")));
        if (!("connectToken" in session)) return ctx.skip(session.why);
        const { connectToken } = session;
        const options = expectOk(ctx, await m.session.call("get_connect_options", { brandId, connectToken }, "partner"), rule("channel-connected"));
        const option = Array.isArray(options?.options) ? options.options[0] : undefined;
        const optionId = option?.id;
        if (!ctx.expect(typeof optionId === "string", rule("channel-connected"), `get_connect_options listed no option: ${show(options)}`) || typeof optionId !== "string") return;
        const done = expectOk(ctx, await m.session.call("complete_connect", { brandId, connectToken, optionId }, "partner"), rule("channel-connected"));
        if (!done) return;
        const had = (before?.channels ?? []).some((c) => c?.platform === headlessChannel && c?.health === "connected");
        ctx.expect(done.channel?.platform === headlessChannel, rule("channel-connected"), `complete_connect answered channel ${show(done.channel)}, expected ${headlessChannel}`);
        const after = expectOk(ctx, await m.session.call("get_profile", { brandId }, "partner"), rule("channel-connected"));
        const now = (after?.channels ?? []).find((c) => c?.platform === headlessChannel);
        ctx.expect(
          now?.health === "connected",
          rule("channel-connected"),
          `get_profile before the connect ${had ? "had" : "had no"} ${headlessChannel} channel connected; after complete_connect it shows ${show(now ?? null)}`,
        );
        // The session is spent: reading its options again or finishing it twice is refused as an ended session.
        expectError(ctx, await call("get_connect_options", { brandId, connectToken }), { code: "connect_session_expired", rule: rule("session-used-up") });
        expectError(ctx, await m.session.call("complete_connect", { brandId, connectToken, optionId }, "partner"), { code: "connect_session_expired", rule: rule("session-used-up") });
      } finally {
        await eraseClient(ctx, m, brandId);
      }
    },
  },
];
