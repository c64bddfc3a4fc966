import { ActorLook, ErrorResponse, IdParam, PaymentRequiredBody } from '@hookreel/contracts';
import * as actors from '../../services/actors/index.ts';
import { IdempotencyHeaders, sendIdempotent } from '../idempotency.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 404: ErrorResponse, 422: ErrorResponse };
const paid = { ...errors, 402: PaymentRequiredBody };

/**
 * An actor's once-per-user upgrades (docs/product.md#photoreal-catalogue, decision 216): a catalogue actor made
 * photoreal, and real mouth stills. Any actor the caller can see; another user's creator is 404.
 */
export const actorLookRoutes: RouteModule = async (api, { ctx, requireUser }) => {
  api.get(
    '/avatars/:id/look',
    {
      onRequest: requireUser,
      schema: { tags: ['avatars'], params: IdParam, response: { 200: ActorLook, ...errors } },
    },
    async (request) => actors.getActorLook(ctx, request.userId, request.params.id),
  );

  /** A once-per-actor paid step: idempotent, answering the actor's look. */
  const lookStep = (
    path: string,
    description: string,
    make: (userId: number, avatarId: number) => Promise<ActorLook>,
  ) =>
    api.post(
      path,
      {
        onRequest: requireUser,
        schema: {
          tags: ['avatars'],
          params: IdParam,
          headers: IdempotencyHeaders,
          description,
          response: { 200: ActorLook, ...paid },
        },
      },
      async (request, reply) =>
        sendIdempotent(ctx, request, reply, request.params, () => make(request.userId, request.params.id)),
    );

  lookStep(
    '/avatars/:id/photoreal',
    'Makes a catalogue actor photoreal for the caller: one image by the images provider, charged ' +
      '`prices.photorealActor` once; Draft videos with the actor then animate that still. Already made or ' +
      'being made: answers the look and charges nothing. 422 for an actor that is not a catalogue one or ' +
      'without an images provider.',
    (userId, id) => actors.makePhotoreal(ctx, userId, id),
  );

  lookStep(
    '/avatars/:id/mouth-stills',
    "Makes the actor's real mouth stills for the caller from their photo (an own creator's upload, or a " +
      'catalogue actor made photoreal): one image edit per mouth shape, charged `prices.mouthStill` each, ' +
      'once. Already made or being made: answers the look and charges nothing. 422 without an image-edit ' +
      'provider or a photo with a face.',
    (userId, id) => actors.makeMouthStills(ctx, userId, id),
  );
};
