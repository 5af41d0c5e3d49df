/**
 * GitHub's published OpenAPI description (@octokit/openapi) as a referee for
 * the test server: every request the actions make is checked against the
 * route, its parameters and its request-body schema; every response the
 * server sends is checked against the response schema. Requests are checked
 * against api.github.com and the oldest GitHub Enterprise Server description
 * the package ships.
 */
import type { Ajv as AjvType, ValidateFunction } from 'ajv';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Route {
  template: string;
  segments: string[];
  literals: number;
  ops: Record<string, Json>;
}

const require = createRequire(import.meta.url);
// Ajv ships CommonJS; load it the same way under tsc and under Jest's ESM runtime.
const Ajv = require('ajv').default as typeof AjvType;
const addFormats = require('ajv-formats').default as (ajv: AjvType) => void;
const GENERATED = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated');

/** The GHES descriptions shipped, oldest first. */
export function ghesVersions(): string[] {
  return readdirSync(GENERATED)
    .map((f) => /^ghes-(\d+)\.(\d+)\.deref\.json$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]) || Number(a[2]) - Number(b[2]))
    .map((m) => `${m[1]}.${m[2]}`);
}

/** OpenAPI 3.0 `nullable` → JSON Schema, so Ajv reads it the way GitHub means it. */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' || k === 'example' || k === 'examples' || k.startsWith('x-')) continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, toJsonSchema(s)])) : toJsonSchema(v);
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export class OpenApiDescription {
  readonly name: string;
  private routes: Route[] = [];
  private ajv: AjvType;
  private cache = new Map<string, ValidateFunction>();

  constructor(file: string, name: string) {
    this.name = name;
    const spec = JSON.parse(readFileSync(join(GENERATED, file), 'utf8'));
    for (const [template, ops] of Object.entries<Json>(spec.paths)) {
      const segments = template.split('/').filter(Boolean);
      this.routes.push({ template, segments, literals: segments.filter((s) => !s.startsWith('{')).length, ops });
    }
    this.ajv = new Ajv({ strict: false, allErrors: false, logger: false, validateFormats: true });
    addFormats(this.ajv);
  }

  /** The documented route for a request path, preferring literal segments over parameters. */
  match(method: string, path: string): { route: Route; op: Json; params: Record<string, string> } | null {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    let best: { route: Route; params: Record<string, string> } | null = null;
    for (const route of this.routes) {
      if (route.segments.length !== parts.length || !route.ops[method.toLowerCase()]) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const s = route.segments[i];
        if (s.startsWith('{')) params[s.slice(1, -1)] = parts[i];
        else ok = s === parts[i];
      }
      if (ok && (!best || route.literals > best.route.literals)) best = { route, params };
    }
    return best ? { ...best, op: best.route.ops[method.toLowerCase()] } : null;
  }

  private validator(key: string, schema: Json): ValidateFunction {
    const cached = this.cache.get(key);
    if (cached) return cached;
    const v = this.ajv.compile(toJsonSchema(schema));
    this.cache.set(key, v);
    return v;
  }

  private errorsOf(v: ValidateFunction): string {
    return (v.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
  }

  /** Problems with a request, empty when GitHub's description accepts it. */
  checkRequest(method: string, path: string, query: URLSearchParams, body: unknown, hasBody: boolean): string[] {
    const m = this.match(method, path);
    if (!m) return [`${this.name}: ${method} ${path} is not a documented route`];
    const problems: string[] = [];
    const where = `${this.name}: ${method} ${m.route.template}`;
    const params: Json[] = m.op.parameters ?? [];
    for (const p of params) {
      const value = p.in === 'path' ? m.params[p.name] : p.in === 'query' ? query.get(p.name) : undefined;
      if (p.in !== 'path' && p.in !== 'query') continue;
      if (value === null || value === undefined) {
        if (p.required) problems.push(`${where}: required ${p.in} parameter "${p.name}" is missing`);
        continue;
      }
      const schema = p.schema ?? {};
      const coerced =
        schema.type === 'integer' && /^-?\d+$/.test(value)
          ? Number(value)
          : schema.type === 'boolean'
            ? value === 'true'
              ? true
              : value === 'false'
                ? false
                : value
            : value;
      const v = this.validator(`${m.route.template} ${method} param ${p.name}`, schema);
      if (!v(coerced)) problems.push(`${where}: ${p.in} parameter "${p.name}"=${value} rejected: ${this.errorsOf(v)}`);
    }
    for (const key of query.keys()) {
      if (!params.some((p) => p.in === 'query' && p.name === key)) problems.push(`${where}: undocumented query parameter "${key}"`);
    }
    const rb = m.op.requestBody;
    if (rb) {
      const schema = rb.content?.['application/json']?.schema;
      if (!hasBody) {
        if (rb.required) problems.push(`${where}: request body is required`);
      } else if (schema) {
        const v = this.validator(`${m.route.template} ${method} body`, schema);
        if (!v(body)) problems.push(`${where}: request body rejected: ${this.errorsOf(v)}`);
      }
    } else if (hasBody && method !== 'GET' && method !== 'DELETE') {
      problems.push(`${where}: sends a body the route does not take`);
    }
    return problems;
  }

  responseSchema(method: string, path: string, status: number): Json | null {
    const m = this.match(method, path);
    if (!m) return null;
    const r = m.op.responses?.[String(status)] ?? m.op.responses?.default;
    return r?.content?.['application/json']?.schema ?? null;
  }

  /** Problems with a response body, empty when it matches the documented schema. */
  checkResponse(method: string, path: string, status: number, body: unknown): string[] {
    const m = this.match(method, path);
    if (!m) return [];
    const r = m.op.responses?.[String(status)];
    if (!r) return [`${this.name}: ${method} ${m.route.template} does not document status ${status}`];
    const schema = r.content?.['application/json']?.schema;
    if (!schema) return body === undefined || body === null || body === '' ? [] : [];
    const v = this.validator(`${m.route.template} ${method} ${status}`, schema);
    return v(body)
      ? []
      : [`${this.name}: response to ${method} ${m.route.template} (${status}) does not match the schema: ${this.errorsOf(v)}`];
  }
}

