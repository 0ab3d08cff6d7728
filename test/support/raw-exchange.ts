// Raw bytes to a port on 127.0.0.1, for tests of what a server does with exact framing or a client that leaves.
import net from "node:net";

/**
 * Sends `bytes` and resolves with all that comes back before the connection closes. `leave`: the client's side is
 * ended right after the bytes (a client that goes away); otherwise it stays open (the last request says
 * Connection: close, or the server closes).
 */
export function rawExchange(port: number, bytes: string, { leave = false }: { leave?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let got = "";
    socket.on("data", (d: Buffer) => (got += d.toString("latin1")));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
    if (leave) socket.end(bytes);
    else socket.write(bytes);
  });
}
