import { chatCompletion, type OpenAIConfig } from './openai.ts';

/** Writes hook lines for a pack of videos: the user's hook first, then variations that test other openings. */
export interface HookWriter {
  write(req: {
    hook: string;
    productDetails?: string | null;
    language: string;
    count: number;
    signal?: AbortSignal;
  }): Promise<string[]>;
}

export function hookWriterPrompt(req: {
  hook: string;
  productDetails?: string | null;
  language: string;
  count: number;
}) {
  return [
    `You write opening lines ("hooks") for short vertical UGC video ads, in ${req.language}.`,
    `The brand's own hook is: "${req.hook.trim()}".`,
    req.productDetails ? `The product: ${req.productDetails.trim()}.` : '',
    `Write ${req.count - 1} different variations of that hook, each under 120 characters, spoken by a real person`,
    'to camera: a question, a POV, a confession, a number, a bold claim, a "stop scrolling" line… Keep the meaning.',
    'Answer with JSON only: {"lines": ["…", "…"]}.',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Reads the lines out of a model's answer (bare JSON, fenced JSON, or a list inside prose): strings only,
 * trimmed, de-duplicated, empty and over-long ones dropped.
 */
export function parseHookLines(text: string, maxLength = 500): string[] {
  let lines: unknown[] = [];
  const m = /\{[\s\S]*\}/.exec(text);
  if (m) {
    try {
      const v = JSON.parse(m[0]) as { lines?: unknown };
      if (Array.isArray(v.lines)) lines = v.lines;
    } catch {
      /* not JSON: no lines */
    }
  }
  const seen = new Set<string>();
  const out: string[] = [];
  for (const l of lines) {
    if (typeof l !== 'string') continue;
    const line = l
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^["“]|["”]$/g, '');
    if (!line || line.length > maxLength || seen.has(line.toLowerCase())) continue;
    seen.add(line.toLowerCase());
    out.push(line);
  }
  return out;
}

/** Hook variations from an OpenAI-compatible chat model (OPENAI_TEXT_MODEL; Ollama and vLLM work too). */
export class OpenAIHookWriter implements HookWriter {
  constructor(readonly config: OpenAIConfig & { textModel: string }) {}

  async write(req: Parameters<HookWriter['write']>[0]): Promise<string[]> {
    const text = await chatCompletion(
      this.config,
      { model: this.config.textModel, messages: [{ role: 'user', content: hookWriterPrompt(req) }] },
      60_000,
      req.signal,
    );
    const own = req.hook.replace(/\s+/g, ' ').trim();
    return [own, ...parseHookLines(text).filter((l) => l.toLowerCase() !== own.toLowerCase())].slice(0, req.count);
  }
}
