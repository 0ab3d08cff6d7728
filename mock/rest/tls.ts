// A self-signed TLS certificate made at start in pure node:crypto (no dependency, no openssl): a P-256 key and
// a minimal X.509 v3 certificate, DER-encoded by hand and signed with ECDSA-SHA256. The key lives only in
// memory. The certificate names `localhost`, 127.0.0.1, ::1 and the host the server listens on.
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import net from "node:net";

// --- minimal DER ------------------------------------------------------------------------------------------
function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...c: Buffer[]) => tlv(0x30, ...c);
const set = (...c: Buffer[]) => tlv(0x31, ...c);
const explicit = (n: number, ...c: Buffer[]) => tlv(0xa0 + n, ...c);
function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && b[1]! < 0x80) b = b.subarray(1);
  return tlv(0x02, b[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}
function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const out = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, "utf8"));
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer) => tlv(0x03, Buffer.from([0]), b);
function time(d: Date): Buffer {
  const iso = d.toISOString();
  const compact = iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16) + iso.slice(17, 19) + "Z";
  return tlv(0x17, Buffer.from(compact, "ascii"));
}
function ipBytes(ip: string): Buffer {
  if (net.isIPv4(ip)) return Buffer.from(ip.split(".").map(Number));
  const [head, tail = ""] = ip.split("::") as [string, string?];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...h, ...Array(8 - h.length - t.length).fill("0"), ...t] : h;
  return Buffer.concat(groups.map((g) => Buffer.from([(parseInt(g, 16) >> 8) & 0xff, parseInt(g, 16) & 0xff])));
}

const name = (cn: string) => seq(set(seq(oid("2.5.4.3"), utf8(cn))));
const ecdsaWithSha256 = seq(oid("1.2.840.10045.4.3.2"));

/** A fresh key and self-signed certificate (PEM) valid for a year, for `localhost`, loopback and `host`. */
export async function selfSignedCertificate(host: string): Promise<{ key: string; cert: string }> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const dns = new Set(["localhost"]);
  const ips = new Set(["127.0.0.1", "::1"]);
  if (net.isIP(host)) ips.add(host);
  else dns.add(host);
  const altNames = seq(
    ...[...dns].map((d) => tlv(0x82, Buffer.from(d, "ascii"))),
    ...[...ips].filter((ip) => ip !== "0.0.0.0" && ip !== "::").map((ip) => tlv(0x87, ipBytes(ip))),
  );
  const now = Date.now();
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    ecdsaWithSha256,
    name("ideas-contract REST mock"),
    seq(time(new Date(now - 86_400_000)), time(new Date(now + 365 * 86_400_000))),
    name("ideas-contract REST mock"),
    spki,
    explicit(
      3,
      seq(
        seq(oid("2.5.29.17"), octets(altNames)),
        seq(oid("2.5.29.19"), octets(seq())), // basicConstraints: not a CA
      ),
    ),
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = seq(tbs, ecdsaWithSha256, bits(signature));
  const pem = `-----BEGIN CERTIFICATE-----\n${der.toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: "pkcs8", format: "pem" }) as string, cert: pem };
}
