/** The Markdown readers inside an annotation, each construct at its edges. */
import { parse } from '../src/codec/index.js';
import { parseFieldLine, parseHeading } from '../src/codec/structure.js';

const read = (lines: string[]) => parse(['<!-- FORGE:ACME -->', ...lines].join('\n'))[0];

test('field lines: both shapes, and what is not one', () => {
  expect(parseFieldLine('**Key**: v')).toEqual({ key: 'Key', value: 'v' });
  expect(parseFieldLine('**Key:** v')).toEqual({ key: 'Key', value: 'v' });
  expect(parseFieldLine('**Key:**')).toEqual({ key: 'Key', value: '' });
  expect(parseFieldLine('**Key:**\tv')).toEqual({ key: 'Key', value: 'v' });
  expect(parseFieldLine('**Key:**v')).toBeNull();
  expect(parseFieldLine('**Key** v')).toBeNull();
  expect(parseFieldLine('****: v')).toBeNull();
  expect(parseFieldLine('** **: v')).toBeNull();
  expect(parseFieldLine('*Key*: v')).toBeNull();
  expect(parseFieldLine(' **Key**: v')).toBeNull();
  expect(parseFieldLine('**Key**:   spaced  ')).toEqual({ key: 'Key', value: 'spaced' });
  expect(parseFieldLine('**A &#42; B**: x &amp; y')).toEqual({ key: 'A * B', value: 'x & y' });
});

test('headings: two or three #, a space or the end after them, an optional closing run', () => {
  expect(parseHeading('## T')).toEqual({ level: 2, text: 'T' });
  expect(parseHeading('### H ###')).toEqual({ level: 3, text: 'H' });
  expect(parseHeading('### H#')).toEqual({ level: 3, text: 'H#' });
  expect(parseHeading('### C# ##')).toEqual({ level: 3, text: 'C#' });
  expect(parseHeading('###')).toEqual({ level: 3, text: '' });
  expect(parseHeading('### ###')).toEqual({ level: 3, text: '' });
  expect(parseHeading('#### H')).toBeNull();
  expect(parseHeading('# H')).toBeNull();
  expect(parseHeading('##H')).toBeNull();
  expect(parseHeading('##\tH')).toEqual({ level: 2, text: 'H' });
});

test('the title is the first ## before anything else; a later ## is a section', () => {
  expect(read(['## Title', '## Second', 'x']).title).toBe('Title');
  expect(read(['## Title', '## Second', 'x']).sections).toEqual({ Second: 'x' });
  expect(read(['text', '## Late']).title).toBeNull();
  expect(read(['', '## After blank']).title).toBe('After blank');
  expect(read(['  ## Indented']).title).toBeNull();
});

test('sections: the first of a name wins, blank ends trimmed, fenced lines kept, a repeat not merged', () => {
  const a = read(['### A', '', 'one', '```', '### not a heading', '```', '', '### B', 'two', '### A', 'three']);
  expect(a.sections).toEqual({ A: 'one\n```\n### not a heading\n```', B: 'two' });
  expect(read(['### Empty', '', '### Next', 'x']).sections).toEqual({ Empty: '', Next: 'x' });
  const crlf = parse('<!-- FORGE:ACME -->\r\n### S\r\nl1\r\nl2')[0];
  expect(crlf.sections.S).toBe('l1\nl2');
});

test('tables: lines that start with a bar; header, delimiter, rows; escaped bars; the closing bar optional; a blank line or other text ends it', () => {
  const a = read(['| A | B |', '|:--|--:|', '| 1 | x \\| y |', 'a | b', '', '| 2 | z |']);
  expect(a.tables).toEqual([{ section: null, headers: ['A', 'B'], rows: [{ A: '1', B: 'x | y' }] }]);
  const b = read(['### S', '| A | B', '| --- | --- |', '| 1 | 2 |', '| 3 |']);
  expect(read(['A | B', '--- | ---', '1 | 2']).tables).toEqual([]);
  expect(b.tables).toEqual([
    {
      section: 'S',
      headers: ['A', 'B'],
      rows: [
        { A: '1', B: '2' },
        { A: '3', B: '' },
      ],
    },
  ]);
  expect(read(['| A |', '| x |']).tables).toEqual([]);
  expect(read(['| A |', '|---|x']).tables).toEqual([]);
  expect(read(['| A |', '| : |']).tables).toEqual([]);
  expect(read(['| A |', '```', '|---|', '```']).tables).toEqual([]);
  expect(read(['| A |', '|---|', '- not a row', '| 1 |']).tables[0].rows).toEqual([]);
});

test('checklists: any marker and indent, x or X, and nothing else', () => {
  const a = read(['### S', '- [ ] a', '* [x] b', '+ [X] c', '  - [x] d', '- [y] no', '- [x]no', '-[x] no', '- [x]', '1. [x] no']);
  expect(a.checklist).toEqual([
    { section: 'S', checked: false, text: 'a' },
    { section: 'S', checked: true, text: 'b' },
    { section: 'S', checked: true, text: 'c' },
    { section: 'S', checked: true, text: 'd' },
    { section: 'S', checked: true, text: '' },
  ]);
});

