// Text a client or a target sent, made safe to print on one log line: control characters (C0, DEL, C1, so
// newlines and ANSI escapes), the Unicode line and paragraph separators and the bidirectional controls (which
// reorder what a reader sees) are written as escapes, so no input can forge, recolour or hide a log line.
// Shared: the proxy uses it for every line it prints; the mocks can import it for theirs.

const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u061c\u200e\u200f]/g;
const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `s` with every unsafe character escaped (`\n`, `\r`, `\t`, otherwise `\u001b` style). */
export function printable(s: string): string {
  return s.replace(unsafe, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Like printable, but keeps line breaks: for a block of text (a body in a report) printed as several lines. */
export function printableBlock(s: string): string {
  return s.split(/\r?\n/).map(printable).join("\n");
}
