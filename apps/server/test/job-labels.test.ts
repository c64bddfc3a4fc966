import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';
import { recordingEngine, startServerRecordingRenders } from './helpers/recording-engine.ts';

/**
 * Issue #13: a job says who is in the video, and its file downloads under a name a person can use,
 * `<project>-<actor>.mp4`, ASCII only, as an attachment.
 */
describe.each(TEST_DIALECTS)('job labels and download names (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServerRecordingRenders(
      dialect,
      recordingEngine({ progress: [50, 'Rendering the video'], content: () => 'mp4', poster: true }),
    );
  });
  afterAll(() => server.close());

  it("names the project's actor on the job and in the download name", async () => {
    const user = await registerUser(server);
    const projectId = await createProjectOverHttp(server, user, 'Crème Glow — launch');
    const avatars = (await (await fetch(`${server.url}/api/avatars/`, { headers: user.authHeader })).json()) as Array<{
      id: number;
      name: string | null;
    }>;
    const actor = avatars[0]!;
    const picked = await fetch(`${server.url}/api/projects/${projectId}/selected-characters`, {
      method: 'POST',
      headers: { ...user.authHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ character_ids: [actor.id] }),
    });
    expect(picked.status).toBe(200);
    const queued = await fetch(`${server.url}/api/jobs/${projectId}/queue`, {
      method: 'POST',
      headers: user.authHeader,
    });
    expect(queued.status).toBe(201);
    const { id } = (await queued.json()) as { id: number };

    const job = await waitFor(async () => {
      const j = (await (await fetch(`${server.url}/api/jobs/${id}`, { headers: user.authHeader })).json()) as {
        status: string;
        actor_name: string | null;
        variant_label: string | null;
        download_url: string | null;
        video_url: string | null;
        logs: string[];
      };
      return j.status === 'completed' ? j : null;
    });
    const actorName = actor.name ?? `Actor ${actor.id}`;
    expect(job.actor_name).toBe(actorName);
    expect(job.variant_label).toBeNull();
    const slug = actorName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    expect(job.download_url).toBe(`${job.video_url}?download=creme-glow-launch-${slug}.mp4`);
    // One line per stage: the engine's repeated progress reports collapse into one.
    expect(job.logs.filter((l) => l.startsWith('Rendering the video'))).toHaveLength(1);

    const file = await fetch(`${server.url}/api/${job.download_url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="creme-glow-launch-${slug}.mp4"`);
    const inline = await fetch(`${server.url}/api/${job.video_url}`);
    expect(inline.headers.get('content-disposition')).toBe('inline');
    // A name the server did not make (quotes, slashes) is refused rather than echoed into a header.
    const forged = await fetch(`${server.url}/api/${job.video_url}?download=${encodeURIComponent('a"b/../c.mp4')}`);
    expect(forged.status).toBe(422);
  });
});
