/**
 * Who may start an agent (decision/admission.ts) and the pipeline file's
 * `admit` key: an item's own author when admit.authors names them, else a
 * person with triage rights or more who put an admitting label on it — never
 * a bot's label, never the item's text. And the dispatcher's own claims, which
 * count whatever trusted-authors says (decision/claims.ts).
 */
import { emit } from '../src/codec/index.js';
import { DEFAULT_PIPELINE, parsePipelineFile, resolvePipeline } from '../src/common/pipeline.js';
import { parseTrustPolicy, type Labelled } from '../src/common/trust.js';
import { admissionOf, admitPolicy, admittingLabels, admittingLabelsOn, authorAdmitted } from '../src/decision/admission.js';
import { stageRuns, withOwnClaims } from '../src/decision/claims.js';
import type { Candidate } from '../src/decision/collect.js';
import { parseAndValidate } from '../src/codec/index.js';

const trust = parseTrustPolicy('OWNER, MEMBER, COLLABORATOR, github-actions[bot]');
const admit = DEFAULT_PIPELINE.admit;
const stranger = { login: 'drive-by', association: 'NONE' };
const member = { login: 'maintainer', association: 'MEMBER' };
const ADMITTING = admittingLabels(admit, ['workflow:investigating', 'workflow:ready-to-build', null]);

const labelled = (over: Partial<Labelled> = {}): Labelled => ({
  label: 'forge:go',
  login: 'triager',
  bot: false,
  role: 'triage',
  at: '2026-01-01T00:00:00Z',
  ...over,
});

describe('admission', () => {
  test("a trusted author's own item is admitted; a stranger's waits, saying how to admit it", () => {
    expect(admissionOf({ author: member, labels: [] }, admit, trust, ADMITTING, null)).toEqual({
      admitted: true,
      by: 'opened by maintainer, an admitted author',
    });
    const waits = admissionOf({ author: stranger, labels: [] }, admit, trust, ADMITTING, []);
    expect(waits).toEqual({
      admitted: false,
      why: 'waiting for a maintainer to admit: opened by drive-by (NONE), whom admit.authors does not name',
      how: 'a person with triage rights or more adds the label `forge:go` or `workflow:investigating` or `workflow:ready-to-build`',
    });
  });

  test('a label admits only when a person with triage rights or more put it there', () => {
    const item = { author: stranger, labels: ['forge:go'] };
    for (const role of ['triage', 'write', 'maintain', 'admin'] as const)
      expect(admissionOf(item, admit, trust, ADMITTING, [labelled({ role })]).admitted).toBe(true);
    for (const role of ['read', 'none'] as const) {
      const a = admissionOf(item, admit, trust, ADMITTING, [labelled({ role })]);
      expect(a).toMatchObject({
        admitted: false,
        why: `waiting for a maintainer to admit: forge:go was added by triager (role ${role} here), who cannot admit`,
      });
    }
    // A bot's label is no person's decision, whatever role its app holds.
    expect(admissionOf(item, admit, trust, ADMITTING, [labelled({ login: 'forge-agent[bot]', bot: true, role: 'admin' })])).toMatchObject({
      admitted: false,
      why: 'waiting for a maintainer to admit: forge:go was added by forge-agent[bot], a bot, who cannot admit',
    });
    // Any one person's label among several admits.
    expect(
      admissionOf(item, admit, trust, ADMITTING, [
        labelled({ role: 'read' }),
        labelled({ label: 'workflow:investigating', login: 'lead', role: 'admin' }),
      ]),
    ).toEqual({
      admitted: true,
      by: 'workflow:investigating added by lead (admin)',
    });
  });

  test('admit.authors: trusted (the default), none, or a list of its own', () => {
    expect(authorAdmitted(admit, member, trust)).toBe(true);
    expect(authorAdmitted({ authors: 'none', label: 'forge:go' }, member, trust)).toBe(false);
    expect(admitPolicy({ authors: 'none', label: null }, trust)).toBeNull();
    const list = { authors: '@lead, OWNER', label: null };
    expect(authorAdmitted(list, { login: 'Lead', association: 'NONE' }, trust)).toBe(true);
    expect(authorAdmitted(list, member, trust)).toBe(false);
    // A list's permission: entry reads the roles resolved for trusted-authors.
    const roles = parseTrustPolicy('OWNER');
    roles.permissions.set('quiet-member', 'write');
    expect(authorAdmitted({ authors: 'permission:write', label: null }, { login: 'quiet-member', association: 'CONTRIBUTOR' }, roles)).toBe(
      true,
    );
    expect(admissionOf({ author: stranger, labels: [] }, { authors: 'none', label: null }, trust, [], [])).toMatchObject({
      how: 'the pipeline file admits no label: add its author to admit.authors',
    });
  });

  test('the admitting labels: the file’s label and each stage’s starts label, once each, matched whatever their case', () => {
    expect(admittingLabels({ authors: 'trusted', label: 'Forge:Go' }, ['forge:go', null, 'workflow:investigating'])).toEqual([
      'Forge:Go',
      'workflow:investigating',
    ]);
    expect(admittingLabelsOn(['bug', 'FORGE:GO'], ['forge:go', 'workflow:investigating'])).toEqual(['forge:go']);
  });
});

