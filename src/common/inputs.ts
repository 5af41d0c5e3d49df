/**
 * Typed input parsing for every action: one schema per action, each entry a
 * parser from the raw string. Every input is read and checked before the
 * first API call; a bad one is a UsageError with one readable line.
 */
import { quote } from '../codec/index.js';
import { parseRepository, type Repo } from './repo.js';
import { UsageError } from './errors.js';
import { periodMs } from './periods.js';
import { eventSubject, type EventInfo, type EventSubject } from './event.js';
import { parseTrustPolicy, type TrustPolicy } from './trust.js';

export type Getter = (name: string) => string;

export type Parser<T> = (raw: string, name: string) => T;

export function text(def = ''): Parser<string> {
  return (raw) => (raw.trim() === '' ? def : raw.trim());
}

/** Kept exactly as given (Markdown, YAML): only an all-blank value counts as unset. */
export function verbatim(): Parser<string | null> {
  return (raw) => (raw.trim() === '' ? null : raw);
}

export function required(): Parser<string> {
  return (raw, name) => {
    if (raw.trim() === '') throw new UsageError(`input "${name}" is required`);
    return raw.trim();
  };
}

export function optional(): Parser<string | null> {
  return (raw) => (raw.trim() === '' ? null : raw.trim());
}

/** YAML 1.2's core schema spells a boolean these ways and no others (GitHub's own getBooleanInput agrees). */
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, True: true, TRUE: true, false: false, False: false, FALSE: false };

export function bool(def: boolean): Parser<boolean> {
  return (raw, name) => {
    const v = raw.trim();
    if (v === '') return def;
    const b = Object.hasOwn(BOOLEANS, v) ? BOOLEANS[v] : undefined;
    if (b === undefined)
      throw new UsageError(`input "${name}" must be true or false (true, True, TRUE, false, False or FALSE), got ${quote(v)}`);
    return b;
  };
}

export function oneOf<T extends string>(values: readonly T[], def: T): Parser<T> {
  return (raw, name) => {
    const v = raw.trim();
    if (v === '') return def;
    if (!(values as readonly string[]).includes(v))
      throw new UsageError(`input "${name}" must be one of ${values.join(', ')}, got ${quote(v)}`);
    return v as T;
  };
}

/** One of `values`, or null when left empty (the action then decides from the event). */
export function optionalOneOf<T extends string>(values: readonly T[]): Parser<T | null> {
  return (raw, name) => (raw.trim() === '' ? null : oneOf(values, values[0])(raw, name));
}

export function positiveInt(): Parser<number | null> {
  return (raw, name) => {
    const v = raw.trim().replace(/^#/, '');
    if (v === '') return null;
    if (!/^\d{1,10}$/.test(v) || Number(v) < 1)
      throw new UsageError(`input "${name}" must be a positive whole number, got ${quote(raw.trim())}`);
    return Number(v);
  };
}

/** A period such as `7d`, `12h` or `30m`, in milliseconds; empty for none. */
export function duration(): Parser<number | null> {
  return (raw, name) => {
    const v = raw.trim();
    if (v === '') return null;
    const ms = periodMs(v);
    if (ms === null) throw new UsageError(`input "${name}" must be a period such as 7d, 12h or 30m, got ${JSON.stringify(v)}`);
    return ms;
  };
}

export type Schema = Record<string, { input: string; parse: Parser<unknown> }>;
export type Parsed<S extends Schema> = { [K in keyof S]: S[K]['parse'] extends Parser<infer T> ? T : never };

export function readInputs<S extends Schema>(schema: S, get: Getter): Parsed<S> {
  const out: Record<string, unknown> = {};
  for (const [key, { input, parse }] of Object.entries(schema)) out[key] = parse(get(input), input);
  return out as Parsed<S>;
}

/**
 * `trusted-authors`: associations and logins; null when left empty, so the
 * pipeline file (then the built-in default) decides.
 */
export function trustPolicy(): Parser<TrustPolicy | null> {
  return (raw) => (raw.trim() === '' ? null : parseTrustPolicy(raw));
}

/**
 * The inputs every action takes, declared once: each action's schema spreads
 * these in, and a test holds them and every default to the action.yml files.
 */
export const COMMON_INPUTS = {
  token: { input: 'github-token', parse: required() },
  repository: { input: 'repository', parse: optional() },
  issueNumber: { input: 'issue-number', parse: positiveInt() },
  trust: { input: 'trusted-authors', parse: trustPolicy() },
};

export interface CommonInputs {
  token: string;
  repo: Repo;
  /** trusted-authors as given, else the built-in default (what an action that does not read the pipeline file uses). */
  trust: TrustPolicy;
  /** trusted-authors as given; null when left empty (the pipeline file decides). */
  trustInput: TrustPolicy | null;
  /** The `issue-number` input, when set: it wins over the event's subject. */
  issueNumber: number | null;
  /** The issue or PR the event is about. */
  subject: EventSubject;
}

/** The common inputs resolved against the event: the repository defaults to the workflow's own. */
export function resolveCommon(raw: Parsed<typeof COMMON_INPUTS>, event: EventInfo): CommonInputs {
  return {
    token: raw.token,
    repo: parseRepository(raw.repository ?? event.repository),
    trust: raw.trust ?? parseTrustPolicy(undefined),
    trustInput: raw.trust,
    issueNumber: raw.issueNumber,
    subject: eventSubject(event),
  };
}
