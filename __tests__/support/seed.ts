/** Annotation texts for seeding threads, written through the codec like a conforming producer would. */
import { emit } from '../../src/codec/index.js';

export const investigator = (verdict = 'CONFIRMED') =>
  emit('INVESTIGATOR', {
    fields: {
      Verdict: verdict,
      Confidence: 'HIGH',
      Severity: 'MEDIUM',
      'Task Type': 'Bug Fix',
      'Decomposition Assessment': 'NO — single fix',
    },
    sections: { 'Root Cause': 'The lookup does not guard null.', Recommendation: 'Guard it.' },
  });

export const builder = (branch = 'fix/x') =>
  emit('BUILDER', {
    fields: { Branch: `\`${branch}\``, Commits: 'a1b2c3d', 'Files changed': '2' },
    sections: { Changes: ['`a.ts` — guard'] },
  });

export const contract = () =>
  emit('CONTRACT', {
    fields: { 'Task type': 'Bug Fix' },
    sections: { 'Proposed Approach': 'Guard the lookup.', Deliverables: [{ File: 'a.ts', Change: 'guard', Why: 'null' }] },
  });

export const context = () => emit('CONTEXT', { sections: { 'Known Pitfalls for This Area': 'None known.' } });
export const architect = () => emit('ARCHITECT', { sections: { 'Implementation Order': ['guard a.ts'] } });

export const trajectory = (pr = 131, completed = '2026-01-15T09:30:00Z') =>
  emit('TRAJECTORY', {
    title: 'Pipeline Trajectory — #128',
    table: [
      { Phase: 'Investigation', Result: 'CONFIRMED (HIGH)', Notes: 'Task type: Bug Fix' },
      { Phase: 'Build', Result: 'done', Notes: 'Branch: `fix/x`' },
      { Phase: 'Review + Merge', Result: 'merged', Notes: `PR #${pr}` },
    ],
    fields: { Decisions: 'Guard at the lookup site.', Anomalies: 'None', Completed: completed },
  });

export const reviewer = (verdict = 'APPROVED', domain?: string) =>
  emit('REVIEWER', {
    ...(domain ? { title: `Review — ${domain}` } : {}),
    fields: { Verdict: verdict },
    findings: [{ severity: 'LOW', location: '`a.ts:1`', issue: 'nit', suggestedFix: 'rename', prevention: 'lint' }],
  });

/** §4.4: one render → critique iteration. */
export const critique = (verdict: string) =>
  emit('CRITIQUE', {
    title: 'Critique — shop · iteration 1/3',
    fields: { 'Lint floor': 'PASS', Render: 'desktop + mobile captured', 'Perceptual findings': '- N1: ok', Verdict: verdict },
  });

/** §4.4: one user-feedback round. */
export const userFeedback = (satisfied: string) =>
  emit('USER_FEEDBACK', {
    title: 'User Feedback — shop · round 1',
    fields: {
      'Section target': 'all',
      'Feedback type': 'freeform',
      'Asset URL': 'none',
      Modification: 'warmer',
      'Emotion target': 'unchanged',
      Satisfied: satisfied,
      'Freeform notes': '-',
    },
  });
