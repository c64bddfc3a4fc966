import type { ZodType } from 'zod';

/**
 * Just enough zod introspection for request generators: what kind of value a schema wants, the fields of an
 * object, and a plausible valid example (best effort: a rule the example misses only turns into a 422).
 */
interface Def {
  type: string;
  innerType?: ZodType;
  in?: ZodType;
  shape?: Record<string, ZodType>;
  element?: ZodType;
  entries?: Record<string, string>;
  values?: unknown[];
  options?: ZodType[];
  checks?: Array<{ _zod: { def: { check: string; minimum?: number; value?: number; format?: string } } }>;
  defaultValue?: unknown;
}

const defOf = (schema: ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional/nullable/default/pipe wrappers. */
export function unwrap(schema: ZodType): ZodType {
  let s = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(s);
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(def.type) && def.innerType)
      s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else break;
  }
  return s;
}

export const kindOf = (schema: ZodType): string => defOf(unwrap(schema)).type;

/** The fields of an object schema (after unwrapping), or null when it is not an object. */
export function fieldsOf(schema: ZodType): Record<string, ZodType> | null {
  const def = defOf(unwrap(schema));
  return def.type === 'object' && def.shape ? def.shape : null;
}

/** A value the schema probably accepts. */
export function exampleOf(schema: ZodType, depth = 0): unknown {
  const def = defOf(unwrap(schema));
  const min = (check: string) => def.checks?.find((c) => c._zod.def.check === check)?._zod.def;
  switch (def.type) {
    case 'string': {
      const format = def.checks?.find((c) => c._zod.def.format)?._zod.def.format;
      if (format === 'email') return 'hostile.example@example.com';
      const length = Math.max(min('min_length')?.minimum ?? 0, 8);
      return 'Example text here'.padEnd(length, 'x');
    }
    case 'number':
    case 'int':
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'union':
      return def.options?.[0] ? exampleOf(def.options[0], depth + 1) : null;
    case 'array': {
      const n = Math.max(min('min_length')?.minimum ?? 0, 1);
      return depth > 4 || !def.element ? [] : Array.from({ length: n }, () => exampleOf(def.element!, depth + 1));
    }
    case 'object':
      return depth > 4
        ? {}
        : Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, exampleOf(v, depth + 1)]));
    default:
      return null;
  }
}

/** JSON values of the wrong type for a field of this schema, plus a few that are the right type but absurd. */
export function wrongValuesFor(schema: ZodType): unknown[] {
  switch (kindOf(schema)) {
    case 'string':
      return [12345, null, { $ne: '' }, 'x'.repeat(100_000), '\u0000\u202e\ud800<script>'];
    case 'number':
    case 'int':
      return ['12', -1, 1e308, 1.5, [1]];
    case 'boolean':
      return ['true', 0, null, {}];
    case 'enum':
    case 'literal':
      return ['not-a-choice', 0, ['english']];
    case 'array':
      return [{}, 'a', [null, {}, 'x'], Array.from({ length: 5000 }, (_, i) => i)];
    case 'object':
      return [[], 'x', JSON.parse('{"__proto__":{"admin":true}}') as unknown];
    default:
      return [null, [], 'x', -1];
  }
}
