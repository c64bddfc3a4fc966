import { JobEvent } from '@hookreel/contracts';

export interface JobEventStream {
  /** Every event received so far, parsed with the contract, in order. */
  readonly events: JobEvent[];
  /** Ends the stream and waits until its reader has stopped. */
  close(): Promise<void>;
}

/** A ticket for the event stream, fetched as the web app does (POST with the access token). */
export async function eventsTicket(baseUrl: string, accessToken: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/jobs/events/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (res.status !== 200) throw new Error(`the events ticket answered ${res.status}`);
  return ((await res.json()) as { ticket: string }).ticket;
}

/**
 * Opens a user's live job stream (GET /api/jobs/events, as a browser's EventSource does, with a short-lived
 * ticket in the query) and collects its events in the background. Throws unless the stream opens with 200.
 */
export async function openJobEvents(baseUrl: string, accessToken: string): Promise<JobEventStream> {
  const controller = new AbortController();
  const ticket = await eventsTicket(baseUrl, accessToken);
  const res = await fetch(`${baseUrl}/api/jobs/events?ticket=${ticket}`, { signal: controller.signal });
  if (res.status !== 200 || !res.body) {
    controller.abort();
    throw new Error(`the job event stream answered ${res.status}`);
  }
  const events: JobEvent[] = [];
  const body = res.body;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      // An event ends at a blank line; its payload is the `data: ` line (comments and keep-alives have none).
      for (let i; (i = buf.indexOf('\n\n')) >= 0;) {
        const data = buf
          .slice(0, i)
          .split('\n')
          .find((l) => l.startsWith('data: '));
        buf = buf.slice(i + 2);
        if (data) events.push(JobEvent.parse(JSON.parse(data.slice(6))));
      }
    }
  })().catch(() => undefined); // the abort in close() ends the loop with an AbortError
  return {
    events,
    async close() {
      controller.abort();
      await reading;
    },
  };
}
