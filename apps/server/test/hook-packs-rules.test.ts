import { INSUFFICIENT_CREDITS, MESSAGES, VALIDATION } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, toHundredths } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { serverOnlyForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser } from './helpers/factories.ts';
import {
  availableCredits,
  call,
  drainCredits,
  fakeApprovedPreview,
  packWithEverything,
  productForm,
  productPhoto,
  uploadProductPhoto,
} from './hook-helpers.ts';

describe('hook pack rules (sqlite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers the documented messages for 0 and 7 character types, blank descriptions and a blank hook', async () => {
    const user = await registerUser(server);
    const { json: pack } = await call(server, user, 'POST', '/api/hooks', { language: 'english', accent: 'american' });
    const batch = (body: unknown) =>
      call(server, user, 'POST', `/api/hooks/character-types/batch?hook_pack_id=${pack.id}`, body);

    const none = await batch([]);
    expect(none.status).toBe(422);
    expect(none.json.detail).toBe(VALIDATION.characterTypesMin);

    const seven = await batch(Array.from({ length: 7 }, (_, i) => ({ description: `type ${i}`, order_index: i })));
    expect(seven.status).toBe(422);
    expect(seven.json.detail).toBe(VALIDATION.characterTypesMax);

    const blank = await batch([
      { description: 'runner', order_index: 0 },
      { description: '   ', order_index: 1 },
    ]);
    expect(blank.status).toBe(422);
    expect(blank.json.detail).toBe(VALIDATION.characterTypesBlank);

    const six = await batch(Array.from({ length: 6 }, (_, i) => ({ description: `type ${i}`, order_index: 5 - i })));
    expect(six.status).toBe(200);
    expect(six.json.map((t: { order_index: number }) => t.order_index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(six.json.every((t: { id: number }) => Number.isInteger(t.id))).toBe(true);
    // A second batch replaces the first.
    const one = await batch([{ description: 'gym coach', order_index: 0 }]);
    expect(one.json).toHaveLength(1);
    expect((await call(server, user, 'GET', `/api/hooks/${pack.id}`)).json.character_types).toHaveLength(1);

    const hook = await call(server, user, 'PUT', `/api/hooks/${pack.id}`, { message: '   ' });
    expect(hook.status).toBe(422);
    expect(hook.json.detail).toBe(VALIDATION.hookRequired);

    const details = await call(server, user, 'PUT', `/api/hooks/${pack.id}`, { product_details: '' });
    expect(details.status).toBe(422);
    expect(details.json.detail).toBe(VALIDATION.productDescription);

    // A status is a wizard step the pack must have reached (server-rules.test.ts): the product comes first.
    expect((await uploadProductPhoto(server, user, pack.id)).status).toBe(200);
    const ok = await call(server, user, 'PUT', `/api/hooks/${pack.id}`, {
      message: 'Glow all day',
      status: 'message_created',
      language: 'spanish',
      accent: 'neutral',
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ message: 'Glow all day', status: 'message_created', language: 'spanish' });
  });

  it('refuses to queue videos without approved previews (422, the documented message)', async () => {
    const user = await registerUser(server);
    const p = await packWithEverything(server, user);
    const res = await call(server, user, 'POST', `/api/jobs/hook-pack/${p.id}/queue-videos`);
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe(VALIDATION.noApprovedPreviews);
    // Variants naming a character without an approved preview are refused too.
    await fakeApprovedPreview(server, p.id, p.characterId);
    const other = (await call(server, user, 'GET', `/api/hooks/characters/${p.id}`)).json[1].id as number;
    const bad = await call(server, user, 'POST', `/api/jobs/hook-pack/${p.id}/queue-videos`, {
      variants: [{ index: 1, generated_character_id: other, hook_text: 'Hi' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe(VALIDATION.noApprovedCharacters);
  });

  it('rejects an upload that is not an image and needs a product before analysis', async () => {
    const user = await registerUser(server);
    const { json: pack } = await call(server, user, 'POST', '/api/hooks', {});
    const step1 = await call(server, user, 'POST', `/api/hooks/process-step1?hook_pack_id=${pack.id}`);
    expect(step1.status).toBe(422);
    const res = await call(
      server,
      user,
      'POST',
      '/api/hooks/upload-product',
      productForm(pack.id, Buffer.from('<svg/>')),
    );
    expect(res.status).toBe(415);
    expect(res.json.detail).toBe(VALIDATION.imageRequired);
  });

  it('answers 402 with the documented messages when credits are short, and moves nothing', async () => {
    const user = await registerUser(server);
    const p = await packWithEverything(server, user);
    const finished = await fakeApprovedPreview(server, p.id, p.characterId);
    // 5 credits do not buy 12 videos: nothing is created, nothing is held.
    await drainCredits(server, user.id);
    await grantCredits(server.ctx.db.kysely, user.id, toHundredths(5), 'test grant');
    const before = await availableCredits(server, user.id);
    const videos = await call(server, user, 'POST', `/api/jobs/hook-pack/${p.id}/queue-videos`);
    expect(videos.status).toBe(402);
    expect(videos.json.detail).toBe(INSUFFICIENT_CREDITS.videos);
    expect(await availableCredits(server, user.id)).toBe(before);
    expect((await call(server, user, 'GET', `/api/jobs/hook-pack/${p.id}/jobs`)).json).toEqual([]);
    expect((await call(server, user, 'GET', `/api/hooks/${p.id}`)).json.status).not.toBe('generating_videos');

    await drainCredits(server, user.id);
    // New orders (the pack's type already has its people, which a repeat would be refused for: 409).
    const chars = await call(
      server,
      user,
      'POST',
      `/api/hooks/generate-characters?hook_pack_id=${p.id}&count=4&description=skater%20dad`,
    );
    expect(chars.status).toBe(402);
    expect(chars.json.detail).toBe(INSUFFICIENT_CREDITS.characters);
    // The rolled-back request left no pending characters behind.
    const characters = (await call(server, user, 'GET', `/api/hooks/characters/${p.id}`)).json as Array<{ id: number }>;
    expect(characters).toHaveLength(4);

    const previews = await call(server, user, 'POST', '/api/hooks/generate-preview', {
      hook_pack_id: p.id,
      character_ids: [characters.find((c) => c.id !== p.characterId)!.id],
    });
    expect(previews.status).toBe(402);
    expect(previews.json.detail).toBe(INSUFFICIENT_CREDITS.previews);
    // A finished preview (the first one's job still waits: regenerating that would be refused with 409).
    const regen = await call(server, user, 'POST', `/api/hooks/preview/${finished}/regenerate?reason=product`);
    expect(regen.status).toBe(402);
    expect(regen.json.detail).toBe(INSUFFICIENT_CREDITS.previews);
  });

  it('selects, toggles and filters characters', async () => {
    const user = await registerUser(server);
    const p = await packWithEverything(server, user);
    const all = (await call(server, user, 'GET', `/api/hooks/characters/${p.id}`)).json;
    expect(all).toHaveLength(4);
    expect(all.every((c: { url: string; prompt: string }) => c.url === '' && c.prompt === 'young woman runner')).toBe(
      true,
    );
    expect(
      (await call(server, user, 'POST', `/api/hooks/select-character/${all[0].id}?selected=true`)).json.selected,
    ).toBe(true);
    expect((await call(server, user, 'POST', `/api/hooks/select-character/${all[1].id}`)).json.selected).toBe(true);
    expect((await call(server, user, 'POST', `/api/hooks/select-character/${all[1].id}`)).json.selected).toBe(false);
    const selected = (await call(server, user, 'GET', `/api/hooks/characters/${p.id}?selected=true`)).json;
    expect(selected.map((c: { id: number }) => c.id)).toEqual([all[0].id]);
    // 'Generate More' with a description: 4 more, new people (next indexes of that description).
    const more = await call(
      server,
      user,
      'POST',
      `/api/hooks/generate-characters?hook_pack_id=${p.id}&count=4&description=skater%20dad`,
    );
    expect(more.status).toBe(200);
    expect(more.json.characters.map((c: { prompt: string }) => c.prompt)).toEqual(Array(4).fill('skater dad'));
    expect((await call(server, user, 'GET', `/api/hooks/characters/${p.id}`)).json).toHaveLength(8);
  });
});

describe.each(TEST_DIALECTS)('hook packs (%s)', (dialect) => {
  const t = serverOnlyForBlock(dialect);

  it('another user gets 404 on every call: hides every pack, character and preview of another user', async () => {
    const owner = await registerUser(t.server);
    const other = await registerUser(t.server);
    const p = await packWithEverything(t.server, owner);
    await fakeApprovedPreview(t.server, p.id, p.characterId);
    const ownerCredits = await availableCredits(t.server, owner.id);
    const otherCredits = await availableCredits(t.server, other.id);

    const editorForm = new FormData();
    editorForm.append('hook_pack_id', String(p.id));
    editorForm.append('generated_character_id', String(p.characterId));
    editorForm.append('position_x', '300');
    editorForm.append(
      'mask_image',
      new Blob([new Uint8Array(await productPhoto({ transparent: true }))], { type: 'image/png' }),
      'mask.png',
    );

    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/hooks/${p.id}`],
      ['PUT', `/api/hooks/${p.id}`, { message: 'mine now' }],
      ['POST', '/api/hooks/upload-product', productForm(p.id, await productPhoto({ transparent: true }))],
      ['POST', `/api/hooks/process-step1?hook_pack_id=${p.id}`],
      ['POST', `/api/hooks/character-types/batch?hook_pack_id=${p.id}`, [{ description: 'x', order_index: 0 }]],
      ['POST', `/api/hooks/generate-characters?hook_pack_id=${p.id}&count=4`],
      ['POST', `/api/hooks/generate-characters?hook_pack_id=${p.id}&count=4&character_type_id=${p.typeId}`],
      ['GET', `/api/hooks/characters/${p.id}`],
      ['GET', `/api/hooks/characters/${p.id}?selected=true`],
      ['POST', `/api/hooks/select-character/${p.characterId}?selected=true`],
      ['POST', '/api/hooks/generate-preview', { hook_pack_id: p.id, character_ids: [p.characterId] }],
      ['POST', '/api/hooks/generate-preview', editorForm],
      ['PUT', `/api/hooks/preview/${p.previewId}`, { approved: true }],
      ['POST', `/api/hooks/preview/${p.previewId}/regenerate?reason=product`],
      ['POST', `/api/hooks/preview/${p.previewId}/regenerate?reason=person`],
      ['POST', `/api/jobs/hook-pack/${p.id}/queue-videos`],
      ['GET', `/api/jobs/hook-pack/${p.id}/jobs`],
      ['GET', `/api/hooks/${p.id}/download`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(t.server, other, method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      expect(typeof res.json?.detail).toBe('string');
    }
    expect((await call(t.server, other, 'GET', '/api/hooks')).json).toEqual([]);

    // Nothing of the owner's changed, and nobody paid for anything.
    const after = (await call(t.server, owner, 'GET', `/api/hooks/${p.id}`)).json;
    expect(after.message).toBe('Glow all day');
    expect(after.character_types.map((t: { description: string }) => t.description)).toEqual(['young woman runner']);
    expect(after.generated_characters).toHaveLength(4);
    expect(await availableCredits(t.server, owner.id)).toBe(ownerCredits);
    expect(await availableCredits(t.server, other.id)).toBe(otherCredits);
    // Without a token, 401.
    expect((await fetch(`${t.server.url}/api/hooks/${p.id}`)).status).toBe(401);
  });

  it('discarding a draft deletes a pack whose upload was refused, and keeps a pack that holds a product', async () => {
    const user = await registerUser(t.server);
    const { json: draft } = await call(t.server, user, 'POST', '/api/hooks', { name: 'Refused upload' });
    const svg = productForm(draft.id, Buffer.from('<svg/>'));
    expect((await call(t.server, user, 'POST', '/api/hooks/upload-product', svg)).status).toBe(415);

    expect((await call(t.server, user, 'DELETE', `/api/hooks/${draft.id}`)).status).toBe(204);
    expect((await call(t.server, user, 'GET', `/api/hooks/${draft.id}`)).status).toBe(404);
    const list = await call(t.server, user, 'GET', '/api/hooks');
    expect(list.json.map((p: { id: number }) => p.id)).not.toContain(draft.id);

    const { json: kept } = await call(t.server, user, 'POST', '/api/hooks', {});
    expect((await uploadProductPhoto(t.server, user, kept.id)).status).toBe(200);
    const refused = await call(t.server, user, 'DELETE', `/api/hooks/${kept.id}`);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(MESSAGES.hookPacks.notADraft);
    expect((await call(t.server, user, 'GET', `/api/hooks/${kept.id}`)).json.product_url).toBeTruthy();
  });
});
