import { PublicStats } from '@hookreel/contracts';
import { publicStats } from '../../services/jobs/index.ts';
import type { RouteModule } from './index.ts';

/**
 * GET /api/stats, public: the figures the landing page and the FAQs quote (measured render time, actors,
 * languages). Aggregates only, nothing about any user.
 */
export const statsRoutes: RouteModule = async (api, { ctx }) => {
  api.get(
    '/stats',
    {
      schema: {
        tags: ['stats'],
        description: 'Measured render speed and catalogue size of this installation.',
        response: { 200: PublicStats },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'public, max-age=60');
      return publicStats(ctx);
    },
  );
};
