// A JSON-RPC batch, under the protocol versions that have them (2025-03-26 and older), answered as JSON-RPC 2.0
// says: an array with one response per request, even for a one-element batch (the SDK's transport answers that
// with a bare object), an invalid member answered in place with -32600 and id null, notifications and responses
// unanswered (all of them: 202, no body). Members go one at a time to an SDK Server over an in-memory transport.
//
// Two requests with the same id: the later one is refused with -32600 under its id. MCP's base protocol says "The
// request ID MUST NOT have been previously used by the requestor within the same session" (2025-03-26, Basic,
// Requests), and a response carrying an id that was sent twice cannot be matched; every request still gets its
// answer (JSON-RPC 2.0, Batch: one Response per Request). An initialize is refused in a batch (2025-03-26,
// Lifecycle: "The initialize request MUST NOT be part of a JSON-RPC batch").
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isObject, memberRefusal, type RpcError } from "./jsonrpc.js";

/** A transport that hands one message at a time to the server and resolves with the response to it. */
class InMemoryTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #waiting = new Map<string | number, (answer: unknown) => void>();

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    const id = (message as { id?: string | number }).id;
    // Only responses are awaited; the server's own notifications and requests (progress, logging) have no taker.
    if (id !== undefined && ("result" in message || "error" in message)) this.#waiting.get(id)?.(message);
  }
  /** Delivers a request and waits for its response. */
  ask(request: JSONRPCMessage & { id: string | number }): Promise<unknown> {
    return new Promise((resolve) => {
      this.#waiting.set(request.id, (answer) => {
        this.#waiting.delete(request.id);
        resolve(answer);
      });
      this.onmessage?.(request);
    });
  }
  tell(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

const invalid = (id: string | number | null, message: string): RpcError => ({ jsonrpc: "2.0", id, error: { code: -32600, message } });

/** The answers to a batch's members, in order; empty when it holds no request. `server` is fresh and unconnected. */
export async function answerBatch(server: Server, batch: readonly unknown[]): Promise<unknown[]> {
  const transport = new InMemoryTransport();
  await server.connect(transport);
  const answers: unknown[] = [];
  const seen = new Set<string | number>();
  try {
    for (const member of batch) {
      const refused = memberRefusal(member);
      const isRequest = isObject(member) && "method" in member && "id" in member;
      if (refused) {
        // A notification with bad params gets no answer, and is not delivered either.
        if (isRequest || refused.body.error.code === -32600) answers.push(refused.body);
        continue;
      }
      const m = member as JSONRPCMessage & { id?: string | number; method?: string };
      if (!isRequest) {
        transport.tell(m);
        continue;
      }
      const id = m.id!;
      if (seen.has(id)) {
        answers.push(invalid(id, "Invalid Request: this id is already used by an earlier request in the batch; ids must be unique."));
        continue;
      }
      seen.add(id);
      if (m.method === "initialize") {
        answers.push(invalid(id, "Invalid Request: initialize must not be part of a JSON-RPC batch."));
        continue;
      }
      answers.push(await transport.ask(m as JSONRPCMessage & { id: string | number }));
    }
  } finally {
    await server.close();
  }
  return answers;
}
