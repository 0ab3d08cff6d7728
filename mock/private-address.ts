// Whether a URL's host is private or internal: the one judgement behind the MCP mock's create_profile
// URL_NOT_ALLOWED and the source_not_public refusals of upload_image and upload_brand_logo, and behind the REST
// reference's refusal of such a brand website. Judged by the name or literal address
// only, never resolved (the mock touches no network). Addresses go through node's BlockList, which also judges
// an IPv4-mapped IPv6 address (::ffff:a.b.c.d, however written) by its IPv4 rules.
import net from "node:net";

/** Address ranges that are not on the public internet. */
const privateRanges = {
  ipv4: [
    ["0.0.0.0", 8], // "this network", 0.0.0.0 included
    ["10.0.0.0", 8], // RFC 1918
    ["100.64.0.0", 10], // carrier-grade NAT (RFC 6598)
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local (cloud metadata lives here)
    ["172.16.0.0", 12], // RFC 1918
    ["192.168.0.0", 16], // RFC 1918
  ],
  ipv6: [
    ["::", 128], // unspecified
    ["::1", 128], // loopback
    ["fc00::", 7], // unique local
    ["fe80::", 10], // link-local
  ],
} as const;

const blocked = new net.BlockList();
for (const [address, prefix] of privateRanges.ipv4) blocked.addSubnet(address, prefix, "ipv4");
for (const [address, prefix] of privateRanges.ipv6) blocked.addSubnet(address, prefix, "ipv6");

/** Names that only ever mean this machine or a private network. */
const privateNames = ["localhost"];
const privateSuffixes = [".localhost", ".local", ".internal"];

/** Loopback, private, link-local and internal hosts, as `URL.hostname` gives them (IPv6 in brackets or not). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (privateNames.includes(host) || privateSuffixes.some((s) => host.endsWith(s))) return true;
  const family = net.isIP(host);
  if (family === 4) return blocked.check(host, "ipv4");
  if (family === 6) return blocked.check(host, "ipv6");
  return false;
}
