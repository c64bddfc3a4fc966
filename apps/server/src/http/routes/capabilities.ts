import { Capabilities } from '@hookreel/contracts';
import { engineConfig } from '../../media/engine.ts';
import { capabilitiesOf } from '../../services/capabilities.ts';
import type { RouteModule } from './index.ts';

/**
 * GET /api/capabilities: which generation stages are remote here, and whether Realistic is available and why not.
 * Public: it says nothing about keys or provider addresses, and the landing page may show it.
 */
export const capabilityRoutes: RouteModule = async (api) => {
  api.get('/capabilities', { schema: { tags: ['capabilities'], response: { 200: Capabilities } } }, async () =>
    capabilitiesOf(engineConfig()),
  );
};
