// The JSON-RPC messages of a Streamable HTTP exchange: a request body holds one message or a batch (an array);
// an answer is JSON, or an event stream whose `data:` events each hold one message.

export type Message = Record<string, any>;

/** The messages of a request body; undefined when it is not JSON. */
export function requestMessages(text: string): Message[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.map((m) => (m && typeof m === "object" && !Array.isArray(m) ? (m as Message) : { invalid: m }));
}

/**
 * The events of a text/event-stream: the `data:` lines of each event joined by newlines (SSE's own rule). An event
 * whose data is empty is not dispatched (SSE), as a priming event (an id and a retry hint, `data:` alone) is not.
 */
export function sseData(text: string): string[] {
  const out: string[] = [];
  let data: string[] = [];
  const dispatch = () => {
    const joined = data.join("\n");
    if (joined !== "") out.push(joined);
    data = [];
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") dispatch();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  dispatch();
  return out;
}

/** The JSON-RPC messages of an answer, and the problems of any that are not JSON. */
export function responseMessages(text: string, contentType: string | undefined): { messages: Message[]; problems: string[] } {
  const problems: string[] = [];
  const messages: Message[] = [];
  const take = (chunk: string, where: string) => {
    try {
      const v = JSON.parse(chunk) as unknown;
      for (const m of Array.isArray(v) ? v : [v]) if (m && typeof m === "object") messages.push(m as Message);
    } catch {
      problems.push(`${where} is not JSON: ${JSON.stringify(chunk.slice(0, 80))}`);
    }
  };
  if (/^text\/event-stream/i.test(contentType ?? "")) sseData(text).forEach((d, i) => take(d, `event ${i + 1}`));
  else if (text.trim() !== "") take(text, "the body");
  return { messages, problems };
}

/** Whether a message is a JSON-RPC 2.0 response (a result or an error with an id). */
export const isResponse = (m: Message): boolean => "result" in m || "error" in m;
