import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

/**
 * zxcvbn's estimate with its bundled lists of common passwords, names and words (ASVS 6.2.4: refuse the
 * commonly used). Score 3 means about 10^8 guesses or more, out of reach online and slow offline against
 * Argon2id. Built on first use: loading the dictionaries takes a few hundred milliseconds.
 */
let factory: ZxcvbnFactory | undefined;
const MIN_SCORE = 3;

export function isPasswordTooWeak(password: string, userInputs: string[] = []): boolean {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
  });
  // Only the first 100 characters are scored: beyond that a password is long enough and matching is slow.
  return factory.check(password.slice(0, 100), userInputs).score < MIN_SCORE;
}
