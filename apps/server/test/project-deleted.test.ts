import { Job } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { serverForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp } from './helpers/factories.ts';

/** A project deleted while its jobs remain: the jobs keep their videos and say the project is deleted. */
describe.each(TEST_DIALECTS)('jobs of a deleted project (%s)', (dialect) => {
  const t = serverForBlock(dialect);

  const getJob = async (id: number) =>
    Job.parse(await (await fetch(`${t.server.url}/api/jobs/${id}`, { headers: t.user.authHeader })).json());

  it('keeps the job, its name and its video, and marks the project deleted', async () => {
    const projectId = await createProjectOverHttp(t.server, t.user, 'Gone soon');
    const queued = await fetch(`${t.server.url}/api/jobs/${projectId}/queue`, {
      method: 'POST',
      headers: t.user.authHeader,
    });
    expect(queued.status).toBe(201);
    const jobId = ((await queued.json()) as { id: number }).id;
    // As if its render had finished (the runner does not run here): a stored video on a completed job.
    const key = `users/${t.user.id}/videos/done-${jobId}.mp4`;
    await t.server.ctx.files.put(key, Buffer.from('the video'), 'video/mp4');
    await t.server.ctx.db.kysely
      .updateTable('jobs')
      .set({ status: 'completed', progress: 100, video_key: key })
      .where('id', '=', jobId)
      .execute();
    expect(await getJob(jobId)).toMatchObject({ project_id: projectId, project_deleted: false });

    expect(
      (await fetch(`${t.server.url}/api/projects/${projectId}`, { method: 'DELETE', headers: t.user.authHeader }))
        .status,
    ).toBe(204);

    const after = await getJob(jobId);
    expect(after).toMatchObject({
      project_id: null,
      project_name: 'Gone soon',
      project_deleted: true,
      status: 'completed',
      video_url: `static/${key}`,
    });
    const list = Job.array().parse(
      await (await fetch(`${t.server.url}/api/jobs/`, { headers: t.user.authHeader })).json(),
    );
    expect(list.find((j) => j.id === jobId)?.project_deleted).toBe(true);
    const video = await fetch(`${t.server.url}/api/${after.video_url}`);
    expect(video.status).toBe(200);
    expect(await video.text()).toBe('the video');
  });
});
