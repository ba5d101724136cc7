// Reads a server-sent event stream from a fetch response (EventSource cannot POST or send a body): splits
// the byte stream into events and hands each `{id, event, data}` to the caller as it arrives.

export interface StreamEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** Reads `res.body` to its end (or until `signal` aborts), calling `onEvent` per complete event. */
export async function readEventStream(res: Response, onEvent: (e: StreamEvent) => void): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const e = parseBlock(block);
      if (e) onEvent(e);
      cut = buffer.indexOf('\n\n');
    }
  }
}

function parseBlock(block: string): StreamEvent | undefined {
  let id = 0;
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue; // keep-alive comment
    if (line.startsWith('id: ')) id = Number(line.slice(4));
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  if (!data) return undefined;
  try {
    return { id, event, data: JSON.parse(data) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}
