// The boxed "Node.js 20 support is ending" notice Redocly CLI prints on every run under Node 20, with no setting
// that turns it off (scripts/lint-openapi.ts): found and left out of its output, and nothing else.

/** The lines of the text without the Node end-of-life box (a ╔…╝ block that says Node.js support is ending). */
export function withoutNodeNotice(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*╔═+╗\s*$/.test(lines[i]!)) {
      const end = lines.findIndex((l, j) => j > i && /^\s*╚═+╝\s*$/.test(l));
      if (end > i && lines.slice(i, end).some((l) => /Node\.js \d+ support is ending/.test(l))) {
        i = end;
        // The blank line the box is followed by.
        if (lines[i + 1]?.trim() === "") i++;
        continue;
      }
    }
    out.push(lines[i]!);
  }
  return out.join("\n");
}
