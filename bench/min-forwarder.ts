// bench:proxy's second reference: about the least an HTTP-aware forwarder can do in Node. One upstream
// connection per client connection, each request found by its head's end and Content-Length and written on as
// received, each answer likewise; no header is read, changed or checked, nothing is copied, nothing judged. Its
// CPU per request is the floor of the proxy's fast path (which also reads, checks and rewrites every head, and
// records and judges every exchange). For measuring only: Content-Length framing alone (what the mocks answer
// with), keep-alive, no error handling beyond closing both sides. `node --import tsx bench/min-forwarder.ts
// <port> <upstream>` prints "ready" once it listens, and stops on SIGTERM or SIGINT.
import net from "node:net";

const [port, upstream] = [Number(process.argv[2]), new URL(process.argv[3]!)];
const headEnd = Buffer.from("\r\n\r\n");
/** Bytes of the message whose head ends at `end` in `buf`: head and Content-Length body. */
const messageBytes = (buf: Buffer, end: number) => end + 4 + Number(/\r\ncontent-length:\s*(\d+)/i.exec(buf.toString("latin1", 0, end))?.[1] ?? 0);

/** Calls `send` with each whole message as it arrives on `from` (a message's bytes may come in several reads). */
function messages(from: net.Socket, send: (message: Buffer) => void): void {
  let pending: Buffer | undefined;
  from.on("data", (chunk: Buffer) => {
    pending = pending ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      const end = pending.indexOf(headEnd);
      const size = end < 0 ? -1 : messageBytes(pending, end);
      if (size < 0 || pending.length < size) return;
      send(pending.subarray(0, size));
      if (pending.length === size) return void (pending = undefined);
      pending = pending.subarray(size);
    }
  });
}

net
  .createServer((client) => {
    const service = net.connect({ host: upstream.hostname, port: Number(upstream.port), noDelay: true });
    client.setNoDelay(true);
    messages(client, (m) => service.write(m));
    messages(service, (m) => client.write(m));
    for (const [a, b] of [[client, service], [service, client]] as const) {
      a.on("error", () => b.destroy());
      a.on("close", () => b.destroy());
    }
  })
  .listen(port, "127.0.0.1", () => console.log("ready"));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => process.exit(0));
