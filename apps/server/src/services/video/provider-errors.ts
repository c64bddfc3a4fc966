import { ContentRuleError, ProviderError } from '../../media/values.ts';
import { PermanentJobError } from '../../jobs/definition.ts';

/**
 * Provider failures as job failures a person can read. A refusal (bad key, bad input, content rules, a model that
 * answered without a result) will not change on retry: it fails the job at once, which releases its credits.
 * Rate limits, 5xx and timeouts that outlasted the adapter's own retries are left to the runner's retry with
 * backoff. The message never holds a key (adapters redact them).
 */
export async function withProviderErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ContentRuleError) throw new PermanentJobError(err.message);
    if (err instanceof ProviderError) {
      const refused =
        (err.status !== null && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429) ||
        err.code === 'no_image' ||
        err.code === 'FAILED' ||
        // Out of credit, or a voice longer than the avatar model takes: a retry gets the same answer.
        err.code === 'insufficient_quota' ||
        err.code === 'audio_too_long';
      const text = `Provider error (${err.provider}): ${err.message}`;
      if (refused) throw new PermanentJobError(text);
      throw new Error(text, { cause: err });
    }
    throw err;
  }
}
