// Which operation of the contract a method and path name: shared by the suite's reply judge (replies.ts) and the
// contract proxy (proxy/rest-judge.ts), so both judge an answer as the answer of the same operation.
import { operations, type Operation } from "./contract.js";

export interface Matched {
  op: Operation;
  params: Record<string, string>;
}

const routes = Object.values(operations).map((op) => {
  const names: string[] = [];
  const source = op.template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{.+\}$/.test(part) ? (names.push(part.slice(1, -1)), "([^/]+)") : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("");
  // Exactly the template: a path with a trailing slash is another path (the reference answers it 404), never judged
  // as this operation's.
  return { op, names, re: new RegExp(`^${source}$`) };
});

/** The last match: the proxy's judge and the reply's place (places.ts) ask for the same exchange in turn. */
let last: { method: string; path: string; matched: Matched | undefined } | undefined;

/** The contract operation a method and path name, with its path parameters (frozen: one answer may be shared). */
export function matchOperation(method: string, path: string): Matched | undefined {
  if (last?.method === method && last.path === path) return last.matched;
  const matched = match(method, path);
  if (matched) Object.freeze(Object.freeze(matched).params);
  last = { method, path, matched };
  return matched;
}

function match(method: string, path: string): Matched | undefined {
  const pathname = path.split("?")[0]!;
  for (const r of routes) {
    if (r.op.method !== method.toUpperCase()) continue;
    const m = r.re.exec(pathname);
    if (!m) continue;
    try {
      return { op: r.op, params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
    } catch {
      // A parameter that is not valid percent-encoding names nothing the contract knows; the raw text stands for it.
      return { op: r.op, params: Object.fromEntries(r.names.map((n, i) => [n, m[i + 1]!])) };
    }
  }
  return undefined;
}
