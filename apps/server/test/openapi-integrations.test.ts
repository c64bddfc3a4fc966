import { WEBHOOK_EVENT_TYPES } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';

interface Doc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: {
    securitySchemes: Record<string, { description?: string }>;
    schemas: Record<string, { properties: Record<string, { enum?: string[] }> }>;
  };
  'x-webhooks': { event: { post: { parameters: Array<{ name: string; in: string }>; requestBody: unknown } } };
}

describe('the OpenAPI document describes API keys and webhooks', () => {
  let server: TestServer;
  let doc: Doc;
  beforeAll(async () => {
    server = await startTestServer();
    doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Doc;
  });
  afterAll(() => server.close());

  it('lists the key and webhook routes with their answers', () => {
    expect(Object.keys(doc.paths['/api/api-keys']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/api-keys/{id}']!)).toEqual(['delete']);
    expect(Object.keys(doc.paths['/api/webhooks']!).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/api/webhooks/{id}/test']!.post).toBeDefined();
    expect(doc.paths['/api/webhooks/deliveries']!.get).toBeDefined();
    const created = JSON.stringify(doc.paths['/api/api-keys']!.post!.responses['201']);
    expect(created).toContain('"key"');
    expect(JSON.stringify(doc.paths['/api/webhooks']!.post!.responses['201'])).toContain('"secret"');
  });

  it('says how to authenticate with a key', () => {
    expect(doc.components.securitySchemes.bearer!.description).toContain('hrk_');
  });

  it('describes the webhook body and its signature header', () => {
    expect(doc.components.schemas.WebhookEvent!.properties.type!.enum).toEqual([...WEBHOOK_EVENT_TYPES]);
    const post = doc['x-webhooks'].event.post;
    expect(post.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Hookreel-Signature' }));
    expect(JSON.stringify(post.requestBody)).toContain('#/components/schemas/WebhookEvent');
  });
});
