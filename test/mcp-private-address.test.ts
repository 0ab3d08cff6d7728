// The one private-address judgement of the MCP mock (create_profile's URL_NOT_ALLOWED, the source_not_public of
// upload_image and upload_brand_logo): each case either of the two former checks covered, and public neighbours
// of every range so a check that refuses everything fails too.
import { describe, expect, it } from "vitest";
import { isPrivateHost } from "../mock/private-address.js";
import { websiteRefusal } from "../mock/mcp/profiles/magic.js";

/** Host as written in a URL → private? */
const cases: [string, boolean][] = [
  // names
  ["localhost", true],
  ["LOCALHOST.", true],
  ["shop.localhost", true],
  ["printer.local", true],
  ["metadata.google.internal", true],
  ["localhost.example.com", false],
  ["internal.example.com", false],
  ["local", false],
  // IPv4: "this network", RFC 1918, CGNAT, loopback, link-local
  ["0.0.0.0", true],
  ["0.1.2.3", true],
  ["10.0.0.7", true],
  ["10.255.255.255", true],
  ["11.0.0.1", false],
  ["100.64.0.1", true],
  ["100.127.255.254", true],
  ["100.63.255.255", false],
  ["100.128.0.1", false],
  ["127.0.0.1", true],
  ["127.8.9.10", true],
  ["169.254.169.254", true],
  ["169.255.0.1", false],
  ["172.16.0.1", true],
  ["172.31.255.255", true],
  ["172.15.0.1", false],
  ["172.32.0.1", false],
  ["192.168.1.20", true],
  ["192.169.0.1", false],
  ["8.8.8.8", false],
  // IPv6: unspecified, loopback, unique local (fc00::/7), link-local (fe80::/10), bracketed as in URL.hostname
  ["[::]", true],
  ["[::1]", true],
  ["::1", true],
  ["[fc00::1]", true],
  ["[fd12:3456::1]", true],
  ["[fe80::1]", true],
  ["[febf::1]", true],
  ["[fec0::1]", false],
  ["[2001:db8::1]", false],
  ["[2606:4700::1111]", false],
  // IPv4-mapped IPv6, dotted and as URL normalises it (hex): judged by the IPv4 address
  ["[::ffff:127.0.0.1]", true],
  ["[::ffff:7f00:1]", true],
  ["[::ffff:a00:7]", true],
  ["[::ffff:a9fe:a9fe]", true],
  ["[::ffff:808:808]", false],
  // public names
  ["example.com", false],
  ["cdn.example.com", false],
];

describe("isPrivateHost", () => {
  it.each(cases)("%s → private %s", (host, expected) => {
    expect(isPrivateHost(host)).toBe(expected);
  });

  it("judges what URL.hostname gives for every spelling of a private address", () => {
    for (const url of ["https://[::ffff:127.0.0.1]/a.png", "https://2130706433/a.png", "https://0x7f.1/a.png", "https://LocalHost./a.png", "https://[FE80::1]/a.png"]) {
      expect(isPrivateHost(new URL(url).hostname), url).toBe(true);
    }
  });

  it("is what create_profile refuses as URL_NOT_ALLOWED", () => {
    for (const [host, expected] of cases) {
      const refusal = websiteRefusal(host);
      if (expected) expect(refusal, host).toBe("URL_NOT_ALLOWED");
      else expect(refusal, host).not.toBe("URL_NOT_ALLOWED");
    }
  });
});
