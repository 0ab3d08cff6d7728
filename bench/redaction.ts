// `npm run bench:redaction`: what redaction costs per new secret — the proxy learns every token a client sends
// (1,000 and more distinct ones) and must not pay a rebuild per token. The same work with one token learned over
// and over is the baseline, measured in the same run: learn a token, then redact a few answers that carry it.
// REDACTION_TOKENS (default 1000) requests per phase, REDACTION_ROUNDS (default 7) rounds alternating which phase
// goes first; medians of CPU time. Aim: distinct ÷ same at most 3 (moved here from test/proxy-hostile.test.ts,
// where a CPU ratio on a busy host decided a test; the test keeps the machine-independent count of work).
import { randomBytes } from "node:crypto";
import { Recorder } from "../proxy/recorder.js";

const n = Number(process.env.REDACTION_TOKENS ?? 1000);
const rounds = Number(process.env.REDACTION_ROUNDS ?? 7);
const aim = 3;

/** CPU ms to learn each token and redact three texts that carry it, as the proxy does for one exchange. */
function phase(tokens: readonly string[]): number {
  const recorder = new Recorder();
  const texts = (t: string) => [`{"brand":"${t}","note":"seen"}`, `Bearer ${t}`, `GET /v1/brands/${t}?access_token=${t}`];
  const before = process.cpuUsage();
  let kept = 0;
  for (const t of tokens) {
    recorder.learnSecret(t);
    for (const text of texts(t)) kept += recorder.text(text).length;
  }
  const used = process.cpuUsage(before);
  if (kept === 0) throw new Error("nothing redacted");
  return (used.user + used.system) / 1000;
}

const token = () => `tok_SECRET_${randomBytes(8).toString("hex")}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const same: number[] = [];
const distinct: number[] = [];
phase(Array.from({ length: n }, token)); // warm the JIT
for (let r = 0; r < rounds; r++) {
  const one = token();
  const runs: [number[], string[]][] = [
    [same, Array.from({ length: n }, () => one)],
    [distinct, Array.from({ length: n }, token)],
  ];
  if (r % 2) runs.reverse();
  for (const [into, tokens] of runs) into.push(phase(tokens));
}
const ratio = median(distinct) / median(same);
console.log(`redaction, ${n} requests: one token ${median(same).toFixed(1)} ms CPU, ${n} distinct tokens ${median(distinct).toFixed(1)} ms CPU (medians of ${rounds}); ${ratio.toFixed(2)}× (aim ≤ ${aim}×)`);
process.exitCode = ratio <= aim ? 0 : 1;