/**
 * A value of `schema`'s shape carrying only its required properties, with
 * `data` laid over it: the server fills the fields the actions never read with
 * well-typed values, and the checker then holds the whole response to the schema.
 */
export function conform(schema: Json, data: Json): Json {
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) {
    if (Array.isArray(data) && schema?.items) return data.map((d) => conform(schema.items, d));
    return data;
  }
  const s = pickVariant(schema, data);
  if (!s) return data;
  if (s.type === 'object' || s.properties) {
    const out: Json = {};
    const props = s.properties ?? {};
    for (const key of s.required ?? []) out[key] = sample(props[key] ?? {}, 0);
    if (data) for (const [k, v] of Object.entries(data)) out[k] = props[k] ? conform(props[k], v) : v;
    return out;
  }
  return data ?? sample(s, 0);
}

function pickVariant(schema: Json, data: Json): Json {
  if (!schema) return schema;
  if (schema.allOf) return schema.allOf.reduce((acc: Json, part: Json) => mergeSchemas(acc, pickVariant(part, data)), {});
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const nonNull = options.filter((o: Json) => o.type !== 'null');
    return pickVariant(nonNull[0] ?? options[0], data);
  }
  return schema;
}

function mergeSchemas(a: Json, b: Json): Json {
  return {
    ...a,
    ...b,
    type: b.type ?? a.type,
    properties: { ...(a.properties ?? {}), ...(b.properties ?? {}) },
    required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])],
  };
}

function sample(schema: Json, depth: number): Json {
  const s = pickVariant(schema, undefined) ?? {};
  if (s.nullable && depth > 0) return null;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    if (depth > 6) return {};
    const out: Json = {};
    for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, depth + 1);
    return out;
  }
  switch (type) {
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.invalid/x';
      if (s.format === 'email') return 'someone@example.invalid';
      if (s.format === 'uri-template') return 'https://example.invalid/{x}';
      return 'x';
    default:
      return null;
  }
}
