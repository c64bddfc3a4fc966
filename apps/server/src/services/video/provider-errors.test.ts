import { describe, expect, it } from 'vitest';
import { PermanentJobError } from '../../jobs/definition.ts';
import { ContentRuleError, NAMED_PERSON_MESSAGE, ProviderError } from '../../media/values.ts';
import { withProviderErrors } from './provider-errors.ts';

const failWith = (err: unknown) =>
  withProviderErrors(() => Promise.reject(err)).then(
    () => null,
    (e: unknown) => e as Error,
  );

/**
 * How a provider failure ends a job (docs/providers.md, "Failures, refunds and retries"): a refusal fails it at
 * once (its credits are released), a rate limit, 5xx or timeout is left to the runner's retries.
 */
describe('withProviderErrors', () => {
  it.each([
    ['a bad key', new ProviderError('ElevenLabs error 401 on POST …: Invalid API key: ***', 'ElevenLabs', 401)],
    ['a bad request', new ProviderError('OpenAI-compatible error 400 on POST …: bad mask', 'OpenAI-compatible', 400)],
    ['a model that answered without an image', new ProviderError('Gemini: no image', 'Gemini', 200, 'no_image')],
    ['a FAILED fal request', new ProviderError('fal: request FAILED: face not found', 'fal', null, 'FAILED')],
  ])('fails at once on %s, with a plain line naming the provider', async (_, err) => {
    const e = await failWith(err);
    expect(e).toBeInstanceOf(PermanentJobError);
    expect(e?.message).toBe(`Provider error (${err.provider}): ${err.message}`);
  });

  it.each([
    [
      'a rate limit',
      new ProviderError('ElevenLabs error 429 …: Too many requests (gave up after 3 attempts)', 'ElevenLabs', 429),
    ],
    ['a timeout', new ProviderError('fal: POST … failed: timed out', 'fal', 408)],
    ['a server error', new ProviderError('OpenAI-compatible error 503 …: overloaded', 'OpenAI-compatible', 503)],
    ['a dropped connection', new ProviderError('fal: POST … failed: fetch failed (ECONNRESET)', 'fal', null)],
  ])('leaves %s to the runner’s retries', async (_, err) => {
    const e = await failWith(err);
    expect(e).not.toBeInstanceOf(PermanentJobError);
    expect(e?.message).toBe(`Provider error (${err.provider}): ${err.message}`);
    expect(e?.cause).toBe(err);
  });

  it('fails a content-rule refusal at once with its own message', async () => {
    const e = await failWith(new ContentRuleError(NAMED_PERSON_MESSAGE));
    expect(e).toBeInstanceOf(PermanentJobError);
    expect(e?.message).toBe(NAMED_PERSON_MESSAGE);
  });

  it('passes other errors through unchanged, and a result through', async () => {
    const other = new Error('disk full');
    expect(await failWith(other)).toBe(other);
    expect(await withProviderErrors(() => Promise.resolve(7))).toBe(7);
  });
});
