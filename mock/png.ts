// A tiny PNG encoder and header reader (node:zlib only). The mock's pictures are small solid-colour images whose
// pixel size carries the aspect ratio, so a client that downloads one gets a real PNG of the stated shape and the
// scheduling pre-flight reads the real size back from the bytes, as the real service reads its pictures.
import { deflateSync } from "node:zlib";

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** A solid-colour 8-bit RGB PNG of the given size (a one-pixel band darker at the top, so it is not blank). */
export function encodePng(width: number, height: number, colour: Rgb): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 4096 || height > 4096) {
    throw new RangeError(`PNG size out of range: ${width}×${height}`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    const shade = y < Math.max(1, Math.round(height / 10)) ? 0.6 : 1;
    for (let x = 0; x < width; x++) {
      const at = y * stride + 1 + x * 3;
      raw[at] = Math.round(colour.r * shade);
      raw[at + 1] = Math.round(colour.g * shade);
      raw[at + 2] = Math.round(colour.b * shade);
    }
  }
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** Width and height from a PNG's IHDR, or null when the bytes are not a PNG. */
export function readPngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString("ascii", 12, 16) !== "IHDR") return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * The small pixel size the mock uses for an aspect ratio w:h: 4:5 → 80×100, 9:16 → 90×160, 1:1 → 100×100, and
 * any other ratio scaled so its longer side is 160 px.
 */
export function sizeForAspect(w: number, h: number): { width: number; height: number } {
  if (!(w > 0) || !(h > 0)) throw new RangeError(`aspect must be positive, got ${w}:${h}`);
  const known: Record<string, { width: number; height: number }> = {
    "4:5": { width: 80, height: 100 },
    "9:16": { width: 90, height: 160 },
    "1:1": { width: 100, height: 100 },
  };
  const g = gcd(w, h);
  const key = `${w / g}:${h / g}`;
  if (known[key]) return known[key];
  const scale = 160 / Math.max(w, h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

function gcd(a: number, b: number): number {
  a = Math.round(a);
  b = Math.round(b);
  while (b) [a, b] = [b, a % b];
  return a || 1;
}