describe('the pipeline file’s admit key', () => {
  test('defaults, each form, and one error line for a bad value', () => {
    expect(resolvePipeline(parsePipelineFile('')).pipeline.admit).toEqual({ authors: 'trusted', label: 'forge:go' });
    expect(parsePipelineFile('admit: { authors: none, label: none }').admit).toEqual({ authors: 'none', label: null });
    expect(parsePipelineFile('admit:\n  authors: [OWNER, "@lead"]\n').admit).toEqual({ authors: 'OWNER, @lead', label: 'forge:go' });
    expect(parsePipelineFile('admit: { label: agents-go }').admit).toEqual({ authors: 'trusted', label: 'agents-go' });
    expect(() => parsePipelineFile('admit: { label: "a,b" }')).toThrow(
      '.github/forge.yml:1: admit.label: must be a label name (1 to 50 characters, no comma) or none, got "a,b"',
    );
    expect(() => parsePipelineFile('admit: { authors: [WHO_KNOWS!] }')).toThrow(/^\.github\/forge\.yml:1: admit\.authors: /);
    expect(() => parsePipelineFile('admit: { who: me }')).toThrow(
      '.github/forge.yml:1: admit.who: unknown key; the keys here are authors, label',
    );
  });
});

describe("the dispatcher's own claims", () => {
  const claim = (login: string, at: string, extra: Partial<Candidate['comment'] & object> = {}): Candidate => {
    const text = emit('CLAIM', { fields: { Holder: 'run 1', Files: 'x', Interfaces: 'x', TTL: '2h', Stage: 'BUILDER' } });
    const [annotation] = parseAndValidate(text);
    const comment = { id: 1, url: 'u', author: { login, association: 'NONE' }, body: text, createdAt: at, ...extra };
    return {
      annotation,
      id: 'c1',
      scope: 'own',
      item: {
        number: 1,
        kind: 'issue',
        url: '',
        title: '',
        author: stranger,
        body: '',
        labels: [],
        state: 'open',
        milestone: null,
        comments: [],
      },
      comment,
      url: 'u',
      author: comment.author,
      createdAt: at,
      untrusted: 'author is not in trusted-authors',
      contextDigest: null,
    };
  };
  const now = Date.parse('2026-01-01T01:00:00Z');
  const ours = (login: string | null) => login === 'forge-dispatcher[bot]';

  test("count whatever trusted-authors says; a stranger's, a hidden one, or one edited by someone else do not", () => {
    const mine = claim('forge-dispatcher[bot]', '2026-01-01T00:30:00Z');
    expect(stageRuns([mine], 'BUILDER', now, 7_200_000).live).toBeNull();
    expect(stageRuns(withOwnClaims([mine], ours), 'BUILDER', now, 7_200_000).live?.holder).toBe('run 1');
    for (const other of [
      claim('drive-by', '2026-01-01T00:30:00Z'),
      claim('forge-dispatcher[bot]', '2026-01-01T00:30:00Z', { hidden: 'spam' }),
      claim('forge-dispatcher[bot]', '2026-01-01T00:30:00Z', { editor: 'drive-by' }),
    ])
      expect(stageRuns(withOwnClaims([other], ours), 'BUILDER', now, 7_200_000).live).toBeNull();
  });

  test('attempts are counted from when a person resumed the item', () => {
    const old = withOwnClaims(
      [claim('forge-dispatcher[bot]', '2026-01-01T00:00:00Z'), claim('forge-dispatcher[bot]', '2026-01-01T00:10:00Z')],
      ours,
    );
    expect(stageRuns(old, 'BUILDER', now + 86_400_000, 60_000).count).toBe(2);
    expect(stageRuns(old, 'BUILDER', now + 86_400_000, 60_000, '2026-01-01T00:05:00Z').count).toBe(1);
    expect(stageRuns(old, 'BUILDER', now + 86_400_000, 60_000, '2026-01-01T00:20:00Z').count).toBe(0);
  });
});
