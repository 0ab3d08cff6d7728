// The REST reference answers each request at one instant: a host that stalls between two readings of the clock
// (here every reading jumps 40 s, longer than a whole brand read) cannot make a create answer with work that has
// already ended. The seed: "POST /v1/brands returns at once with status reading"; a new batch is "thinking".
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClock } from "../mock/clock.js";
import { readDurationMs } from "../mock/rest/brands.js";
import { startRestMock, type RestMock } from "../mock/rest/server.js";
import { client, suiteStart, type Call } from "./support/rest-client.js";

let mock: RestMock;
let call: Call;
let wall = suiteStart;
beforeAll(async () => {
  const stallingHost = () => (wall += readDurationMs.max);
  mock = await startRestMock({ clock: createClock({ timeScale: 1, start: suiteStart, realNow: stallingHost }), seed: "one-instant" });
  call = client(mock);
});
afterAll(() => mock.stop());

it("answers a new brand as reading, however far the clock moves while the request is answered", async () => {
  const created = await call("POST", "/v1/brands", { body: { website: "https://www.alpha-bakery.com" } });
  expect(created.body.status).toBe("reading");
  expect(created.body.offerings).toEqual([]);
  // The next request is later: by then the read has ended.
  expect((await call("GET", `/v1/brands/${created.body.id}`)).body.status).not.toBe("reading");
});

it("answers a new batch as thinking, however far the clock moves while the request is answered", async () => {
  const brand = (await call("POST", "/v1/brands", { body: { name: "Harbour Loaf", description: "A bakery by the sea that bakes sourdough every morning." } })).body;
  while ((await call("GET", `/v1/brands/${brand.id}`)).body.status === "reading");
  const batch = await call("POST", "/v1/ideas", { body: { brand: brand.id } });
  expect(batch.body.status).toBe("thinking");
});
