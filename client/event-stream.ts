/**
 * The event stream's wire format (GET /events, Server-Sent Events) read from a fetch body: no
 * Node-only imports, like the rest of the client.
 */

/** One event of the stream. `data` is its JSON (`at`, and draftId, accountId, platform on post events). */
export interface HeraldEvent {
  id: number;
  type: string;
  data: Record<string, any>;
}

/** Parses SSE frames from a byte stream; comments and `retry:` lines are skipped. */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<HeraldEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const onAbort = () => {
    void reader.cancel().catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read().catch((err: unknown) => {
        if (signal?.aborted) return { value: undefined, done: true as const };
        throw err;
      });
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: number | undefined;
        let type = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = Number(line.slice(4));
          else if (line.startsWith('event: ')) type = line.slice(7);
          else if (line.startsWith('data: ')) data += (data ? '\n' : '') + line.slice(6);
        }
        if (!data) continue;
        yield { id: id ?? 0, type, data: JSON.parse(data) as Record<string, any> };
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
