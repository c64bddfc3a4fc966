/**
 * What each OpenAI image model accepts: sizes, qualities, `response_format`, `input_fidelity`. The adapters pick
 * their defaults here, and the environment's overrides (OPENAI_IMAGE_SIZE, OPENAI_IMAGE_QUALITY,
 * OPENAI_EDIT_QUALITY, OPENAI_EDIT_INPUT_FIDELITY) are checked here at start-up, so a wrong value stops the server
 * with the reason instead of failing a paid job. Models we do not know (a compatible server's own) get the old
 * free-form behaviour.
 */

/**
 * - `gpt-image`: gpt-image-1, -1-mini, -1.5 and chatgpt-image-latest — three fixed sizes or auto, always base64.
 * - `gpt-image-2`: any width×height in multiples of 16, aspect between 1:3 and 3:1.
 * - `dall-e-3`, `dall-e-2`: retired on OpenAI since 2026-05-12; kept for compatible servers that still use the names.
 */
export type ImageModelFamily = 'gpt-image' | 'gpt-image-2' | 'dall-e-3' | 'dall-e-2' | 'other';

export function imageModelFamily(model: string): ImageModelFamily {
  const m = model.trim().toLowerCase();
  if (/^gpt-image-2/.test(m)) return 'gpt-image-2';
  if (/^(gpt-image|chatgpt-image)/.test(m)) return 'gpt-image';
  if (/^dall-e-3/.test(m)) return 'dall-e-3';
  if (/^dall-e-2/.test(m)) return 'dall-e-2';
  return 'other';
}

export const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'] as const;
const DALL_E_3_SIZES = ['1024x1024', '1792x1024', '1024x1792'];
const DALL_E_2_SIZES = ['256x256', '512x512', '1024x1024'];
export const GPT_IMAGE_QUALITIES = ['low', 'medium', 'high', 'auto'] as const;
export const INPUT_FIDELITIES = ['low', 'high'] as const;

/** The portrait size asked for by default: the tallest each model makes (the result is cropped to 9:16). */
export function defaultImageSize(model: string): string {
  switch (imageModelFamily(model)) {
    case 'gpt-image':
    case 'gpt-image-2':
      return '1024x1536';
    case 'dall-e-2':
      return '1024x1024';
    default:
      return '1024x1792';
  }
}

/** Why `size` will be refused by `model`, or null when it is accepted (unknown models accept any W×H). */
export function imageSizeProblem(model: string, size: string): string | null {
  const family = imageModelFamily(model);
  const listed = (sizes: readonly string[]) =>
    sizes.includes(size) ? null : `${model} accepts sizes ${sizes.join(', ')}, not '${size}'`;
  switch (family) {
    case 'gpt-image':
      return listed(GPT_IMAGE_SIZES);
    case 'dall-e-3':
      return listed(DALL_E_3_SIZES);
    case 'dall-e-2':
      return listed(DALL_E_2_SIZES);
    case 'gpt-image-2': {
      if (size === 'auto') return null;
      const m = /^(\d+)x(\d+)$/.exec(size);
      const [w, h] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
      if (!m || w % 16 !== 0 || h % 16 !== 0 || w / h > 3 || h / w > 3) {
        return `${model} accepts 'auto' or width x height in multiples of 16 with an aspect between 1:3 and 3:1, not '${size}'`;
      }
      return null;
    }
    default:
      return /^(\d+x\d+|auto)$/.test(size) ? null : `image size must look like 1024x1536, not '${size}'`;
  }
}

/**
 * The quality asked for by default. GPT image models default to `auto` upstream, which may bill at `high` (about
 * four times `medium`); we ask for `medium`, the price docs/providers.md budgets. Others: the provider's default.
 */
export function defaultImageQuality(model: string): string | undefined {
  const family = imageModelFamily(model);
  return family === 'gpt-image' || family === 'gpt-image-2' ? 'medium' : undefined;
}

export function imageQualityProblem(model: string, quality: string): string | null {
  const family = imageModelFamily(model);
  const allowed: readonly string[] | null =
    family === 'gpt-image' || family === 'gpt-image-2'
      ? GPT_IMAGE_QUALITIES
      : family === 'dall-e-3'
        ? ['standard', 'hd']
        : family === 'dall-e-2'
          ? ['standard']
          : null;
  if (!allowed || allowed.includes(quality)) return null;
  return `${model} accepts quality ${allowed.join(', ')}, not '${quality}'`;
}

/** GPT image models always answer in base64 and refuse `response_format`; others answer with a URL unless asked. */
export function sendsResponseFormat(model: string): boolean {
  const family = imageModelFamily(model);
  return family !== 'gpt-image' && family !== 'gpt-image-2';
}

/** `input_fidelity` on edits: documented for gpt-image-1 and gpt-image-1.5, not for the mini model. */
export function supportsInputFidelity(model: string): boolean {
  return /^gpt-image-1(\.5)?(-\d{4}-\d{2}-\d{2})?$/i.test(model.trim());
}

/**
 * The fidelity an edit asks for: `high` by default where the model takes it (the prompt asks to keep the face and
 * the label exactly; it costs more input tokens), none elsewhere.
 */
export function defaultInputFidelity(model: string): string | undefined {
  return supportsInputFidelity(model) ? 'high' : undefined;
}

export function inputFidelityProblem(model: string, fidelity: string): string | null {
  if (!supportsInputFidelity(model)) return `${model} does not take input_fidelity (gpt-image-1 and -1.5 do)`;
  return (INPUT_FIDELITIES as readonly string[]).includes(fidelity)
    ? null
    : `input_fidelity is low or high, not '${fidelity}'`;
}

/** Throws the problem as a start-up error naming the variable. */
export function assertImageSetting(name: string, problem: string | null): void {
  if (problem) throw new Error(`${name}: ${problem}`);
}
