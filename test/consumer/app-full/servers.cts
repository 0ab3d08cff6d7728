// CommonJS: require() the mocks (Node's require(esm)), start them, one request each, stop.
import mock = require("ideas-contract/mock");
import rest = require("ideas-contract/rest");
import mocks = require("./mocks.js");

async function main(): Promise<void> {
  const running = await mocks.startMocks(mock, rest.validators, { prism: false, timeScale: 0.001 });
  running.observed.stopped = await running.stop();
  console.log(JSON.stringify({ module: "cjs", observed: running.observed }));
}
main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
