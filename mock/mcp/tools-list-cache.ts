// tools/list answered from bytes prepared once per audience (a partner sees three tools more): only the JSON-RPC
// id differs between answers, and it comes last. The list is ~330 KB, four fifths of it the error envelope's
// $defs that each tool's outputSchema must carry whole (MCP schemas are self-contained; the SDK client compiles
// each one alone), so it gzips about tenfold: a client that accepts gzip (Node's fetch, browsers) gets a deflate
// stream compressed once, the id spliced on as a stored block and the CRC carried on from the prepared part.
import zlib from "node:zlib";

export type Audience = "partner" | "other";

export interface ListAnswer {
  /** The body in pieces (the prepared part is shared, never copied); write them in order. */
  chunks: Buffer[];
  length: number;
  /** "gzip" when the body is gzip-compressed. */
  encoding?: "gzip";
}

export interface ToolsListCache {
  /** The whole response body to tools/list for this audience and id. */
  answer(audience: Audience, id: string | number, gzip: boolean): ListAnswer;
}

/** Whether an Accept-Encoding header admits gzip (named with a q above 0, or `*`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return (coding === "gzip" || coding === "*") && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** gzip member header: deflate, no flags, no mtime, unknown OS (RFC 1952). */
const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** `data` as stored (uncompressed) deflate blocks, the last one final; starts on a byte boundary (RFC 1951 3.2.4). */
function storedBlocks(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  do {
    const chunk = data.subarray(at, at + 0xffff);
    at += chunk.length;
    const head = Buffer.alloc(5);
    head[0] = at >= data.length ? 1 : 0; // BFINAL on the last block; BTYPE 00 (stored)
    head.writeUInt16LE(chunk.length, 1);
    head.writeUInt16LE(~chunk.length & 0xffff, 3);
    parts.push(head, chunk);
  } while (at < data.length);
  return Buffer.concat(parts);
}

interface Prepared {
  head: Buffer;
  /** gzip header + the head deflated and sync-flushed (ends on a byte boundary, no final block). */
  gzipHead: Buffer;
  headCrc: number;
  headBytes: number;
}

function prepare(tools: readonly unknown[]): Prepared {
  const bytes = Buffer.from(`{"result":{"tools":${JSON.stringify(tools)}},"jsonrpc":"2.0","id":`);
  const deflated = zlib.deflateRawSync(bytes, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return { head: bytes, gzipHead: Buffer.concat([gzipHeader, deflated]), headCrc: zlib.crc32(bytes), headBytes: bytes.length };
}

export function createToolsListCache(toolsFor: (audience: Audience) => readonly unknown[]): ToolsListCache {
  const prepared = new Map<Audience, Prepared>();
  for (const audience of ["partner", "other"] as const) prepared.set(audience, prepare(toolsFor(audience)));
  return {
    answer(audience, id, gzip) {
      const p = prepared.get(audience)!;
      const tail = Buffer.from(`${JSON.stringify(id)}}`);
      if (!gzip) return { chunks: [p.head, tail], length: p.headBytes + tail.length };
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(zlib.crc32(tail, p.headCrc), 0);
      trailer.writeUInt32LE((p.headBytes + tail.length) >>> 0, 4);
      const chunks = [p.gzipHead, storedBlocks(tail), trailer];
      return { chunks, length: chunks.reduce((n, c) => n + c.length, 0), encoding: "gzip" };
    },
  };
}
