import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { VoiceId, VoiceList } from '@hookreel/contracts';
import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { listVoices, voiceSample } from '../../services/voices/index.ts';
import type { RouteModule } from './index.ts';

/**
 * GET /api/voices: the voices this server can speak with (language, accent, gender, engine, licence, sample).
 * GET /api/voices/:id/sample: that voice's short sample (WAV), rendered once and kept. Both public, like
 * /api/capabilities: choosing a voice costs nothing and says nothing about keys.
 */
export const voiceRoutes: RouteModule = async (api, { ctx }) => {
  api.get('/voices', { schema: { tags: ['voices'], response: { 200: VoiceList } } }, async () => listVoices(ctx));

  api.get(
    '/voices/:id/sample',
    { schema: { tags: ['voices'], params: z.object({ id: VoiceId }) } },
    async (req, reply) => {
      const file = await voiceSample(ctx, req.params.id);
      if (!file) throw notFound(`No voice ${req.params.id} on this server.`);
      const { size } = await stat(file);
      return reply
        .header('content-type', 'audio/wav')
        .header('content-length', size)
        .header('cache-control', 'public, max-age=3600')
        .send(createReadStream(file));
    },
  );
};
