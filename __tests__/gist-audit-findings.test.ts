/** The gist audit's pure decisions: findings, who may drive a migration, which issues get labelled. */
import type { Reference } from '../src/gist-visibility-audit/logic/collect.js';
import { findingsFor, issuesToLabel, migrationPlan } from '../src/gist-visibility-audit/logic/findings.js';
import type { GistState } from '../src/gist-visibility-audit/logic/lookup.js';
import { gistIdFromUrl } from '../src/common/gist-urls.js';

const ref = (id: string | null, trusted: boolean, issue: number | null = 1): Reference => ({
  type: 'KNOWLEDGE_GIST',
  url: id ? `https://gist.github.com/u/${id}` : 'https://example.com/not-a-gist',
  id,
  source: `comment on #${issue}`,
  trusted,
  issue,
  location: { kind: 'comment', issue: issue ?? 0, commentId: 1 },
  index: false,
  shown: true,
});
const gist = (id: string, isPublic: boolean): GistState => ({
  kind: 'found',
  gist: {
    id,
    url: `https://gist.github.com/u/${id}`,
    public: isPublic,
    description: null,
    owner: 'u',
    files: [],
    truncated: false,
    createdAt: null,
  },
});

const PUB = 'a'.repeat(32);
const SEC = 'b'.repeat(32);
const GONE = 'c'.repeat(32);
const states = new Map<string, GistState>([
  [PUB, gist(PUB, true)],
  [SEC, gist(SEC, false)],
  [GONE, { kind: 'missing' }],
]);

test('public is CRITICAL, dangling and non-gist are WARNING, secret is no finding', () => {
  const findings = findingsFor([ref(PUB, true), ref(SEC, true), ref(GONE, true), ref(null, true), ref(PUB, false)], states);
  expect(findings.map((f) => [f.id, f.severity, f.trusted])).toEqual([
    [PUB, 'CRITICAL', true],
    [GONE, 'WARNING', true],
    [null, 'WARNING', true],
    [PUB, 'CRITICAL', false],
  ]);
  expect(findings[3].detail).toContain('linked by an untrusted author');
  expect(findingsFor([ref('d'.repeat(32), true)], states)).toEqual([]);
});

test('only trusted references drive a migration, and only they are rewritten', () => {
  const plan = migrationPlan([PUB, 'e'.repeat(32)], [ref(PUB, true, 1), ref(PUB, false, 2), ref('e'.repeat(32), false, 3)]);
  expect([...plan.migrate.keys()]).toEqual([PUB]);
  expect(plan.migrate.get(PUB)?.map((r) => r.issue)).toEqual([1]);
  expect(plan.untrustedOnly).toEqual(['e'.repeat(32)]);
});

test('labels go to issues with a trusted reference to a gist still public', () => {
  const refs = [ref(PUB, true, 1), ref(PUB, false, 2), ref(PUB, true, 1), ref(SEC, true, 3), ref(PUB, true, null)];
  expect(issuesToLabel(refs, new Set([PUB]))).toEqual([1]);
  expect(issuesToLabel(refs, new Set())).toEqual([]);
});

test('gist ids come out of every URL shape pipelines write', () => {
  for (const url of [
    `https://gist.github.com/u/${PUB}`,
    `https://gist.github.com/${PUB}/`,
    `https://gist.github.com/u/${PUB}#file-a-md`,
    `https://gist.github.com/${PUB}.git`,
    `https://gist.githubusercontent.com/u/${PUB}/raw/x/a.md`,
  ])
    expect(gistIdFromUrl(url)).toBe(PUB);
  expect(gistIdFromUrl('https://example.com/u/x')).toBeNull();
});
