import { NotifyRequest, NotifyResponse, User } from '@hookreel/contracts';
import * as users from '../../services/account/index.ts';
import type { RouteModule } from './index.ts';

/** /api/user/me: the signed-in person's own account. */
export const userRoutes: RouteModule = async (api, { ctx, requireUser, requireSession }) => {
  const tags = ['user'];
  const security = [{ bearer: [] }];

  api.get(
    '/user/me',
    { preHandler: requireUser, schema: { tags, security, response: { 200: User } } },
    async (request) => users.getCurrentUser(ctx, request.userId),
  );

  api.put(
    '/user/me/notify',
    { preHandler: requireUser, schema: { tags, security, body: NotifyRequest, response: { 200: NotifyResponse } } },
    async (request) => users.setNotify(ctx, request.userId, request.body.notify),
  );

  api.delete('/user/me', { preHandler: requireSession, schema: { tags, security } }, async (request, reply) => {
    await users.deleteAccount(ctx, request.userId);
    return reply.status(204).send();
  });
};
