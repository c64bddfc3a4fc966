import archiver from 'archiver';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';

/** What goes into a download zip: stored files under their names, then one generated text file (a manifest). */
export interface ZipPlan {
  fileName: string;
  entries: { key: string; name: string }[];
  manifest: string;
  manifestName?: string;
}

/**
 * Streams a zip of stored files. Files are appended one at a time as the archive drains, so only one is open at
 * once; a file that vanished is left out rather than failing the whole download.
 */
export function sendZip(ctx: Pick<AppContext, 'files'>, request: FastifyRequest, reply: FastifyReply, plan: ZipPlan) {
  const zip = archiver('zip', { zlib: { level: 1 } });
  zip.on('warning', (err) => request.log.warn({ err }, 'zip warning'));
  zip.on('error', (err) => {
    request.log.error({ err }, 'zip failed');
    zip.destroy(err);
  });
  reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${plan.fileName}"`)
    .header('cache-control', 'private, no-store');
  void (async () => {
    try {
      for (const entry of plan.entries) {
        const file = await ctx.files.get(entry.key);
        if (!file) continue;
        zip.append(file.body, { name: entry.name });
      }
      zip.append(plan.manifest, { name: plan.manifestName ?? 'manifest.csv' });
      await zip.finalize();
    } catch (err) {
      zip.destroy(err as Error);
    }
  })();
  return reply.send(zip);
}
