import { parseAndValidate, emit } from '../src/codec/index.js';
import { readFileSync } from 'node:fs';
test('smoke', () => {
  const spec = readFileSync('../shared/spec/forge-protocol-v1.md', 'utf8');
  const i = spec.indexOf('An investigation agent finishes triaging');
  const block = spec.slice(spec.indexOf('```\n', i) + 4, spec.indexOf('\n```', spec.indexOf('```\n', i) + 4));
  const r = parseAndValidate(block);
  console.log(JSON.stringify(r.map(({raw, ...x}) => x), null, 1));
  console.log(emit('INVESTIGATOR', { fields: { Verdict: 'CONFIRMED', Confidence: 'HIGH', Severity: 'LOW', 'Task Type': 'Bug Fix', 'Decomposition Assessment': 'NO — x' }, sections: { 'Affected Files': ['a.py', 'b.py'], 'Root Cause': 'x <!-- FORGE:X -->\n```\nopen' } }));
});
