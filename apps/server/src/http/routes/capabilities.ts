import { Capabilities } from '@hookreel/contracts';
import type { RouteModule } from './index.ts';

/**
 * GET /api/capabilities: which generation stages are remote here, and whether Realistic is available and why not.
 * Public: it says nothing about keys or provider addresses, and the landing page may show it.
 */
export const capabilityRoutes: RouteModule = async (api, { ctx }) => {
  api.get('/capabilities', { schema: { tags: ['capabilities'], response: { 200: Capabilities } } }, async () =>
    ctx.media.capabilities(),
  );
};