test('a value under an empty key: list markers and indented lines, up to the first other line', () => {
  const a = read([
    '**L**:',
    '1. one',
    '2) two',
    '10. ten',
    '* star',
    '+ plus',
    '-',
    '**M**:',
    '1.nope',
    '**N**:',
    '1234567890. too long',
    '**O**:',
    '```',
    '- fenced',
    '```',
  ]);
  expect(a.fields).toMatchObject({ L: '1. one\n2) two\n10. ten\n* star\n+ plus\n-', M: '', N: '', O: '' });
  expect(read(['**P**:', '', '', '- after blanks', '', '- not joined']).fields.P).toBe('- after blanks');
});

test('Decomposition Assessment read from its section, only when no field line gives it', () => {
  const inv = (extra: string[]) => parse(['<!-- FORGE:INVESTIGATOR -->', ...extra].join('\n'))[0];
  expect(inv(['### Decomposition Assessment', '', '**YES** — split']).fields['Decomposition Assessment']).toBe('YES — split');
  expect(inv(['### Decomposition Assessment', 'NO plain']).fields['Decomposition Assessment']).toBe('NO plain');
  expect(inv(['### Decomposition Assessment', '**unclosed']).fields['Decomposition Assessment']).toBe('**unclosed');
  expect(inv(['**Decomposition Assessment**: NO', '### Decomposition Assessment', '**YES**']).fields['Decomposition Assessment']).toBe(
    'NO',
  );
  expect(inv(['### Decomposition Assessment', '']).fields['Decomposition Assessment']).toBeUndefined();
  expect(inv(['### Decomposition Assessment', '**YES**']).fieldList).toEqual([{ key: 'Decomposition Assessment', value: 'YES', line: -1 }]);
});

test('REVIEWER findings: a bullet opens one, detail lines fill it, a heading or a second severity starts over', () => {
  const a = parse(
    [
      '<!-- FORGE:REVIEWER -->',
      '**Verdict**: APPROVED',
      '### Findings',
      '- **Severity**: HIGH',
      '  **Location**: `a:1`',
      '  **Suggested fix**: f',
      '  **Prevention**: p',
      '  **Other**: ignored',
      '**Severity**: LOW',
      '* **Issue**: star bullet',
      '```',
      '- **Severity**: fenced',
      '```',
      '### Next',
      '  **Issue**: orphan',
    ].join('\n'),
  )[0];
  expect(a.findings).toEqual([
    { severity: 'HIGH', location: '`a:1`', issue: null, suggestedFix: 'f', prevention: 'p' },
    { severity: 'LOW', location: null, issue: null, suggestedFix: null, prevention: null },
    { severity: null, location: null, issue: 'star bullet', suggestedFix: null, prevention: null },
    { severity: null, location: null, issue: 'orphan', suggestedFix: null, prevention: null },
  ]);
});

test('TRAJECTORY: the table with a Phase column, the first PR and the first branch', () => {
  const t = parse(
    [
      '<!-- FORGE:TRAJECTORY -->',
      '| Other | X |',
      '|---|---|',
      '| o | x |',
      '',
      '| PHASE | Result | Notes |',
      '|---|---|---|',
      '| Build | done | Branch: `one` and Branch: `two` |',
      '| Merge | PR #12 | PR #13 |',
    ].join('\n'),
  )[0].trajectory;
  expect(t).toMatchObject({
    phases: [
      { phase: 'Build', result: 'done' },
      { phase: 'Merge', result: 'PR #12', notes: 'PR #13' },
    ],
    prNumber: 12,
    branch: 'one',
  });
  expect(parse('<!-- FORGE:TRAJECTORY -->\n**Decisions**: d')[0].trajectory).toMatchObject({
    phases: [],
    prNumber: null,
    branch: null,
    decisions: 'd',
  });
});

test('DESIGN_SPEC: the first json/jsonc/json5 fence, its own closing fence dropped', () => {
  const spec = (fence: string, info: string, close = fence) =>
    parse(`<!-- FORGE:DESIGN_SPEC -->\n${fence}text\nno\n${close}\n${fence}${info}\n{"a": 1}\n${close}`)[0].designSpec;
  expect(spec('```', 'jsonc')).toEqual({ a: 1 });
  expect(spec('~~~~', 'JSON5')).toEqual({ a: 1 });
  expect(spec('````', 'json', '`````')).toEqual({ a: 1 });
  expect(parse('<!-- FORGE:DESIGN_SPEC -->\n```yaml\na: 1\n```')[0].designSpec).toBeNull();
  expect(parse('<!-- FORGE:DESIGN_SPEC -->\n```json\n{"a": 1}')[0].designSpec).toEqual({ a: 1 });
});

test('keys named like Object internals are own properties', () => {
  const a = read(['**__proto__**: x', '**constructor**: y']);
  expect(Object.getOwnPropertyNames(a.fields)).toEqual(['__proto__', 'constructor']);
  expect(Object.getOwnPropertyDescriptor(a.fields, '__proto__')?.value).toBe('x');
  expect(Object.getPrototypeOf(a.fields)).toBe(Object.prototype);
  const b = read(['| __proto__ |', '|---|', '| v |']);
  expect(Object.hasOwn(b.tables[0].rows[0], '__proto__')).toBe(true);
});
