// The type table of docs/annotation-types.md, rendered from a registry: the
// generator passes the built codec's, and a test passes the source's, so a
// registry edit without regenerating the page fails in both places.

const cell = (s) => String(s ?? '').replace(/\|/g, '\\|');
const code = (s) => `\`${s}\``;

function fieldText(f) {
  const values = f.values ? ` ∈ ${f.values.map(code).join(', ')}${f.strictValues === false ? ' (other values warn)' : ''}` : '';
  const shape = f.codeSpan ? ' (written as a code span)' : '';
  return `${cell(f.name)}${values}${shape}`;
}

function why(spec, f) {
  if (f.because) return f.because;
  return spec.ref;
}

export function render(TYPES) {
  const out = [
    '# Annotation types: what is required, what is template-only',
    '',
    'Generated from the type registry (`src/codec/registry.ts`) by `node scripts/annotation-types.mjs`; `npm test` fails when this page and the registry differ.',
    '',
    'Section numbers cite [the spec](forge-protocol-v1.md); "implementation-notes.md §N" cites [the implementation notes](implementation-notes.md).',
    '',
    '- **Required** — absent or empty is an **error** (`valid: false`; forge-check `validation: strict` fails). Either the spec makes it normative, or deployed readers depend on it and the reference codec enforces it (the reason column says which).',
    "- **Template-only** — the spec's template shows it, nothing normative asks for it: absent is a **warning** and a `templateGaps` entry; only forge-check `validation: template` fails on it.",
    '- **Values** — a present field whose value is outside the listed values is an error, required or not (a leading match: `NO — reason` matches `NO`).',
    '- **Unknown types** are never invalid (§7.2(4), §8): their sentinel state is reported and a warning added.',
    '',
    '| Type | Form | Title emitted | Completion sentinel | Required (why) | Template-only | Other checks |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const spec of TYPES) {
    const required = spec.fields.filter((f) => f.presence === 'required').map((f) => `${fieldText(f)} (${cell(why(spec, f))})`);
    const template = [
      ...(spec.leadTable?.presence === 'template' ? [`the ${spec.leadTable.columns.join(' / ')} table`] : []),
      ...spec.fields.filter((f) => f.presence === 'template').map(fieldText),
      ...spec.sections.filter((s) => s.presence === 'template').map((s) => `\`### ${cell(s.heading)}\``),
    ];
    const optional = spec.fields.filter((f) => f.presence === 'optional' && f.values).map(fieldText);
    const other = [...optional.map((o) => `optional ${o}`)];
    if (spec.structure === 'design-rationale')
      other.push('MUST: a "Considered & rejected:" alternative and a "→ Produces DESIGN_SPEC:" line (§4.4)');
    if (spec.structure === 'reviewer-findings') other.push("each finding's Severity ∈ CRITICAL, HIGH, MEDIUM, LOW");
    if (spec.structure === 'card')
      other.push('base64url decodes to canonical JSON whose SHA-256 starts with the sha (implementation-notes.md §3)');
    if (spec.form === 'inline') other.push('non-empty inline value (§3.4)');
    for (const [s, note] of Object.entries(spec.misclosures ?? {})) other.push(`\`<!-- ${s} -->\` is reported as ${cell(note)}`);
    for (const [a, f] of Object.entries(spec.aliases ?? {})) other.push(`\`${cell(a)}\` is read as ${cell(f)} (warning)`);
    const form = spec.form === 'body' ? 'body' : spec.form;
    const sentinel = spec.complete
      ? code(`<!-- ${spec.complete} -->`)
      : spec.form === 'body'
        ? 'none: complete when present'
        : 'one line: complete when present';
    out.push(
      `| \`${spec.type}\` (${spec.ref}) | ${form} | ${spec.title ? cell(spec.title) : '—'} | ${sentinel} | ${required.join('; ') || '—'} | ${template.join('; ') || '—'} | ${other.join('; ') || '—'} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
