// Starting to listen, for every mock: resolves once the port is bound, rejects with a one-line error that says
// what to do (a taken port, a host that is not this machine's) instead of an 'error' event that kills the process.
import type net from "node:net";

export function listen(server: net.Server, port: number, host: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) => {
      server.off("listening", done);
      const where = `${host}:${port}`;
      const why =
        err.code === "EADDRINUSE" ? `port ${port} on ${host} is already in use (EADDRINUSE); stop what uses it or pick another port`
        : err.code === "EACCES" ? `no permission to listen on ${where} (EACCES); use a port above 1023`
        : err.code === "EADDRNOTAVAIL" || err.code === "ENOTFOUND" ? `${host} is not an address of this machine (${err.code})`
        : `cannot listen on ${where}: ${err.message.split("\n")[0]}`;
      reject(new Error(`${what}: ${why}`));
    };
    const done = () => {
      server.off("error", fail);
      resolve();
    };
    server.once("error", fail);
    server.once("listening", done);
    server.listen(port, host);
  });
}
