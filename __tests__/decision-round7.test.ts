/**
 * The pure rules behind round 7 and the router, one case each: what a
 * stranger's text hides is shown (decision/hidden.ts); a claim's run is read
 * from its URL, GitHub's word on the run decides whether the claim holds, and
 * a claim and the partial its run wrote are one attempt (decision/claims.ts).
 */
import { emit, parseAndValidate } from '../src/codec/index.js';
import { revealedNote, revealHidden } from '../src/decision/hidden.js';
import { runIdOf, stageRuns } from '../src/decision/claims.js';
import type { Candidate } from '../src/decision/collect.js';
import type { RunState } from '../src/common/work-item.js';

describe('hidden text made visible', () => {
  test('each HTML comment and invisible character is shown in brackets and counted; plain text is untouched', () => {
    const r = revealHidden('a<!-- x -->b\u200bc\u2066d\u2069e\ufeff😀<!-- open');
    expect(r.text).toBe('a[hidden HTML comment:  x ]b[U+200B]c[U+2066]d[U+2069]e[U+FEFF]😀[hidden HTML comment:  open]');
    expect([r.comments, r.invisible]).toEqual([2, 4]);
    expect(revealedNote(r)).toBe(
      'It hid 2 HTML comments and 4 zero-width or bidirectional characters that GitHub does not show: each is shown below in [brackets], as text.',
    );
    expect(revealedNote(revealHidden('plain — text ✓'))).toBeNull();
    expect(revealHidden('plain — text ✓').text).toBe('plain — text ✓');
    expect(revealedNote(revealHidden('\u200e'))).toBe(
      'It hid 1 zero-width or bidirectional character that GitHub does not show: each is shown below in [brackets], as text.',
    );
    expect(revealedNote(revealHidden('<!--a-->'))).toBe(
      'It hid 1 HTML comment that GitHub does not show: each is shown below in [brackets], as text.',
    );
  });
});

describe('claims that follow the real run', () => {
  const run = 'https://github.example/o/r/actions/runs/77';
  const cand = (text: string, at: string, id: number): Candidate => {
    const [annotation] = parseAndValidate(text);
    const author = { login: 'github-actions[bot]', association: 'NONE' };
    return {
      annotation,
      id: `c${id}`,
      scope: 'own',
      item: { number: 1, kind: 'issue', url: '', title: '', author, body: '', labels: [], state: 'open', milestone: null, comments: [] },
      comment: { id, url: `u${id}`, author, body: text, createdAt: at },
      url: `u${id}`,
      author,
      createdAt: at,
      untrusted: null,
      contextDigest: null,
    };
  };
  const claim = (at: string, id: number, withRun = true) =>
    cand(
      emit('CLAIM', {
        fields: { Holder: 'd', Files: 'x', Interfaces: 'x', TTL: '1m', Stage: 'BUILDER', ...(withRun ? { Run: run } : {}) },
      }),
      at,
      id,
    );
  const partial = (at: string, id: number, of = `${run}/attempts/1`) =>
    cand(emit('BUILDER', { fields: { Branch: 'b', Run: of }, status: 'partial' }), at, id);
  const now = Date.parse('2026-01-01T05:00:00Z');
  const state = (status: string, conclusion: string | null = null): Map<number, RunState> =>
    new Map([[77, { id: 77, status, conclusion, url: run }]]);

  test('a run id is read from a run URL or an attempt URL; anything else names none', () => {
    expect(runIdOf(run)).toBe(77);
    expect(runIdOf(`${run}/attempts/2`)).toBe(77);
    expect(runIdOf('https://github.example/o/r/issues/1')).toBeNull();
    expect(runIdOf(null)).toBeNull();
  });

  test('GitHub’s word decides while it knows the run: in progress holds past the ttl, completed ends it at once', () => {
    const k = [claim('2026-01-01T04:00:00Z', 1)];
    expect(stageRuns(k, 'BUILDER', now, 60_000, '', state('in_progress')).live?.run).toBe(run);
    expect(stageRuns(k, 'BUILDER', now, 60_000, '', state('queued')).live).not.toBeNull();
    const done = stageRuns(k, 'BUILDER', Date.parse('2026-01-01T04:00:30Z'), 60_000, '', state('completed', 'failure'));
    expect(done.live).toBeNull();
    expect(done.attempts).toEqual([
      { kind: 'claim', url: 'u1', createdAt: '2026-01-01T04:00:00Z', run, conclusion: 'failure', partial: null },
    ]);
    // No answer for the run: the ttl decides.
    expect(stageRuns(k, 'BUILDER', Date.parse('2026-01-01T04:00:30Z'), 60_000).live).not.toBeNull();
    expect(stageRuns(k, 'BUILDER', now, 60_000).live).toBeNull();
  });

  test('a claim and the partial its run wrote are one attempt; a partial of another run is one more', () => {
    const runs = stageRuns([claim('2026-01-01T04:00:00Z', 1), partial('2026-01-01T04:10:00Z', 2)], 'BUILDER', now, 60_000);
    expect(runs.count).toBe(1);
    expect(runs.attempts).toEqual([{ kind: 'claim', url: 'u1', createdAt: '2026-01-01T04:00:00Z', run, conclusion: null, partial: 'u2' }]);
    const other = stageRuns(
      [claim('2026-01-01T04:00:00Z', 1), partial('2026-01-01T04:10:00Z', 2, 'https://github.example/o/r/actions/runs/99/attempts/1')],
      'BUILDER',
      now,
      60_000,
    );
    expect(other.count).toBe(2);
    // An older dispatcher's claim (no run named) still pairs with one partial, as before.
    expect(stageRuns([claim('2026-01-01T04:00:00Z', 1, false), partial('2026-01-01T04:10:00Z', 2)], 'BUILDER', now, 60_000).count).toBe(1);
  });
});
