// A header of an exchange as one string: Node keeps a repeated header as a list, the judges read it as one value.
import type { Exchange } from "./types.js";

export const headerOf = (h: Exchange["requestHeaders"], name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v.join(", ") : v;
};
