import { HOOK_ANGLE_INFO, HOOK_ANGLES, HookAngle, type HookLine } from '@hookreel/contracts';
import { chatCompletion, type OpenAIConfig } from './openai.ts';

/** The longest line a model may give: a hook is said in the first seconds of a video. */
export const MODEL_HOOK_MAX = 150;

/** Writes hook lines for a pack of videos: the user's hook first, then one line per angle of the library. */
export interface HookWriter {
  write(req: {
    hook: string;
    productDetails?: string | null;
    category?: string | null;
    language: string;
    count: number;
    signal?: AbortSignal;
  }): Promise<HookLine[]>;
}

export function hookWriterPrompt(req: {
  hook: string;
  productDetails?: string | null;
  category?: string | null;
  language: string;
  count: number;
}) {
  const angles = HOOK_ANGLES.filter((a) => a !== 'own')
    .map((a) => `"${a}" (${HOOK_ANGLE_INFO[a].brief})`)
    .join('; ');
  return [
    `You write opening lines ("hooks") for short vertical UGC video ads, in ${req.language}.`,
    `The brand's own hook is: "${req.hook.trim()}".`,
    req.productDetails ? `The product: ${req.productDetails.trim()}.` : '',
    req.category && req.category !== 'other' ? `Its category: ${req.category}.` : '',
    `Write ${req.count - 1} variations of that hook, each with a different angle from this list, each angle at most`,
    `once: ${angles}.`,
    `Each line is under 120 characters, spoken by a real person to camera, keeps the hook's meaning and invents no`,
    'figures, prices or results the hook and product do not state.',
    'Answer with JSON only: {"hooks": [{"angle": "pov", "line": "…"}, …]}.',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Reads angle-labelled lines out of a model's answer (bare JSON, fenced JSON, or JSON inside prose) and keeps only
 * what the library allows: a known angle other than 'own', each angle once, a non-empty line of at most `maxLength`
 * characters without control characters, no line twice. Anything else is dropped, never repaired.
 */
export function parseHookLines(text: string, maxLength = MODEL_HOOK_MAX): HookLine[] {
  let items: unknown[] = [];
  const m = /\{[\s\S]*\}/.exec(text);
  if (m) {
    try {
      const v = JSON.parse(m[0]) as { hooks?: unknown };
      if (Array.isArray(v.hooks)) items = v.hooks;
    } catch {
      /* not JSON: no lines */
    }
  }
  const angles = new Set<string>();
  const seen = new Set<string>();
  const out: HookLine[] = [];
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const { angle, line } = item as { angle?: unknown; line?: unknown };
    const parsed = HookAngle.safeParse(typeof angle === 'string' ? angle.trim().toLowerCase() : angle);
    if (!parsed.success || parsed.data === 'own' || angles.has(parsed.data) || typeof line !== 'string') continue;
    // eslint-disable-next-line no-control-regex -- control and bidi characters are refused, not rendered
    if (/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(line.replace(/[\n\t]/g, ' '))) continue;
    const clean = line
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^["“]|["”]$/g, '');
    if (!clean || clean.length > maxLength || seen.has(clean.toLowerCase())) continue;
    angles.add(parsed.data);
    seen.add(clean.toLowerCase());
    out.push({ angle: parsed.data, text: clean });
  }
  return out;
}

/** Angle-labelled hooks from an OpenAI-compatible chat model (OPENAI_TEXT_MODEL; Ollama and vLLM work too). */
export class OpenAIHookWriter implements HookWriter {
  constructor(readonly config: OpenAIConfig & { textModel: string }) {}

  async write(req: Parameters<HookWriter['write']>[0]): Promise<HookLine[]> {
    const text = await chatCompletion(
      this.config,
      { model: this.config.textModel, messages: [{ role: 'user', content: hookWriterPrompt(req) }] },
      60_000,
      req.signal,
    );
    const own = req.hook.replace(/\s+/g, ' ').trim();
    return [
      { angle: 'own' as const, text: own },
      ...parseHookLines(text).filter((l) => l.text.toLowerCase() !== own.toLowerCase()),
    ].slice(0, req.count);
  }
}
