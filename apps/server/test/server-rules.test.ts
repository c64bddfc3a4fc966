import { CANVAS, VALIDATION } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { serverForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { avatarBounds } from './helpers/factories.ts';
import { formData } from './helpers/images.ts';
import { call, fakeApprovedPreview, packWithCharacters, uploadProductPhoto } from './hook-helpers.ts';

/**
 * Rules the editors enforce that the server holds too (issue #13): the avatar bounds' minimum box, one range for
 * the product's scale and rotation on every call that places it, and hook-pack statuses that move only forward,
 * through the wizard's steps, once the pack holds what each step needs.
 */

describe.each(TEST_DIALECTS)('rules the server holds (%s)', (dialect) => {
  const t = serverForBlock(dialect, { withAdmin: true });

  it('PUT /avatars/{id}/bounds refuses a box under 50 x 50 with 422 and keeps the old bounds', async () => {
    const avatar = (await call(t.server, t.admin, 'GET', '/api/avatars/')).json[0] as {
      id: number;
      width: number | null;
    };
    for (const [w, h] of [
      [20, 20],
      [49, 200],
      [200, 49],
    ] as const) {
      const res = await call(
        t.server,
        t.admin,
        'PUT',
        `/api/avatars/${avatar.id}/bounds`,
        avatarBounds(100, 100, w, h),
      );
      expect(res.status).toBe(422);
      expect(res.json.detail).toBe('Bounds must be at least 50 x 50 pixels');
    }
    expect((await call(t.server, t.admin, 'GET', '/api/avatars/')).json[0].width).toBe(avatar.width);
    const ok = await call(t.server, t.admin, 'PUT', `/api/avatars/${avatar.id}/bounds`, avatarBounds(100, 100, 50, 50));
    expect(ok.status).toBe(200);
    expect(ok.json.width).toBe(50);
  });

  it('POST /hooks/generate-preview refuses an out-of-range scale or rotation with 422, like /merge/single', async () => {
    const pack = await packWithCharacters(t.server, t.user, { name: 'Scale', count: 1 });
    const editor = (fields: Record<string, string>) =>
      call(
        t.server,
        t.user,
        'POST',
        '/api/hooks/generate-preview',
        formData([
          { name: 'hook_pack_id', value: String(pack.id) },
          { name: 'generated_character_id', value: String(pack.characters[0]) },
          { name: 'position_x', value: '300' },
          { name: 'position_y', value: '700' },
          { name: 'rotation', value: '0' },
          ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        ]),
      );
    const merge = (scale: number) =>
      call(
        t.server,
        t.user,
        'POST',
        '/api/merge/single',
        formData([
          { name: 'project_id', value: '1' },
          { name: 'character_id', value: '1' },
          { name: 'mask_data', value: JSON.stringify({ position_x: 1, position_y: 1, scale, rotation: 0 }) },
        ]),
      );
    const range = `Scale must be between ${CANVAS.productScaleMin} and ${CANVAS.productScaleMax}`;
    for (const scale of [5, CANVAS.productScaleMax + 0.01, 0, -1, CANVAS.productScaleMin / 2]) {
      const preview = await editor({ scale: String(scale) });
      expect(preview.status, `preview scale ${scale}`).toBe(422);
      expect(preview.json.detail).toBe(range);
      const merged = await merge(scale);
      expect(merged.status, `merge scale ${scale}`).toBe(422);
      expect(merged.json.detail).toBe(range);
    }
    const turned = await editor({ scale: '0.3', rotation: '400' });
    expect(turned.status).toBe(422);
    expect(turned.json.detail).toBe('Rotation must be between -360 and 360 degrees');
    // Nothing was queued by the refusals; an in-range placement is stored as given.
    expect((await call(t.server, t.user, 'GET', `/api/hooks/${pack.id}`)).json.preview_characters).toEqual([]);
    const ok = await editor({ scale: String(CANVAS.productScaleMax) });
    expect(ok.status).toBe(200);
    expect(ok.json[0].scale).toBe(CANVAS.productScaleMax);
  });

  it('PUT /hooks/{id} moves the status only forward through the wizard steps, once the pack holds each step', async () => {
    const put = (id: number, body: Record<string, unknown>) => call(t.server, t.user, 'PUT', `/api/hooks/${id}`, body);
    const empty = (await call(t.server, t.user, 'POST', '/api/hooks', { language: 'english', accent: 'american' }))
      .json;

    const early = await put(empty.id, { status: 'videos_ready' });
    expect(early.status).toBe(409);
    expect(early.json.detail).toBe('Cannot mark the pack "Videos Ready" yet: Upload a product image first');
    for (const status of ['generating_videos', 'generating_characters']) {
      const res = await put(empty.id, { status });
      expect(res.status, status).toBe(422);
      expect(res.json.detail).toMatch(/is set by the server, not by a request$/);
    }
    expect((await call(t.server, t.user, 'GET', `/api/hooks/${empty.id}`)).json.status).toBe('created');

    // The wizard's own order on a pack that holds each step's work.
    const id = (await call(t.server, t.user, 'POST', '/api/hooks', { language: 'english', accent: 'american' })).json
      .id;
    expect((await put(id, { status: 'product_uploaded' })).json.detail).toBe(
      'Cannot mark the pack "Product Uploaded" yet: Upload a product image first',
    );
    expect((await uploadProductPhoto(t.server, t.user, id)).status).toBe(200);
    expect((await put(id, { status: 'product_uploaded' })).status).toBe(200);
    expect((await put(id, { status: 'character_types_defined' })).json.detail).toContain(VALIDATION.characterTypesMin);
    const types = await call(t.server, t.user, 'POST', `/api/hooks/character-types/batch?hook_pack_id=${id}`, [
      { description: 'young woman runner', order_index: 0 },
    ]);
    expect(types.status).toBe(200);
    expect((await put(id, { status: 'character_types_defined' })).status).toBe(200);
    // The hook step sends its message with the status in one request.
    expect((await put(id, { status: 'message_created' })).json.detail).toContain(VALIDATION.hookRequired);
    expect((await put(id, { status: 'message_created', message: 'Glow all day' })).status).toBe(200);
    const gen = await call(t.server, t.user, 'POST', `/api/hooks/generate-characters?hook_pack_id=${id}&count=1`);
    const characterId = gen.json.characters[0].id as number;
    expect((await put(id, { status: 'characters_selected' })).json.detail).toContain(VALIDATION.selectOneCharacter);
    expect(
      (await call(t.server, t.user, 'POST', `/api/hooks/select-character/${characterId}?selected=true`)).status,
    ).toBe(200);
    expect((await put(id, { status: 'characters_selected' })).status).toBe(200);
    expect((await put(id, { status: 'previews_ready' })).json.detail).toContain(VALIDATION.noApprovedCharacters);
    await fakeApprovedPreview(t.server, id, characterId);
    expect((await put(id, { status: 'previews_ready' })).status).toBe(200);
    expect((await put(id, { status: 'videos_ready' })).json.detail).toContain('Generate the videos first');
    expect((await put(id, { status: 'completed' })).status).toBe(409);

    // Never backwards; the same status again changes nothing.
    const back = await put(id, { status: 'message_created' });
    expect(back.status).toBe(409);
    expect(back.json.detail).toBe(
      'A hook pack only moves forward: it is "Previews Ready", so it cannot go back to "Message Created"',
    );
    expect((await put(id, { status: 'created' })).status).toBe(422);
    expect((await put(id, { status: 'previews_ready' })).status).toBe(200);
    expect((await call(t.server, t.user, 'GET', `/api/hooks/${id}`)).json.status).toBe('previews_ready');
  });
});
