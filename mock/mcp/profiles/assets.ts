// Logos the mock "stored": a plain PNG of the logo's size and colour, served on the mock's own origin so logo
// addresses resolve (and stop resolving once the brand is erased). Built in memory; nothing is fetched.
import { encodePng } from "../../png.js";

/** A solid-colour PNG of the logo's size, from a #RRGGBB colour. */
export function solidPng(width: number, height: number, hex: string): Buffer {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  return encodePng(width, height, { r, g, b });
}
