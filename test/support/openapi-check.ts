// Checks one HTTP exchange against the server's OpenAPI document: the operation its method and
// path name (or the document's `x-any-request` answers), the status, the required headers and
// their schemas, the content type and the body schema (JSON Schema 2020-12, with Ajv).
import { dereference } from '@readme/openapi-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

/** One answer as it went over the wire, with the request it answered (method null: unknown). */
export interface Exchange {
  method: string | null;
  target: string | null;
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
  /** The answer had no body by HTTP's rules (HEAD, 204, 304). */
  bodyless: boolean;
}

type Json = Record<string, unknown>;
export type Check = (x: Exchange) => string[];

/** The parts of the dereferenced document the check reads. */
interface Schema extends Json {
  type?: string;
  const?: unknown;
}
interface ResponseDoc {
  headers?: Record<string, { required?: boolean; schema?: Schema }>;
  content?: Record<string, { schema: Schema }>;
}
interface Api {
  paths: Record<string, { get?: { responses: Record<string, ResponseDoc> } }>;
  'x-any-request': Record<string, ResponseDoc>;
}

function templateRegex(path: string): RegExp {
  const parts = path.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

/** The value of a header as its schema types it (headers are text on the wire). */
function typed(value: string, schema: Schema): unknown {
  const numeric = schema.type === 'integer' || schema.type === 'number' || typeof schema.const === 'number';
  return numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** A checker for the (not yet dereferenced) document `doc`. */
export async function responseChecker(doc: Json): Promise<Check> {
  const api = (await dereference(structuredClone(doc) as never)) as unknown as Api;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const compiled = new WeakMap<object, ValidateFunction>();
  const schemaErrors = (schema: Schema, value: unknown): string | null => {
    let v = compiled.get(schema);
    if (v === undefined) compiled.set(schema, (v = ajv.compile(schema)));
    return v(value) ? null : ajv.errorsText(v.errors);
  };
  const routes = Object.entries(api.paths).map(([path, item]) => ({ path, re: templateRegex(path), item }));
  const anyRequest = api['x-any-request'];

  return (x) => {
    const path = x.target?.split('?')[0] ?? null;
    const route = path === null ? undefined : routes.find((r) => r.re.test(path));
    const op = route && (x.method === 'GET' || x.method === 'HEAD') ? route.item.get : undefined;
    const where = `${x.method ?? '?'} ${x.target?.slice(0, 120) ?? '(unparsed)'} → ${x.status}`;
    const documented = op?.responses[x.status] ?? anyRequest[x.status];
    if (documented === undefined) return [`${where}: status not documented${op ? ` for ${route!.path}` : ''}`];
    const errors: string[] = [];
    for (const [name, h] of Object.entries(documented.headers ?? {})) {
      const value = x.headers[name.toLowerCase()];
      if (value === undefined) {
        if (h.required) errors.push(`${where}: header ${name} missing`);
        continue;
      }
      const e = h.schema ? schemaErrors(h.schema, typed(value, h.schema)) : null;
      if (e) errors.push(`${where}: header ${name}: ${JSON.stringify(value)}: ${e}`);
    }
    const content = documented.content;
    if (content === undefined) {
      if (x.body !== '') errors.push(`${where}: a body where none is documented`);
      return errors;
    }
    const type = x.headers['content-type'];
    const media = type === undefined ? undefined : content[type];
    if (media === undefined) return [...errors, `${where}: Content-Type ${type} is not ${Object.keys(content)}`];
    if (x.bodyless) return errors;
    let value: unknown = x.body;
    if (/json/.test(type!)) {
      try {
        value = JSON.parse(x.body);
      } catch {
        return [...errors, `${where}: the body is not JSON: ${x.body.slice(0, 100)}`];
      }
    }
    const e = schemaErrors(media.schema, value);
    if (e) errors.push(`${where}: body ${x.body.slice(0, 200)}: ${e}`);
    return errors;
  };
}
