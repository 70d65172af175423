// The part of JSON Schema that operations' answer schemas use (type, enum, pattern, minimum,
// maximum, required, properties, additionalProperties: false, items): a client checks each answer
// it receives against its operation's schema, so a foreign or broken body is an error, not data.

import type { JsonSchema } from './operations.js';

const typeOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'integer'
        : typeof v;

/** Whether `value` is valid under `schema` (the keywords above; others are not checked). */
export function matchesSchema(schema: JsonSchema, value: unknown): boolean {
  const s = schema as {
    type?: string | string[];
    enum?: unknown[];
    pattern?: string;
    minimum?: number;
    maximum?: number;
    required?: string[];
    properties?: Record<string, JsonSchema>;
    additionalProperties?: boolean;
    items?: JsonSchema;
  };
  if (s.type !== undefined) {
    const t = typeOf(value);
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((x) => x === t || (x === 'number' && t === 'integer'))) return false;
  }
  if (s.enum !== undefined && !s.enum.includes(value)) return false;
  if (typeof value === 'string' && s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(value)) return false;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return false;
    if (s.minimum !== undefined && value < s.minimum) return false;
    if (s.maximum !== undefined && value > s.maximum) return false;
  }
  if (Array.isArray(value)) return s.items === undefined || value.every((item) => matchesSchema(s.items!, item));
  if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>;
    if (s.required?.some((k) => !Object.hasOwn(o, k))) return false;
    for (const [k, v] of Object.entries(o)) {
      const sub = s.properties?.[k];
      if (sub === undefined ? s.additionalProperties === false : !matchesSchema(sub, v)) return false;
    }
  }
  return true;
}
