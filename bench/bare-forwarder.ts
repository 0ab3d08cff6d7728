// bench:proxy's reference: the least a Node forwarder does (node:http server, a keep-alive pool towards the
// upstream, bodies piped), with no checks, no copies and no judging. Its CPU per request is the floor a proxy
// built on node:http starts from. For measuring only: `node --import tsx bench/bare-forwarder.ts <port> <upstream>`
// prints "ready" once it listens, and stops on SIGTERM or SIGINT.
import http from "node:http";

const [port, upstream] = [Number(process.argv[2]), new URL(process.argv[3]!)];
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const server = http.createServer((req, res) => {
  const up = http.request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  up.on("error", () => res.destroy());
  req.pipe(up);
});
server.listen(port, "127.0.0.1", () => console.log("ready"));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => process.exit(0));
