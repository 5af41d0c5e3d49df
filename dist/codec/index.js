import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  xJ: () => (/* reexport */ ENDED_WITHOUT_BUILD),
  GU: () => (/* reexport */ EmitError),
  uG: () => (/* reexport */ LabelTransitionError),
  tr: () => (/* binding */ MAX_BODY_LENGTH),
  _8: () => (/* reexport */ NEEDS_HUMAN),
  tE: () => (/* reexport */ RESERVED_LABELS),
  ci: () => (/* reexport */ TASK_TYPES),
  ZK: () => (/* reexport */ TERMINAL_LABELS),
  QE: () => (/* reexport */ TYPES),
  r3: () => (/* reexport */ WORKFLOW_PREFIX),
  Fv: () => (/* reexport */ WORKFLOW_STATES),
  Hp: () => (/* reexport */ anyTerminal),
  dj: () => (/* reexport */ canonicalJson),
  MP: () => (/* reexport */ cardValue),
  Tv: () => (/* reexport */ closesFence),
  SS: () => (/* reexport */ codeSpan),
  Iz: () => (/* reexport */ completionSentinels),
  JV: () => (/* reexport */ currentState),
  D4: () => (/* reexport */ decode),
  YC: () => (/* reexport */ editDistance),
  Ic: () => (/* reexport */ emit),
  TY: () => (/* reexport */ emitAnnotation),
  Bz: () => (/* reexport */ emitPartial),
  y: () => (/* reexport */ emittedCompleteSentinel),
  c5: () => (/* reexport */ emittedPartialSentinel),
  lF: () => (/* reexport */ encode),
  SU: () => (/* reexport */ findAnnotations),
  wl: () => (/* reexport */ foldLine),
  VI: () => (/* reexport */ getField),
  c0: () => (/* reexport */ isControl),
  mO: () => (/* reexport */ isInline),
  nO: () => (/* reexport */ isIso8601),
  BK: () => (/* reexport */ isReferenceTypeName),
  Bs: () => (/* reexport */ isReserved),
  JA: () => (/* reexport */ isReservedLabel),
  Hd: () => (/* reexport */ isTerminal),
  Ai: () => (/* reexport */ isTypeName),
  ke: () => (/* reexport */ isWorkflowLabel),
  nS: () => (/* reexport */ matchEnum),
  UW: () => (/* reexport */ nearMisses),
  dK: () => (/* reexport */ nearestReserved),
  TN: () => (/* reexport */ oneLine),
  sv: () => (/* reexport */ openingFence),
  qg: () => (/* reexport */ parse),
  r8: () => (/* binding */ parseAndValidate),
  XE: () => (/* reexport */ partialSentinels),
  Re: () => (/* reexport */ planTransition),
  hD: () => (/* reexport */ quote),
  hX: () => (/* reexport */ readCard),
  OG: () => (/* reexport */ stripCodeSpan),
  KD: () => (/* reexport */ typeSpec),
  tf: () => (/* reexport */ validate)
});

;// CONCATENATED MODULE: external "node:module"
const external_node_module_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:module");
;// CONCATENATED MODULE: ./src/codec/card.ts
/**
 * FORGE:CARD — `v1 sha:{8 hex} b64:{base64url}` (implementation-notes.md §3). The payload is
 * canonical JSON (keys sorted recursively, one line, UTF-8); the base64url
 * alphabet cannot spell `<!--` or `-->`, so the machine surface needs no escaping.
 */

function canonicalJson(value) {
    if (value === null || typeof value !== 'object') {
        const s = JSON.stringify(value);
        if (s === undefined)
            throw new Error('CARD payload holds a value JSON cannot represent');
        return s;
    }
    if (Array.isArray(value))
        return `[${value.map(canonicalJson).join(',')}]`;
    const obj = value;
    const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}
/**
 * node:crypto, loaded the first time a CARD is read or written: loading it
 * takes about 2 ms, most comments hold no CARD, and the codec is imported by
 * every step and by the CLI.
 */
let card_crypto;
function sha8(text) {
    card_crypto ??= (0,external_node_module_namespaceObject.createRequire)(import.meta.url)('node:crypto');
    return card_crypto.createHash('sha256').update(text).digest('hex').slice(0, 8);
}
function cardValue(payload) {
    const json = canonicalJson(payload);
    const b64 = Buffer.from(json).toString('base64url');
    return `v1 sha:${sha8(json)} b64:${b64}`;
}
/** Marks text that is not JSON (JSON.parse never returns a symbol). */
const NOT_JSON = Symbol('not JSON');
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return NOT_JSON;
    }
}
function readCard(value) {
    if (value === null)
        return null;
    const parts = value.split(' ').filter((p) => p !== '');
    if (parts.length !== 3 || !parts[1].startsWith('sha:') || !parts[2].startsWith('b64:'))
        return null;
    const sha = parts[1].slice(4);
    const b64 = parts[2].slice(4);
    const bytes = Buffer.from(b64, 'base64url');
    // Only the exact encoding of its own bytes is accepted: no padding, no stray
    // bits, no character outside the alphabet (Buffer.from skips those silently).
    const exact = bytes.toString('base64url') === b64;
    const text = bytes.toString('utf8');
    const parsed = exact ? parseJson(text) : NOT_JSON;
    const json = parsed === NOT_JSON ? null : text;
    const payload = parsed === NOT_JSON ? null : parsed;
    return { version: parts[0], sha, b64, payload, json };
}
/** Errors for a CARD's value; empty when it is well formed. */
function cardErrors(card) {
    if (!card)
        return ['value is not of the form `v1 sha:{8 hex} b64:{base64url}`'];
    const errors = [];
    if (card.version !== 'v1')
        errors.push(`unknown CARD version "${card.version}"`);
    if (!/^[0-9a-f]{8}$/.test(card.sha))
        errors.push('sha is not 8 lower-case hex digits');
    if (card.json === null) {
        errors.push('b64 does not decode to JSON');
        return errors;
    }
    if (canonicalJson(card.payload) !== card.json)
        errors.push('payload is not canonical JSON (sorted keys, one line)');
    if (sha8(card.json) !== card.sha)
        errors.push(`sha:${card.sha} does not match the payload (sha:${sha8(card.json)})`);
    return errors;
}

;// CONCATENATED MODULE: ./src/codec/chars.ts
/**
 * The character codes the codec's scanners compare against, by name (the
 * micromark way: no bare numbers in the state machines), and the few
 * character classes they share.
 */
const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const EXCLAMATION = 33;
const NUMBER_SIGN = 35;
const RIGHT_PAREN = 41;
const ASTERISK = 42;
const PLUS = 43;
const DASH = 45;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const COLON = 58;
const GREATER_THAN = 62;
const UPPER_A = 65;
const UPPER_Z = 90;
const LEFT_BRACKET = 91;
const BACKSLASH = 92;
const RIGHT_BRACKET = 93;
const UNDERSCORE = 95;
const GRAVE = 96;
const VERTICAL_BAR = 124;
const TILDE = 126;
const EN_DASH = 0x2013;
const EM_DASH = 0x2014;
/** Space or tab: the only blank characters. Other whitespace is content (and never a line break). */
function isBlankChar(c) {
    return c === SPACE || c === TAB;
}
/**
 * What a regular expression's `\s` matches: tab to carriage return, space, and
 * the Unicode spaces. Only TRAJECTORY's `Branch:` reader uses it, to keep the
 * exact rule the pattern it replaced had; everywhere else blank means space or tab.
 */
function isEcmaSpace(c) {
    return ((c >= TAB && c <= CR) ||
        c === SPACE ||
        c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff);
}
function isUpper(c) {
    return c >= UPPER_A && c <= UPPER_Z;
}
function isDigit(c) {
    return c >= DIGIT_0 && c <= DIGIT_9;
}
/** `[A-Z0-9_]`: the characters after the first in a type name. */
function isTypeNameChar(c) {
    return isUpper(c) || isDigit(c) || c === UNDERSCORE;
}
/** The first offset in [from, to) that is not a space or tab; `to` when there is none. */
function skipBlank(s, from, to) {
    let i = from;
    while (i < to && isBlankChar(s.charCodeAt(i)))
        i++;
    return i;
}
/** The end of [from, to) once trailing spaces and tabs are dropped; `from` when nothing else is left. */
function trimBlankEnd(s, from, to) {
    let j = to;
    while (j > from && isBlankChar(s.charCodeAt(j - 1)))
        j--;
    return j;
}
/** Trim spaces and tabs only. (One function with its own loops: it runs for nearly every value read.) */
function trimBlank(s) {
    let a = 0;
    let b = s.length;
    while (a < b && (s.charCodeAt(a) === SPACE || s.charCodeAt(a) === TAB))
        a++;
    while (b > a && (s.charCodeAt(b - 1) === SPACE || s.charCodeAt(b - 1) === TAB))
        b--;
    return a === 0 && b === s.length ? s : s.slice(a, b);
}

;// CONCATENATED MODULE: ./src/codec/escape.ts
/**
 * Injection hardening (implementation-notes.md §1). Byte-compatible with the reference codec:
 * `&` is escaped first so the scheme is injective, then the three sequences that
 * open or close an HTML comment. Decoding runs the same steps in reverse.
 */

const ENCODE = [
    ['&', '&amp;'],
    ['<!--', '&lt;!--'],
    ['-->', '--&gt;'],
    ['--!>', '--!&gt;'],
];
const DECODE = [
    ['--!&gt;', '--!>'],
    ['--&gt;', '-->'],
    ['&lt;!--', '<!--'],
    ['&amp;', '&'],
];
function encode(text) {
    // No shortcut here: encode runs once per value written, and writing is rare next to reading.
    let out = text;
    for (const [from, to] of ENCODE)
        out = out.split(from).join(to);
    return out;
}
function decode(text) {
    // Every encoded sequence holds `&`: most values have none and come back as they are (decode runs per value read).
    if (text.indexOf('&') < 0)
        return text;
    let out = text;
    for (const [from, to] of DECODE)
        out = out.split(from).join(to);
    return out;
}
/*
 * Keys additionally escape `*` as `&#42;`: a key is delimited by `**`, so a key
 * holding `**` could not otherwise be read back. `&` is already escaped, so
 * `&#42;` can only have come from `*`.
 */
function encodeKey(key) {
    return encode(key).split('*').join('&#42;');
}
function decodeKey(key) {
    if (key.indexOf('&') < 0)
        return key;
    return decode(key.split('&#42;').join('*'));
}
/**
 * Fold a value for a single-line slot: every line break (CRLF counts as one)
 * becomes one space, then surrounding spaces and tabs are trimmed. U+2028,
 * U+2029 and U+0085 are not line breaks to this codec anywhere, so they stay.
 */
function foldLine(value) {
    // A plain alternation of literals: the engine's own linear scan, no backtracking.
    return trimBlank(value.replace(/\r\n|\r|\n/g, ' '));
}

;// CONCATENATED MODULE: ./src/codec/fences.ts
/**
 * CommonMark fenced code blocks, as far as annotations care (implementation-notes.md §2): a
 * fence opens with three or more backticks or tildes indented at most three
 * spaces; it closes with a line of the same character, at least as long, and
 * nothing else but spaces; an unclosed fence runs to the end of the comment.
 * Inside a fence, tags, sentinels and fields are text — GitHub shows them.
 */

function leadingSpaces(text) {
    let i = 0;
    while (i < text.length && text.charCodeAt(i) === SPACE)
        i++;
    return i;
}
function runLength(text, from, char) {
    let i = from;
    while (i < text.length && text.charCodeAt(i) === char)
        i++;
    return i - from;
}
/** The fence this line opens, or null. */
function openingFence(text) {
    const indent = leadingSpaces(text);
    if (indent > 3)
        return null;
    const char = text.charCodeAt(indent);
    if (char !== GRAVE && char !== TILDE)
        return null;
    const length = runLength(text, indent, char);
    if (length < 3)
        return null;
    // A backtick fence's info string may not contain a backtick.
    if (char === GRAVE && text.indexOf('`', indent + length) >= 0)
        return null;
    return { char, length };
}
/** The info string after an opening fence (`jsonc` in ```jsonc). */
function fenceInfo(text) {
    const indent = leadingSpaces(text);
    const char = text.charCodeAt(indent);
    const length = runLength(text, indent, char);
    return text.slice(indent + length).trim();
}
function closesFence(text, fence) {
    const indent = leadingSpaces(text);
    if (indent > 3)
        return false;
    const length = runLength(text, indent, fence.char);
    if (length < fence.length)
        return false;
    for (let i = indent + length; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (!isBlankChar(c))
            return false;
    }
    return true;
}
/**
 * Close any fence left open at the end of emitted Markdown, so that nothing the
 * emitter writes after it (a field, a sentinel) is swallowed into a code block.
 */
function closeOpenFences(markdown, lines) {
    let open = null;
    for (const text of lines) {
        if (open) {
            if (closesFence(text, open))
                open = null;
        }
        else {
            open = openingFence(text);
        }
    }
    if (!open)
        return markdown;
    return `${markdown}\n${String.fromCharCode(open.char).repeat(open.length)}`;
}

;// CONCATENATED MODULE: ./src/codec/lines.ts
/**
 * The one line model every part of the codec uses: a line ends at LF, CR, or
 * CRLF (GitHub returns CRLF). Nothing else — not U+2028, U+2029 or U+0085 —
 * ends a line, so no character inside a value can start a line of its own.
 *
 * Lines are kept as offsets into the body, not as strings: a line's text is
 * sliced only when something needs to read it, which keeps parsing linear and
 * light on memory even for a body of 65,536 empty lines.
 */

let scratchStart = new Int32Array(1024);
let scratchEnd = new Int32Array(1024);
let scratchFenced = new Uint8Array(1024);
function ensureScratch(size) {
    if (scratchStart.length >= size)
        return;
    let cap = scratchStart.length;
    while (cap < size)
        cap *= 2;
    scratchStart = new Int32Array(cap);
    scratchEnd = new Int32Array(cap);
    scratchFenced = new Uint8Array(cap);
}
/** A line's place relative to fenced code blocks (micromark names its states; so do we). */
const OUTSIDE_FENCE = 0;
/** Inside a fence: its content lines and its closing delimiter. */
const IN_FENCE = 1;
/** The line that opens a fence. */
const FENCE_OPENING = 2;
class LineTable {
    body;
    count;
    start;
    end;
    /** Per line: OUTSIDE_FENCE, IN_FENCE (content and closing delimiter) or FENCE_OPENING. Set by the scanner. */
    fenced;
    constructor(body) {
        this.body = body;
        const n = body.length;
        // One pass into scratch arrays reused across calls (a body has at most
        // length + 1 lines); the table keeps views of them. parse() is synchronous
        // and keeps no table after it returns, so reuse is safe and saves an
        // allocation and a counting pass per comment.
        ensureScratch(n + 1);
        const start = scratchStart;
        const end = scratchEnd;
        let line = 0;
        let s = 0;
        // Native indexOf finds each LF and each CR: far faster than a character
        // loop on ordinary text, and still linear. A CR right before an LF is part
        // of CRLF; any other CR ends a line by itself.
        let cr = body.indexOf('\r');
        for (;;) {
            const nl = body.indexOf('\n', s);
            const stop = nl < 0 ? n : nl;
            // A CR right before the LF is part of CRLF, not a line of its own.
            while (cr >= 0 && cr < stop && cr !== nl - 1) {
                start[line] = s;
                end[line] = cr;
                line++;
                s = cr + 1;
                cr = body.indexOf('\r', s);
            }
            if (nl < 0)
                break;
            start[line] = s;
            end[line] = cr >= s && cr === nl - 1 ? nl - 1 : nl;
            line++;
            s = nl + 1;
            // The CR of this line's CRLF is behind us now: find the next one. Any other CR in hand is still ahead.
            if (cr === nl - 1)
                cr = body.indexOf('\r', s);
        }
        start[line] = s;
        end[line] = n;
        this.count = line + 1;
        this.start = start;
        this.end = end;
        this.fenced = scratchFenced;
        scratchFenced.fill(0, 0, this.count);
    }
    text(i) {
        return this.body.slice(this.start[i], this.end[i]);
    }
    /** Offset of the first character that is not a space or tab (the line's end when there is none). */
    firstNonBlank(i) {
        const e = this.end[i];
        let p = this.start[i];
        const body = this.body;
        while (p < e && (body.charCodeAt(p) === SPACE || body.charCodeAt(p) === TAB))
            p++;
        return p;
    }
    isBlank(i) {
        return this.firstNonBlank(i) === this.end[i];
    }
}
/** Line texts, for callers that want strings. */
function splitLines(body) {
    const t = new LineTable(body);
    const out = [];
    for (let i = 0; i < t.count; i++)
        out.push(t.text(i));
    return out;
}
function isBlankLine(text) {
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (!isBlankChar(c))
            return false;
    }
    return true;
}

;// CONCATENATED MODULE: ./src/codec/registry.ts
/**
 * The type registry: every annotation type this codec knows, as data.
 *
 * Adding a type means adding a row here. The parser, validator and emitter
 * read these rows; none of them branches on a type name.
 */

/** §4.1's task types, in the template's order. */
const TASK_TYPES = ['Bug Fix', 'Feature', 'Refactor', 'Maintenance', 'Investigation'];
const lifecycle = (t) => ({
    category: 'lifecycle',
    ref: '§4.1',
    form: 'body',
    keyStyle: 'colon-after',
    ...t,
});
const design = (t) => ({
    category: 'design',
    ref: '§4.4',
    form: 'body',
    keyStyle: 'colon-inside',
    ...t,
});
const inline = (type, extra = {}) => ({
    type,
    category: 'cross-artifact',
    ref: '§4.2',
    form: 'inline',
    complete: null,
    fields: [],
    sections: [],
    keyStyle: 'colon-after',
    ...extra,
});
const marker = (type, extra = {}) => ({
    type,
    category: 'control',
    ref: '§4.3',
    form: 'marker',
    complete: null,
    fields: [],
    sections: [],
    keyStyle: 'colon-after',
    ...extra,
});
const field = (presence) => (name, values, extra = {}) => ({
    name,
    presence,
    ...(values ? { values } : {}),
    ...extra,
});
/** Normative in the spec, or relied on by deployed readers (then `because` says so). */
const req = field('required');
/** Shown by the spec's template, not required by anything normative. */
const tpl = field('template');
const opt = field('optional');
/** Deployed readers and the reference codec require these (implementation-notes.md §3). */
const READERS = 'deployed readers depend on it; the reference codec requires it';
const TYPES = [
    // §4.1 lifecycle
    lifecycle({
        type: 'INVESTIGATOR',
        complete: 'INVESTIGATION:COMPLETE',
        title: 'Investigation Report',
        misclosures: { 'INVESTIGATION:INVALID': 'not the §4.1 sentinel (Verdict: INVALID)' },
        fields: [
            req('Verdict', ['CONFIRMED', 'PARTIAL', 'INVALID']),
            req('Confidence', ['HIGH', 'MEDIUM', 'LOW']),
            req('Severity', ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']),
            req('Task Type', TASK_TYPES),
            req('Decomposition Assessment', ['YES', 'NO'], { fromSection: true }),
        ],
        sections: [
            { heading: 'What Was Claimed', kind: 'text' },
            { heading: 'What We Found', kind: 'text' },
            { heading: 'Root Cause', kind: 'text' },
            { heading: 'Affected Files', kind: 'numbered' },
            { heading: 'Evidence', kind: 'text' },
            { heading: 'Recommendation', kind: 'text' },
        ],
    }),
    lifecycle({
        type: 'DECOMPOSED',
        complete: 'FORGE:DECOMPOSED:COMPLETE',
        title: 'Decomposition Complete',
        fields: [],
        sections: [
            { heading: 'Sub-Issues Created', kind: 'list', presence: 'template' },
            { heading: 'Decomposition Rationale', kind: 'text' },
        ],
    }),
    lifecycle({
        type: 'CONTRACT',
        complete: null,
        title: 'Builder Contract',
        // The spec writes "Task type" here (lower-case t); keys compare case-insensitively.
        fields: [req('Task type', TASK_TYPES, { strictValues: false, because: READERS })],
        sections: [
            { heading: 'Proposed Approach', kind: 'text' },
            { heading: 'Deliverables', kind: 'table', columns: ['File', 'Change', 'Why'] },
            { heading: 'Acceptance Criteria', kind: 'checklist' },
            { heading: 'Quality Considerations', kind: 'text' },
            { heading: 'Out of Scope', kind: 'text' },
        ],
    }),
    lifecycle({
        type: 'CONTEXT',
        complete: 'FORGE:CONTEXT:COMPLETE',
        title: 'Implementation Context',
        fields: [],
        sections: [
            { heading: 'Known Pitfalls for This Area', kind: 'text' },
            { heading: 'Historical Findings on These Files', kind: 'text' },
            { heading: 'Past Bugs in This Module', kind: 'text' },
            { heading: 'Related Code Paths (must stay consistent)', kind: 'text' },
            { heading: 'Patterns That Cause Bugs Here', kind: 'text' },
            { heading: 'Successful Similar Implementations', kind: 'text' },
        ],
    }),
    lifecycle({
        type: 'ARCHITECT',
        complete: 'FORGE:ARCHITECT:COMPLETE',
        title: 'Implementation Plan',
        fields: [],
        sections: [
            {
                heading: 'Affected Paths (ALL must be updated)',
                kind: 'table',
                columns: ['#', 'File', 'Function/Class', 'Change Required', 'Why'],
            },
            { heading: 'Implementation Order', kind: 'numbered' },
            { heading: 'Consistency Checks', kind: 'checklist' },
            { heading: 'Risk Assessment', kind: 'table', columns: ['Risk', 'Severity', 'Mitigation'] },
            { heading: 'Files to Read Before Coding', kind: 'list' },
        ],
    }),
    lifecycle({
        type: 'BUILDER',
        complete: 'FORGE:BUILDER:COMPLETE',
        title: 'Implementation Complete',
        // The spec's template carries these three; the reference requires them (implementation-notes.md §3).
        fields: [
            req('Branch', undefined, { because: READERS, codeSpan: true }),
            req('Commits', undefined, { because: READERS }),
            req('Files changed', undefined, { because: READERS }),
        ],
        aliases: {
            'Branch name': 'Branch',
            Commit: 'Commits',
            'Commit SHA': 'Commits',
            'Commit SHAs': 'Commits',
            'Files Modified': 'Files changed',
        },
        sections: [
            { heading: 'Approach', kind: 'text' },
            { heading: 'Changes', kind: 'list' },
            { heading: 'Acceptance Criteria Status', kind: 'checklist' },
            { heading: 'Testing Checklist', kind: 'checklist' },
        ],
    }),
    lifecycle({
        type: 'REVIEWER',
        complete: null,
        title: 'Review',
        fields: [req('Verdict', ['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED'], { because: READERS })],
        sections: [{ heading: 'Findings', kind: 'text' }],
        structure: 'reviewer-findings',
    }),
    lifecycle({
        type: 'TRAJECTORY',
        complete: null,
        title: 'Pipeline Trajectory',
        leadTable: { columns: ['Phase', 'Result', 'Notes'], presence: 'template' },
        fields: [tpl('Decisions'), tpl('Anomalies'), tpl('Completed', undefined, { format: 'iso8601' })],
        aliases: {
            'Pipeline completed': 'Completed',
            'Completed at': 'Completed',
            'Completion time': 'Completed',
            'Key decisions': 'Decisions',
            Decision: 'Decisions',
            Anomaly: 'Anomalies',
        },
        sections: [],
        structure: 'trajectory',
    }),
    // §4.2 cross-artifact
    inline('KNOWLEDGE_GIST'),
    inline('MILESTONE_INDEX', { postedIn: 'milestone' }),
    inline('PRIOR_GIST', { postedIn: 'issue-body' }),
    // Written in a gist's description as `<!-- FORGE:MEMORY_INDEX: {owner/repo} -->` (implementation-notes.md §2).
    inline('MEMORY_INDEX', { postedIn: 'gist-description' }),
    // §4.3 control and error markers
    marker('DISPATCHER', { form: 'described-marker' }),
    marker('PHASE_COMPLETE', { form: 'described-marker' }),
    marker('REVIEW_STARTED'),
    marker('ANCESTRY_FAILED'),
    marker('GATE_FAILED'),
    marker('PUSH_BLOCKED'),
    marker('PUSH_FAILED'),
    // §4.4 design pipeline
    design({
        type: 'DESIGN_CONTEXT',
        complete: 'FORGE:DESIGN_CONTEXT:COMPLETE',
        title: 'Design Context',
        fields: [tpl('Message'), tpl('Audience / objection'), tpl('Corpus grammar'), tpl('Diverge from (memory)')],
        sections: [],
    }),
    design({
        type: 'DESIGN_RATIONALE',
        complete: null,
        title: 'Design Rationale',
        // §4.4: "MUST carry … a named signature move"; the rejected alternative and
        // the DESIGN_SPEC link are checked by the design-rationale structure rule.
        fields: [
            tpl('Intent / feeling'),
            tpl('Audience / objection'),
            tpl('Communication hierarchy'),
            tpl('Direction'),
            req('Signature move'),
            tpl('Trying this time'),
            tpl('Non-goals'),
        ],
        sections: [],
        structure: 'design-rationale',
    }),
    design({
        type: 'DESIGN_CANDIDATES',
        complete: null,
        title: 'Design Candidates',
        fields: [tpl('Archetype (committed)'), tpl('Directions'), tpl('Judge scores'), tpl('Selected')],
        sections: [],
    }),
    design({
        type: 'DESIGN_SPEC',
        complete: null,
        title: 'Design Spec',
        fields: [],
        sections: [],
        structure: 'design-spec',
    }),
    design({
        type: 'CRITIQUE',
        complete: 'FORGE:CRITIQUE:COMPLETE',
        title: 'Critique',
        fields: [tpl('Lint floor'), tpl('Render'), tpl('Perceptual findings'), tpl('Verdict', ['PASS', 'ITERATE', 'BUDGET-EXHAUSTED'])],
        sections: [],
    }),
    design({
        type: 'USER_FEEDBACK',
        complete: 'FORGE:USER_FEEDBACK:COMPLETE',
        title: 'User Feedback',
        fields: [
            tpl('Section target'),
            tpl('Feedback type', ['asset', 'emotion', 'direction', 'freeform']),
            tpl('Asset URL'),
            tpl('Modification'),
            tpl('Emotion target', ['trust', 'speed', 'power', 'craft', 'play', 'unchanged']),
            tpl('Satisfied', ['yes', 'no']),
            tpl('Freeform notes'),
        ],
        sections: [],
    }),
    design({
        type: 'BENCH_SCORECARD',
        complete: 'FORGE:BENCH_SCORECARD:COMPLETE',
        title: 'ABC Benchmark Scorecard',
        keyStyle: 'colon-after',
        fields: [tpl('Corpus version'), tpl('Products'), tpl('Judge calibration')],
        sections: [],
    }),
    design({
        type: 'DESIGN_SHIPPED',
        complete: 'FORGE:DESIGN_SHIPPED:COMPLETE',
        title: 'Design Shipped',
        fields: [tpl('Archetype'), tpl('Gates'), tpl('Critique iterations'), tpl('Written to memory')],
        sections: [],
    }),
    // §4.5 audit
    {
        type: 'AUDIT',
        category: 'audit',
        ref: '§4.5',
        form: 'body',
        complete: null,
        title: 'Audit',
        fields: [],
        sections: [],
        keyStyle: 'colon-after',
    },
    {
        type: 'SECURITY_AUDIT',
        category: 'audit',
        ref: '§4.5',
        form: 'body',
        complete: null,
        title: 'Security Audit',
        fields: [],
        sections: [],
        keyStyle: 'colon-after',
    },
    // Deployed extras (implementation-notes.md §3)
    {
        type: 'CLAIM',
        category: 'deployed',
        ref: 'implementation-notes.md §3',
        form: 'body',
        complete: 'CLAIM:COMPLETE',
        title: 'Claim',
        fields: [
            req('Holder', undefined, { because: READERS }),
            req('Files', undefined, { because: READERS }),
            req('Interfaces', undefined, { because: READERS }),
            req('TTL', undefined, { because: READERS }),
        ],
        sections: [],
        keyStyle: 'colon-after',
    },
    // A marker whose deployed form carries `**Holder**:` and `**Released**:` lines under the tag.
    marker('CLAIM_RELEASED', { category: 'deployed', ref: 'implementation-notes.md §3', fields: [opt('Holder'), opt('Released')] }),
    {
        type: 'AUTOPILOT_CYCLE',
        category: 'deployed',
        ref: 'implementation-notes.md §3',
        form: 'body',
        complete: 'FORGE:AUTOPILOT_CYCLE:COMPLETE',
        title: 'Autopilot Cycle',
        fields: [
            req('cycle_id', undefined, { because: READERS }),
            req('timestamp', undefined, { because: READERS }),
            req('baseline', undefined, { because: READERS }),
            req('phase_markers', undefined, { because: READERS }),
        ],
        sections: [],
        keyStyle: 'colon-after',
    },
    {
        type: 'REMEDIATION',
        category: 'deployed',
        ref: 'implementation-notes.md §3',
        form: 'body',
        complete: 'FORGE:REMEDIATION:COMPLETE',
        title: 'Remediation',
        fields: [opt('Re-gate outcome', ['AUTO-LANDED', 'HELD-AWAITING-MERGE', 'RE-ESCALATED', 'UNFIXABLE'])],
        sections: [],
        keyStyle: 'colon-after',
    },
    inline('CARD', { category: 'deployed', ref: 'implementation-notes.md §3', structure: 'card' }),
];
const BY_TYPE = new Map(TYPES.map((t) => [t.type, t]));
/** Each type's `aliases` keyed by the lower-cased spelling, built once: the parser looks one up per field read. */
const ALIASES = new Map(TYPES.filter((t) => t.aliases).map((t) => [
    t.type,
    new Map(Object.entries(t.aliases ?? {}).map(([written, field]) => [written.toLowerCase(), field])),
]));
/** The field `key` is another spelling of for `type` (registry `aliases`, any letter case), or undefined. */
function aliasFor(type, key) {
    return ALIASES.get(type)?.get(key.toLowerCase());
}
function typeSpec(type) {
    return BY_TYPE.get(type);
}
function isReserved(type) {
    return BY_TYPE.has(type);
}
function isControl(type) {
    const spec = BY_TYPE.get(type);
    return spec !== undefined && (spec.form === 'marker' || spec.form === 'described-marker');
}
function isInline(type) {
    return BY_TYPE.get(type)?.form === 'inline';
}
/** Type identifiers this codec reads: `[A-Z][A-Z0-9_]*` (implementation-notes.md §2). */
function isTypeName(s) {
    if (s.length === 0 || s.length > 100)
        return false;
    const first = s.charCodeAt(0);
    if (!isUpper(first))
        return false;
    for (let i = 1; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (!isTypeNameChar(c))
            return false;
    }
    return true;
}
/** The stricter `[A-Z_]+` grammar the reference and text-contains readers use. */
function isReferenceTypeName(s) {
    if (s.length === 0)
        return false;
    for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (!(isUpper(c) || c === UNDERSCORE))
            return false;
    }
    return true;
}
/** A completion sentinel's partial twin: `INVESTIGATION:COMPLETE` → `INVESTIGATION:PARTIAL`. */
function partialOf(complete) {
    return `${complete.slice(0, complete.length - 'COMPLETE'.length)}PARTIAL`;
}
/**
 * The sentinels that mark `type` partial (§3.3 and implementation-notes.md §2):
 * the generic `{TYPE}:PARTIAL`, the `FORGE:{TYPE}:PARTIAL` shape, and the
 * completion sentinel with COMPLETE replaced by PARTIAL. The last is what we emit.
 */
function partialSentinels(type) {
    const out = new Set([`${type}:PARTIAL`, `FORGE:${type}:PARTIAL`]);
    const complete = completionSentinels(type)[0];
    if (complete)
        out.add(partialOf(complete));
    return [...out];
}
/**
 * The completion sentinel the emitter writes: the type's own, or §3.2's
 * generic `{TYPE}:COMPLETE` for a custom type (a reader matching the spec's
 * line exactly sees it). Null for types complete by presence.
 */
function emittedCompleteSentinel(type) {
    const spec = BY_TYPE.get(type);
    if (spec)
        return spec.complete;
    return `${type}:COMPLETE`;
}
/** The partial sentinel the emitter writes: the completion sentinel with PARTIAL, else §3.3's `{TYPE}:PARTIAL`. */
function emittedPartialSentinel(type) {
    const complete = emittedCompleteSentinel(type);
    return complete ? partialOf(complete) : `${type}:PARTIAL`;
}
/**
 * The sentinels that complete `type`. A reserved type has exactly its own; a
 * custom type accepts `FORGE:{T}:COMPLETE` or `{T}:COMPLETE` (implementation-notes.md §2) and
 * nothing else, so a foreign sentinel never completes it.
 */
function completionSentinels(type) {
    const spec = BY_TYPE.get(type);
    if (spec)
        return spec.complete ? [spec.complete] : [];
    return [`FORGE:${type}:COMPLETE`, `${type}:COMPLETE`];
}
const SENTINEL_CACHE = new Map();
/** Both sentinel sets of a type, computed once per type. */
function sentinelSets(type) {
    let sets = SENTINEL_CACHE.get(type);
    if (!sets) {
        sets = { complete: new Set(completionSentinels(type)), partial: new Set(partialSentinels(type)) };
        // Custom types are unbounded; keep the cache from growing without limit on hostile input.
        if (SENTINEL_CACHE.size < 1000)
            SENTINEL_CACHE.set(type, sets);
    }
    return sets;
}
/** Types complete by presence alone: reserved types without a sentinel, markers, inline values. */
function completeWhenPresent(type) {
    const spec = BY_TYPE.get(type);
    return spec !== undefined && spec.complete === null;
}

;// CONCATENATED MODULE: ./src/codec/tags.ts
/**
 * Classifies one line as an opening tag, a sentinel, or text. Written as a
 * scan over character codes with no regular expressions, so the time is
 * linear in the line's length whatever it holds (implementation-notes.md §5).
 */


const TEXT = { kind: 'text' };
/** Does the HTML comment interior close early (`-->` or `--!>`)? Then it is not one tag. */
function closesEarly(s, from, to) {
    // `to` is where the line's own `-->` starts: reading a character past the
    // interior meets that `-`, never `>`, so the `--!>` check needs no bound.
    for (let i = from; i + 2 < to; i++) {
        if (s.charCodeAt(i) === DASH && s.charCodeAt(i + 1) === DASH) {
            const c = s.charCodeAt(i + 2);
            if (c === GREATER_THAN)
                return true;
            if (c === EXCLAMATION && s.charCodeAt(i + 3) === GREATER_THAN)
                return true;
        }
    }
    return false;
}
/**
 * The end of the type name starting at `from` (`from` itself when none starts
 * there). It needs no end bound: the interior ends at a blank or at the `-` of
 * `-->`, and neither is part of a name.
 */
function readName(s, from) {
    if (!isUpper(s.charCodeAt(from)))
        return from;
    let i = from + 1;
    while (isTypeNameChar(s.charCodeAt(i)))
        i++;
    return i;
}
function sentinelState(s, from, to) {
    const word = s.slice(from, to);
    return word === 'COMPLETE' || word === 'PARTIAL' || word === 'INVALID' ? word : null;
}
function classifyLine(line) {
    const a = skipBlank(line, 0, line.length);
    const b = trimBlankEnd(line, a, line.length);
    // Both delimiters may overlap (`<!-->`): the interior is then empty or
    // negative, no name can be read from it, and the line is text.
    if (!line.startsWith('<!--', a) || !line.startsWith('-->', b - 3))
        return TEXT;
    if (closesEarly(line, a + 4, b - 3))
        return TEXT;
    const i = skipBlank(line, a + 4, b - 3);
    const j = trimBlankEnd(line, i, b - 3);
    if (line.startsWith('FORGE:', i))
        return classifyForge(line, i + 6, j);
    // `<!-- NAME:COMPLETE -->` / `<!-- NAME:PARTIAL -->`
    const nameEnd = readName(line, i);
    if (nameEnd === i || line.charCodeAt(nameEnd) !== COLON)
        return TEXT;
    const state = sentinelState(line, nameEnd + 1, j);
    if (!state)
        return TEXT;
    const type = line.slice(i, nameEnd);
    return { kind: 'sentinel', name: `${type}:${state}`, type, state, forgePrefix: false };
}
function classifyForge(line, i, j) {
    const nameEnd = readName(line, i);
    if (nameEnd === i)
        return TEXT;
    const type = line.slice(i, nameEnd);
    if (nameEnd === j)
        return { kind: 'open', type, value: null, valueForm: null };
    const c = line.charCodeAt(nameEnd);
    if (c === COLON) {
        const afterColon = nameEnd + 1;
        const rawValue = line.slice(afterColon, j);
        // Inline-value types take everything after the colon as their value, so
        // `<!-- FORGE:PRIOR_GIST: COMPLETE -->` is the value COMPLETE (implementation-notes.md §2).
        if (isInline(type))
            return { kind: 'open', type, value: trimBlank(rawValue), valueForm: 'colon' };
        const k = skipBlank(line, afterColon, j);
        const state = sentinelState(line, k, j);
        // A reserved non-inline type reads `FORGE:T:COMPLETE` (or `: COMPLETE`) as its sentinel;
        // a custom type only without the space — with it, it is a custom inline value.
        if (state && (k === afterColon || isReserved(type))) {
            return { kind: 'sentinel', name: `FORGE:${type}:${state}`, type, state, forgePrefix: true };
        }
        if (k > afterColon || isReserved(type))
            return { kind: 'open', type, value: trimBlank(rawValue), valueForm: 'colon' };
        return TEXT;
    }
    if (isBlankChar(c)) {
        const k = skipBlank(line, nameEnd, j);
        const d = line.charCodeAt(k);
        // `<!-- FORGE:DISPATCHER — {desc} -->`: em dash, en dash, or a lone hyphen.
        const isDash = d === EM_DASH || d === EN_DASH || (d === DASH && (k + 1 === j || isBlankChar(line.charCodeAt(k + 1))));
        if (isDash)
            return { kind: 'open', type, value: trimBlank(line.slice(k + 1, j)), valueForm: 'dash' };
    }
    return TEXT;
}

;// CONCATENATED MODULE: ./src/codec/jsonc.ts
/** The JSONC the DESIGN_SPEC template carries (§4.4): JSON with comments and trailing commas. */
/** JSON with `//` and `/* *\/` comments and trailing commas; null when it does not parse. */
function parseJsonc(text) {
    let out = '';
    let i = 0;
    const n = text.length;
    while (i < n) {
        const c = text[i];
        if (c === '"') {
            let j = i + 1;
            while (j < n && text[j] !== '"')
                j += text[j] === '\\' ? 2 : 1;
            out += text.slice(i, j + 1);
            i = j + 1;
        }
        else if (c === '/' && text[i + 1] === '/') {
            while (i < n && text[i] !== '\n')
                i++;
        }
        else if (c === '/' && text[i + 1] === '*') {
            const end = text.indexOf('*/', i + 2);
            i = end < 0 ? n : end + 2;
        }
        else {
            out += c;
            i++;
        }
    }
    // Trailing commas: a comma followed only by whitespace before } or ].
    let cleaned = '';
    for (let k = 0; k < out.length; k++) {
        const c = out[k];
        if (c === '"') {
            let j = k + 1;
            while (j < out.length && out[j] !== '"')
                j += out[j] === '\\' ? 2 : 1;
            cleaned += out.slice(k, j + 1);
            k = j;
            continue;
        }
        if (c === ',') {
            let j = k + 1;
            while (j < out.length && /\s/.test(out[j]))
                j++;
            if (out[j] === '}' || out[j] === ']')
                continue;
        }
        cleaned += c;
    }
    try {
        return JSON.parse(cleaned);
    }
    catch {
        return null;
    }
}

;// CONCATENATED MODULE: ./src/codec/structure.ts
/**
 * Reads the Markdown structure inside one annotation: fields, sections,
 * tables, checklists, and the per-type shapes (REVIEWER findings, TRAJECTORY,
 * the DESIGN_SPEC jsonc block). Every reader is one pass over the lines.
 */






/**
 * Set an own property even when the key is `__proto__`: keys come from comment
 * text, and a plain assignment would silently drop that one (or, for an
 * object value, change the prototype).
 */
function setOwn(target, key, value) {
    // defineProperty only where it is needed: it turns an object slow, and this runs per field.
    if (key === '__proto__')
        Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    else
        target[key] = value;
}
/** `**Key**: value` or `**Key:** value` at column 0; null for any other line. */
function parseFieldLine(text) {
    if (text.charCodeAt(0) !== ASTERISK || text.charCodeAt(1) !== ASTERISK)
        return null;
    const close = text.indexOf('**', 2);
    if (close <= 2)
        return null;
    const rawKey = text.slice(2, close);
    const rest = close + 2;
    let key;
    let value;
    if (text.charCodeAt(rest) === COLON) {
        key = rawKey;
        value = text.slice(rest + 1);
    }
    else if (rawKey.endsWith(':') && (rest === text.length || isBlankChar(text.charCodeAt(rest)))) {
        key = rawKey.slice(0, -1);
        value = text.slice(rest);
    }
    else {
        return null;
    }
    key = trimBlank(key);
    if (key === '')
        return null;
    return { key: decodeKey(key), value: decode(trimBlank(value)) };
}
/** `## Title` / `### Heading`: level and text, or null. */
function parseHeading(text) {
    let level = 0;
    while (level < text.length && text.charCodeAt(level) === NUMBER_SIGN)
        level++;
    if (level < 2 || level > 3)
        return null;
    const c = text.charCodeAt(level);
    if (level !== text.length && !isBlankChar(c))
        return null;
    let body = trimBlank(text.slice(level));
    // Optional closing sequence of #s.
    let e = body.length;
    while (e > 0 && body.charCodeAt(e - 1) === NUMBER_SIGN)
        e--;
    if (e < body.length && (e === 0 || body.charCodeAt(e - 1) === SPACE))
        body = trimBlank(body.slice(0, e));
    return { level, text: decode(body) };
}
/** A field, section or cell by key: the exact key first, else any letter case (the spec writes `Task type` and `Task Type`). */
function getField(record, key) {
    if (Object.hasOwn(record, key))
        return record[key];
    const lower = key.toLowerCase();
    for (const k of Object.keys(record))
        if (k.toLowerCase() === lower)
            return record[k];
    return undefined;
}
function splitRow(text) {
    let s = trimBlank(text);
    if (s.startsWith('|'))
        s = s.slice(1);
    if (s.endsWith('|') && !s.endsWith('\\|'))
        s = s.slice(0, -1);
    const cells = [];
    let from = 0;
    // The text of a cell read so far when it holds `\|` (a literal bar); usually empty.
    let escaped = '';
    for (let bar = s.indexOf('|'); bar >= 0; bar = s.indexOf('|', bar + 1)) {
        if (bar > 0 && s.charCodeAt(bar - 1) === BACKSLASH) {
            escaped += `${s.slice(from, bar - 1)}|`;
            from = bar + 1;
            continue;
        }
        cells.push(decode(trimBlank(escaped + s.slice(from, bar))));
        escaped = '';
        from = bar + 1;
    }
    cells.push(decode(trimBlank(escaped + s.slice(from))));
    return cells;
}
function isDelimiterRow(text) {
    const s = trimBlank(text);
    if (!s.includes('-'))
        return false;
    let sawDash = false;
    for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c === DASH)
            sawDash = true;
        else if (c !== VERTICAL_BAR && c !== COLON && !isBlankChar(c))
            return false;
    }
    return sawDash && s.includes('|');
}
/** `- [ ] text` / `- [x] text` with any list marker and indent. */
function parseChecklist(text) {
    const s = trimBlank(text);
    const m = s.charCodeAt(0);
    if ((m !== DASH && m !== ASTERISK && m !== PLUS) ||
        s.charCodeAt(1) !== SPACE ||
        s.charCodeAt(2) !== LEFT_BRACKET ||
        s.charCodeAt(4) !== RIGHT_BRACKET)
        return null;
    const box = s[3];
    if (box !== ' ' && box !== 'x' && box !== 'X')
        return null;
    if (s.length > 5 && s.charCodeAt(5) !== SPACE)
        return null;
    return { checked: box !== ' ', text: decode(trimBlank(s.slice(5))) };
}
/**
 * A section's Markdown: the content lines from `from` to `to` (exclusive),
 * blank lines trimmed at both ends. One slice of the body when the lines are
 * contiguous (the common case), else the lines joined.
 */
function sectionText(t, lines, from, to) {
    let a = from;
    let b = to;
    while (a < b && t.isBlank(lines[a]))
        a++;
    while (b > a && t.isBlank(lines[b - 1]))
        b--;
    if (a === b)
        return '';
    let text;
    if (lines[b - 1] - lines[a] === b - 1 - a) {
        text = t.body.slice(t.start[lines[a]], t.end[lines[b - 1]]);
        // Line breaks become LF: CRLF (what GitHub returns), then any lone CR. Native splits, no pattern to compile.
        if (text.indexOf('\r') >= 0) {
            text = text.split('\r\n').join('\n');
            if (text.indexOf('\r') >= 0)
                text = text.split('\r').join('\n');
        }
    }
    else {
        const parts = [];
        for (let k = a; k < b; k++)
            parts.push(t.text(lines[k]));
        text = parts.join('\n');
    }
    return decode(text);
}
/** CommonMark: an ordered list item's number has at most nine digits (`1234567890.` is a paragraph). */
const LIST_ITEM_DIGITS_MAX = 9;
/** A list item (`- `, `* `, `+ `, `1. `, `1) `) starting at `p`. */
function isListItem(body, p, e) {
    const c = body.charCodeAt(p);
    if (c === DASH || c === ASTERISK || c === PLUS)
        return p + 1 === e || isBlankChar(body.charCodeAt(p + 1));
    let q = p;
    while (q < e && isDigit(body.charCodeAt(q)))
        q++;
    if (q === p || q - p > LIST_ITEM_DIGITS_MAX)
        return false;
    const d = body.charCodeAt(q);
    return (d === DOT || d === RIGHT_PAREN) && (q + 1 === e || body.charCodeAt(q + 1) === SPACE);
}
/**
 * The value a producer writes under a `**Key**:` line left empty: the list
 * items or indented lines that follow (blank lines before the first allowed),
 * joined with LF. Each line is looked at by at most one such key, since a list
 * or indented line is never itself a field line: linear overall.
 */
function valueUnder(t, lines, n) {
    const parts = [];
    for (let m = n + 1; m < lines.length; m++) {
        const i = lines[m];
        if (t.fenced[i] !== OUTSIDE_FENCE)
            break;
        const p = t.firstNonBlank(i);
        const e = t.end[i];
        if (p === e) {
            if (parts.length === 0)
                continue;
            break;
        }
        if (p === t.start[i] && !isListItem(t.body, p, e))
            break;
        parts.push(trimBlank(t.text(i)));
    }
    return decode(parts.join('\n'));
}
/**
 * The state one pass over an annotation's content lines carries. Each
 * construct below reads one kind of line and updates it; `readStructure`
 * dispatches by the line's first character, so prose costs one look.
 */
class StructureReader {
    t;
    lines;
    title = null;
    fields = {};
    /** Lower-cased keys already set: the first occurrence of a key wins. */
    seenKeys = new Set();
    fieldList = [];
    ranges = [];
    seenSections = new Set();
    tables = [];
    checklist = [];
    /** The `### heading` the current line sits under. */
    section = null;
    /** The section range still growing, if its heading was the first of that name. */
    open = null;
    /** Has anything but blank lines been read? (`## Title` only counts before it.) */
    sawContent = false;
    /** The table the previous line belonged to, which a `|` line continues. */
    table = null;
    constructor(t, lines) {
        this.t = t;
        this.lines = lines;
    }
}
/** `## Title` before anything else, or `### Heading` opening a section. */
const heading = (r, n, i, p) => {
    if (p !== r.t.start[i])
        return -1;
    const h = parseHeading(r.t.text(i));
    if (!h)
        return -1;
    if (!r.sawContent && h.level === 2 && r.title === null) {
        r.title = h.text;
        return n;
    }
    r.section = h.text;
    if (r.open)
        r.open.to = n;
    r.open = null;
    // First occurrence wins; a later duplicate heading is not merged into it.
    if (!r.seenSections.has(h.text)) {
        r.seenSections.add(h.text);
        r.open = { heading: h.text, from: n + 1, to: r.lines.length };
        r.ranges.push(r.open);
    }
    return n;
};
/** `**Key**: value` or `**Key:** value` at column 0; an empty value takes the list under it. */
const fieldLine = (r, n, i, p) => {
    if (p !== r.t.start[i] || r.t.body.charCodeAt(p + 1) !== ASTERISK)
        return -1;
    const field = parseFieldLine(r.t.text(i));
    if (!field)
        return -1;
    if (field.value === '')
        field.value = valueUnder(r.t, r.lines, n);
    r.fieldList.push({ key: field.key, value: field.value, line: i });
    const lower = field.key.toLowerCase();
    if (!r.seenKeys.has(lower)) {
        r.seenKeys.add(lower);
        setOwn(r.fields, field.key, field.value);
    }
    return n;
};
/** `| a | b |`: a row of the open table, or a header row when a delimiter row follows it. */
const tableLine = (r, n, i) => {
    const { t, lines } = r;
    if (r.table) {
        const cells = splitRow(t.text(i));
        const row = {};
        const headers = r.table.headers;
        for (let k = 0; k < headers.length; k++)
            setOwn(row, headers[k], cells[k] ?? '');
        r.table.rows.push(row);
        return n;
    }
    if (n + 1 < lines.length && t.fenced[lines[n + 1]] === OUTSIDE_FENCE && isDelimiterRow(t.text(lines[n + 1]))) {
        r.table = { section: r.section, headers: splitRow(t.text(i)), rows: [] };
        r.tables.push(r.table);
        return n + 1;
    }
    return -1;
};
/** `- [ ] text` / `- [x] text`, any list marker and indent. */
const checklistItem = (r, n, i, p) => {
    if (r.t.body.charCodeAt(p + 2) !== LEFT_BRACKET)
        return -1;
    const item = parseChecklist(r.t.text(i));
    if (!item)
        return -1;
    r.checklist.push({ section: r.section, ...item });
    return n;
};
/** The constructs a line may be, by its first non-blank character, tried in order. */
const CONSTRUCTS = {
    [NUMBER_SIGN]: [heading],
    [ASTERISK]: [fieldLine, checklistItem],
    [VERTICAL_BAR]: [tableLine],
    [DASH]: [checklistItem],
    [PLUS]: [checklistItem],
};
/**
 * Reads fields, sections, tables and checklists from the annotation's content
 * lines (tag and sentinel lines already removed): one pass, then the
 * section texts, the fields templates write as sections, and known aliases.
 */
function readStructure(t, lines, spec) {
    const r = new StructureReader(t, lines);
    for (let n = 0; n < lines.length; n++) {
        const i = lines[n];
        const p = t.firstNonBlank(i);
        if (p === t.end[i]) {
            r.table = null;
            continue;
        }
        const c = t.body.charCodeAt(p);
        let last = -1;
        // Most lines are prose with no construct: no list is made for them (cold code pays per allocation).
        const constructs = t.fenced[i] === OUTSIDE_FENCE ? CONSTRUCTS[c] : undefined;
        if (constructs !== undefined) {
            for (let k = 0; k < constructs.length && last < 0; k++)
                last = constructs[k](r, n, i, p);
        }
        // A table runs over consecutive `|` lines; anything else ends it.
        if (c !== VERTICAL_BAR || t.fenced[i] !== OUTSIDE_FENCE || last < 0)
            r.table = null;
        r.sawContent = true;
        if (last > n)
            n = last;
    }
    const sections = {};
    for (const range of r.ranges)
        setOwn(sections, range.heading, sectionText(t, lines, range.from, range.to));
    fieldsFromSections(r, sections, spec);
    return {
        title: r.title,
        fields: r.fields,
        fieldList: r.fieldList,
        sections,
        tables: r.tables,
        checklist: r.checklist,
        fieldAliases: resolveAliases(r, spec),
    };
}
/** Fields the template writes as `### Name` + `**VALUE** — reason` (implementation-notes.md §2). */
function fieldsFromSections(r, sections, spec) {
    for (const f of spec?.fields ?? []) {
        if (!f.fromSection || r.seenKeys.has(f.name.toLowerCase()))
            continue;
        const sectionBody = getField(sections, f.name);
        // A section's text is trimmed of blank lines (sectionText): its first line, when there is one, is the value.
        if (sectionBody === undefined || sectionBody === '')
            continue;
        const nl = sectionBody.indexOf('\n');
        const value = unwrapBold(trimBlank(nl < 0 ? sectionBody : sectionBody.slice(0, nl)));
        setOwn(r.fields, f.name, value);
        r.fieldList.push({ key: f.name, value, line: -1 });
    }
}
/** Other spellings of template fields (registry `aliases`): read as the field unless the field itself is there. */
function resolveAliases(r, spec) {
    const found = [];
    if (!spec?.aliases)
        return found;
    for (const f of r.fieldList) {
        const canonical = aliasFor(spec.type, f.key);
        if (canonical === undefined || r.seenKeys.has(canonical.toLowerCase()))
            continue;
        r.seenKeys.add(canonical.toLowerCase());
        setOwn(r.fields, canonical, f.value);
        found.push({ written: f.key, field: canonical });
    }
    return found;
}
/** `**NO** — reason` → `NO — reason`. */
function unwrapBold(s) {
    if (!s.startsWith('**'))
        return s;
    const close = s.indexOf('**', 2);
    if (close < 0)
        return s;
    return s.slice(2, close) + s.slice(close + 2);
}
const FINDING_KEYS = {
    severity: 'severity',
    location: 'location',
    issue: 'issue',
    'suggested fix': 'suggestedFix',
    prevention: 'prevention',
};
/** REVIEWER findings: `- **Severity**: X` opens one; the indented bold lines after it fill it. */
function readFindings(t, lines) {
    const findings = [];
    let cur = null;
    for (const i of lines) {
        if (t.fenced[i] !== OUTSIDE_FENCE)
            continue;
        // Only `#`, `-`, `*` and bold lines matter here: look before slicing.
        const c = t.body.charCodeAt(t.firstNonBlank(i));
        if (c !== NUMBER_SIGN && c !== DASH && c !== ASTERISK)
            continue;
        let s = trimBlank(t.text(i));
        if (s.startsWith('#')) {
            cur = null;
            continue;
        }
        const bullet = (s.startsWith('- ') || s.startsWith('* ')) && s.slice(2).trimStart().startsWith('**');
        if (bullet)
            s = s.slice(2).trimStart();
        const field = parseFieldLine(s);
        if (!field)
            continue;
        const key = FINDING_KEYS[field.key.toLowerCase()];
        if (!key)
            continue;
        if (bullet || cur === null || (key === 'severity' && cur.severity !== null)) {
            // A detail line with no finding opened yet starts one anyway: nothing is dropped.
            cur = { severity: null, location: null, issue: null, suggestedFix: null, prevention: null };
            findings.push(cur);
        }
        cur[key] = field.value;
    }
    return findings;
}
function cell(row, name) {
    return getField(row, name) ?? '';
}
/** The table whose headers include `Phase` (any letter case): the trajectory's own. */
function phaseTable(tables) {
    for (const table of tables)
        for (const h of table.headers)
            if (h.toLowerCase() === 'phase')
                return table;
    return null;
}
/** The number after the first `PR #` followed by a digit (up to nine digits), or null. */
function prNumberIn(text) {
    for (let at = text.indexOf('PR #'); at >= 0; at = text.indexOf('PR #', at + 1)) {
        let end = at + 4;
        while (end < at + 13 && isDigit(text.charCodeAt(end)))
            end++;
        if (end > at + 4)
            return Number(text.slice(at + 4, end));
    }
    return null;
}
/** The code span after the first `Branch:` that has one (at most four spaces between, 1–255 characters in it), or null. */
function branchIn(text) {
    for (let at = text.indexOf('Branch:'); at >= 0; at = text.indexOf('Branch:', at + 1)) {
        let open = at + 7;
        while (open < at + 11 && isEcmaSpace(text.charCodeAt(open)))
            open++;
        if (text.charCodeAt(open) !== GRAVE)
            continue;
        const close = text.indexOf('`', open + 1);
        if (close > open + 1 && close - open - 1 <= 255)
            return text.slice(open + 1, close);
    }
    return null;
}
function readTrajectory(structure) {
    const phases = [];
    let prNumber = null;
    let branch = null;
    for (const row of phaseTable(structure.tables)?.rows ?? []) {
        const phase = { phase: cell(row, 'Phase'), result: cell(row, 'Result'), notes: cell(row, 'Notes') };
        phases.push(phase);
        const text = `${phase.result} ${phase.notes}`;
        prNumber ??= prNumberIn(text);
        branch ??= branchIn(text);
    }
    const fields = structure.fields;
    return {
        phases,
        decisions: getField(fields, 'Decisions') ?? null,
        anomalies: getField(fields, 'Anomalies') ?? null,
        completed: getField(fields, 'Completed') ?? null,
        prNumber,
        branch,
    };
}
/** The first ```jsonc / ```json block, parsed; null when absent or unreadable. */
function readDesignSpec(t, lines) {
    for (let n = 0; n < lines.length; n++) {
        if (t.fenced[lines[n]] !== FENCE_OPENING)
            continue;
        const opening = t.text(lines[n]);
        const info = fenceInfo(opening).toLowerCase();
        if (info !== 'jsonc' && info !== 'json' && info !== 'json5')
            continue;
        const fence = openingFence(opening);
        const body = [];
        for (let m = n + 1; m < lines.length && t.fenced[lines[m]] === IN_FENCE; m++)
            body.push(t.text(lines[m]));
        // The closing delimiter is fenced too; drop it when present.
        if (body.length > 0 && closesFence(body[body.length - 1], fence))
            body.pop();
        return parseJsonc(decode(body.join('\n')));
    }
    return null;
}

;// CONCATENATED MODULE: ./src/codec/parse.ts
/**
 * parse(body) — spec §3. One pass over the lines of a comment:
 *
 *   state OUTSIDE  — an opening fence moves to FENCED; an opening tag starts a
 *                    new annotation (ending the current one, §3.1); a sentinel
 *                    line attaches to the current annotation without ending
 *                    it; anything else is text.
 *   state FENCED   — every line is text until the closing fence (implementation-notes.md §2).
 *
 * A tag or sentinel is a whole trimmed line and a fence starts its line, so
 * only lines holding `<!--`, ``` or ~~~ are looked at, by a character scan
 * (tags.ts, fences.ts), never by a backtracking regular expression: time is
 * linear.
 */







/** What can change the scanner's state, as it first appears on a line: the rest of a comment is never looked at. */
const MARKS = ['<!--', '```', '~~~'];
/**
 * One pass over the lines that can matter — those holding `<!--`, or three
 * backticks or tildes — found by the engine's own string search: a comment is
 * mostly prose, and an action parses each one once, before any loop is warm.
 * Each such line is then classified whole (a tag or a fence must start it).
 */
function scan(t) {
    const body = t.body;
    const blocks = [];
    let state = 'outside';
    let fence = null;
    let fenceLine = 0;
    let current = null;
    const next = MARKS.map((m) => body.indexOf(m));
    let line = 0;
    for (;;) {
        // The earliest mark still ahead.
        let k = -1;
        for (let m = 0; m < MARKS.length; m++)
            if (next[m] >= 0 && (k < 0 || next[m] < next[k]))
                k = m;
        if (k < 0)
            break;
        const pos = next[k];
        // Marks come in order, so the line only moves forward: one pass over the line starts in all.
        while (line + 1 < t.count && t.start[line + 1] <= pos)
            line++;
        // Whatever the line holds, its other marks are behind us now.
        const after = t.end[line];
        for (let m = 0; m < MARKS.length; m++)
            if (next[m] >= 0 && next[m] <= after)
                next[m] = body.indexOf(MARKS[m], after);
        switch (state) {
            case 'fenced':
                if (closesFence(t.text(line), fence)) {
                    t.fenced.fill(IN_FENCE, fenceLine + 1, line + 1);
                    state = 'outside';
                }
                break;
            case 'outside': {
                if (k > 0) {
                    const opened = openingFence(t.text(line));
                    if (opened) {
                        fence = opened;
                        fenceLine = line;
                        state = 'fenced';
                        t.fenced[line] = FENCE_OPENING;
                    }
                    break;
                }
                const cls = classifyLine(t.text(line));
                if (cls.kind === 'open') {
                    if (current)
                        current.stopLine = line;
                    current = { type: cls.type, value: cls.value, startLine: line, stopLine: t.count, sentinels: [] };
                    blocks.push(current);
                }
                else if (cls.kind === 'sentinel' && current) {
                    // A sentinel before any opening tag belongs to nothing and is ignored.
                    current.sentinels.push({ name: cls.name, line });
                }
                break;
            }
        }
    }
    // An unclosed fence runs to the end of the comment.
    if (state === 'fenced')
        t.fenced.fill(IN_FENCE, fenceLine + 1, t.count);
    return blocks;
}
/**
 * Inline values and markers are one line and complete by presence. A custom
 * type written in the inline form (`<!-- FORGE:ACME: v -->`) is read the same way.
 */
function isAtomic(block) {
    const spec = typeSpec(block.type);
    return spec ? spec.form !== 'body' : block.value !== null;
}
function sentinelOutcome(block, atomic) {
    const sets = sentinelSets(block.type);
    let state = null;
    let sentinel = null;
    let line = null;
    const foreign = [];
    // The last sentinel of its own type decides, wherever it stands in the extent:
    // producers append sections after it, and one template writes it on line 2.
    for (const s of block.sentinels) {
        if (!atomic && sets.complete.has(s.name)) {
            state = 'complete';
            sentinel = s.name;
            line = s.line;
        }
        else if (!atomic && sets.partial.has(s.name)) {
            state = 'partial';
            sentinel = s.name;
            line = s.line;
        }
        else {
            foreign.push(s.name);
        }
    }
    if (state === null)
        state = atomic || completeWhenPresent(block.type) ? 'complete' : 'interrupted';
    return { state, sentinel, line, foreign };
}
/**
 * The last line of a one-line form's own text: the tag, and the `**Key**:`
 * lines right under it (a marker's deployed fields). What follows is the
 * comment's, not the marker's, even though §3.1's extent runs on.
 */
function atomicCloseLine(t, block, endLine) {
    let k = block.startLine;
    // parseFieldLine takes only unindented lines, and a line right under a tag or a field line is never in a fence.
    while (k < endLine && parseFieldLine(t.text(k + 1)) !== null)
        k++;
    return k;
}
/** The per-type readers, by the registry's `structure` name (the CARD surface is base64url: nothing to decode). */
const TYPE_READERS = {
    'reviewer-findings': (a, t, content) => {
        a.findings = readFindings(t, content);
    },
    trajectory: (a) => {
        a.trajectory = readTrajectory(a);
    },
    'design-spec': (a, t, content) => {
        a.designSpec = readDesignSpec(t, content);
    },
    card: (a, _t, _content, block) => {
        a.card = readCard(block.value);
    },
};
function build(t, block) {
    const spec = typeSpec(block.type);
    const atomic = isAtomic(block);
    const outcome = sentinelOutcome(block, atomic);
    // §3.1: the extent runs to the next opening tag or the end of the comment;
    // a sentinel does not end it (text appended after the sentinel is the
    // annotation's). Trailing blank lines are left out.
    let endLine = block.stopLine - 1;
    // Stops at the tag line at the latest: it is never blank.
    while (t.isBlank(endLine))
        endLine--;
    const closeLine = atomic ? atomicCloseLine(t, block, endLine) : (outcome.line ?? endLine);
    const content = [];
    let k = 0;
    const sentinels = block.sentinels;
    for (let i = block.startLine + 1; i <= endLine; i++) {
        while (k < sentinels.length && sentinels[k].line < i)
            k++;
        if (k < sentinels.length && sentinels[k].line === i)
            continue;
        content.push(i);
    }
    const structure = readStructure(t, content, spec);
    const annotation = {
        type: block.type,
        category: spec?.category ?? 'custom',
        isReserved: isReserved(block.type),
        isControl: isControl(block.type),
        sentinelState: outcome.state,
        sentinel: outcome.sentinel,
        inlineValue: block.value === null ? null : decode(block.value),
        title: structure.title,
        fields: structure.fields,
        fieldList: structure.fieldList,
        sections: structure.sections,
        tables: structure.tables,
        checklist: structure.checklist,
        foreignSentinels: outcome.foreign,
        fieldAliases: structure.fieldAliases,
        start: t.start[block.startLine],
        end: t.end[endLine],
        closeEnd: t.end[closeLine],
        startLine: block.startLine,
        endLine,
        raw: t.body.slice(t.start[block.startLine], t.end[endLine]),
    };
    if (spec?.structure)
        TYPE_READERS[spec.structure]?.(annotation, t, content, block);
    return annotation;
}
/** Every annotation in a comment body, in order. Never throws; unknown types are kept (§7.2). */
function parse(body) {
    // A shortcut for the common comment with no HTML comment at all: the scan would find nothing either.
    if (typeof body !== 'string' || body.indexOf('<!--') < 0)
        return [];
    const t = new LineTable(body);
    return scan(t).map((b) => build(t, b));
}
/** The annotations of one type in a body. */
function findAnnotations(body, type) {
    return parse(body).filter((a) => a.type === type);
}

;// CONCATENATED MODULE: ./src/codec/quote.ts
/**
 * A value quoted for an error message: line breaks shown as ⏎ and long values
 * cut, so the message stays one line and still names what was given.
 */
function quote(value, max = 80) {
    const text = oneLine(String(value));
    return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
/**
 * Text on one line, its line breaks shown as ⏎: a message that carries
 * annotation or issue text can never start a line of its own — so never a
 * `::command::` line in a workflow log, whatever the text holds.
 */
function oneLine(text) {
    return text.replace(/\r\n|\r|\n/g, '⏎');
}

;// CONCATENATED MODULE: ./src/codec/near-miss.ts
/**
 * What looks like an annotation but is not one a consumer finds: an opening
 * tag with no `-->`, a tag in the wrong letter case, a sentinel whose opener is
 * not there, a type one edit away from a reserved one. A linter over lines for
 * the CLI — the parser itself stays exact (spec §3.1), so a near miss is
 * reported, never read as an annotation. Linear: each line is looked at once.
 */

/** Edit distance between two short names (type names are at most a few dozen characters). */
function editDistance(a, b) {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const row = [i];
        for (let j = 1; j <= b.length; j++)
            row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        previous = row;
    }
    return previous[b.length];
}
/**
 * The reserved type `name` is most likely a typo of, or null: not reserved
 * itself, and within one edit per five letters (at least one) of a reserved name.
 */
function nearestReserved(name) {
    if (isReserved(name))
        return null;
    for (const t of TYPES)
        if (editDistance(name, t.type) <= Math.max(1, Math.floor(t.type.length / 5)))
            return t.type;
    return null;
}
/**
 * Every sentinel of a reserved type, by its text, with the type it closes: the
 * completion sentinel, and the partial shapes §3.3 and the deployed types
 * write (`<!-- FORGE:ARCHITECT:PARTIAL -->` among them, which starts like a tag).
 */
const SENTINEL_OF = new Map([
    ...TYPES.filter((t) => t.complete !== null).map((t) => [t.complete, t.type]),
    ...TYPES.filter((t) => t.complete !== null).flatMap((t) => partialSentinels(t.type).map((p) => [p, t.type])),
]);
const OPEN = '<!--';
const CLOSE = '-->';
/** The text between `<!--` and `-->` of a whole-line comment, trimmed; null when the line is not one. */
function commentText(line) {
    const t = line.trim();
    if (!t.startsWith(OPEN))
        return null;
    const closed = t.endsWith(CLOSE) && t.length >= OPEN.length + CLOSE.length;
    return { text: (closed ? t.slice(OPEN.length, -CLOSE.length) : t.slice(OPEN.length)).trim(), closed };
}
/** The type a `FORGE:` tag names: up to the first blank, `:` or `—`. */
function tagType(text) {
    let end = 'FORGE:'.length;
    while (end < text.length && !' \t:—'.includes(text[end]))
        end++;
    return text.slice('FORGE:'.length, end);
}
/** The near misses in `body`, given the annotations the parser found in it. */
function nearMisses(body, found) {
    const out = [];
    const lines = body.split(/\r\n|\r|\n/);
    // Lines inside a found annotation of type T: a sentinel of T there is at home.
    const within = (n, type) => found.some((a) => a.type === type && a.startLine <= n && n <= a.endLine);
    for (let i = 0; i < lines.length; i++) {
        const c = commentText(lines[i]);
        if (c === null)
            continue;
        const line = i + 1;
        const head = c.text.slice(0, 'FORGE:'.length);
        if (head !== 'FORGE:' && head.toUpperCase() === 'FORGE:') {
            out.push({ line, message: `tag in the wrong case: "${lines[i].trim()}" — consumers read only upper-case FORGE: tags` });
            continue;
        }
        // `<!-- FORGE:BUILDER:COMPLETE -->` starts like a tag but is BUILDER's sentinel: alone, it closes nothing.
        const closes = c.closed ? SENTINEL_OF.get(c.text) : undefined;
        if (closes) {
            if (!within(i, closes))
                out.push({ line, message: `sentinel ${c.text} without its opener: no <!-- FORGE:${closes} --> comes before it` });
            continue;
        }
        if (head === 'FORGE:' && !c.closed) {
            out.push({ line, message: `opening tag with no "-->": "${lines[i].trim()}" is not a tag` });
            continue;
        }
        if (head === 'FORGE:') {
            const type = tagType(c.text);
            const near = type === '' ? null : nearestReserved(type);
            if (near)
                out.push({ line, message: `FORGE:${type} is not a reserved type — did you mean ${near}?` });
        }
    }
    return out;
}

;// CONCATENATED MODULE: ./src/codec/validate.ts
/**
 * validate(annotation) — the sentinel (§3.2), partial (§3.3), required fields
 * and enum values per type (§4), and the per-type rules the registry names.
 * Every error names the type, the field and the section of the spec.
 */






/** Does `value` start with one of `values` (case-insensitively), followed by a non-word character? */
function matchEnum(value, values) {
    let v = value.trim();
    // `**NO** — reason`, `` `HIGH` ``: look through bold and code marks.
    while (v.startsWith('*') || v.startsWith('`'))
        v = v.slice(1);
    const upper = v.toUpperCase();
    for (const candidate of values) {
        const c = candidate.toUpperCase();
        if (!upper.startsWith(c))
            continue;
        const next = upper.charCodeAt(c.length);
        const wordChar = isTypeNameChar(next);
        if (Number.isNaN(next) || !wordChar)
            return candidate;
    }
    return null;
}
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
function isIso8601(value) {
    const v = value.trim().replace(/^`|`$/g, '');
    return ISO_8601.test(v) && !Number.isNaN(Date.parse(v));
}
/** Something the spec's template shows is absent: a warning, and a gap for `validation: template`. */
function gap(out, text) {
    out.templateGaps.push(text);
    out.warnings.push(text);
}
function checkField(spec, field, a, out) {
    const value = getField(a.fields, field.name);
    const where = `${a.type}: field "${field.name}"`;
    if (value === undefined || value.trim() === '') {
        const what = value === undefined ? 'missing' : 'empty';
        if (field.presence === 'required')
            out.errors.push(`${where} is ${what} — required (${field.because ?? spec.ref})`);
        else if (field.presence === 'template')
            gap(out, `${where} is ${what} — the ${spec.ref} template shows it`);
        return;
    }
    if (field.values && !matchEnum(value, field.values)) {
        const text = `${where} is "${oneLine(value)}" — expected one of ${field.values.join(', ')} (${spec.ref})`;
        (field.strictValues === false ? out.warnings : out.errors).push(text);
    }
    // The template's `{ISO 8601 timestamp}` is a placeholder, not a normative value list.
    if (field.format === 'iso8601' && !isIso8601(value))
        out.warnings.push(`${where} is "${oneLine(value)}" — expected an ISO 8601 timestamp (${spec.ref})`);
}
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
/** Per-type structure rules, keyed by the registry's `structure` name. */
const STRUCTURE_RULES = {
    'reviewer-findings': (a, spec, out) => {
        (a.findings ?? []).forEach((f, i) => {
            if (f.severity === null)
                gap(out, `${a.type}: finding ${i + 1} has no "Severity" — the ${spec.ref} template shows it`);
            else if (!matchEnum(f.severity, SEVERITIES))
                out.errors.push(`${a.type}: finding ${i + 1} "Severity" is "${oneLine(f.severity)}" — expected one of ${SEVERITIES.join(', ')} (${spec.ref})`);
        });
    },
    trajectory: (a, spec, out) => {
        if (!a.trajectory || a.trajectory.phases.length === 0)
            gap(out, `${a.type}: the phase table (| Phase | Result | Notes |) is missing or empty — the ${spec.ref} template shows it`);
    },
    'design-spec': (a, spec, out) => {
        const v = a.designSpec;
        if (v === undefined || v === null || typeof v !== 'object' || Array.isArray(v))
            gap(out, `${a.type}: no readable \`\`\`jsonc block holding the spec object — the ${spec.ref} template shows one`);
    },
    'design-rationale': (a, spec, out) => {
        const raw = a.raw;
        if (!/rejected[ \t]{0,4}:[ \t]{0,4}\S/i.test(raw))
            out.errors.push(`${a.type}: carries no explicitly rejected alternative ("Considered & rejected: …") (${spec.ref})`);
        if (!/(?:→|->)[ \t]*Produces DESIGN_SPEC/.test(raw))
            out.errors.push(`${a.type}: missing the "→ Produces DESIGN_SPEC: {link}" line (${spec.ref})`);
    },
    card: (a, spec, out) => {
        for (const e of cardErrors(a.card ?? null))
            out.errors.push(`${a.type}: ${e} (${spec.ref})`);
    },
};
/** The sentinel's verdict: errors for reserved types; for a custom type, warnings only (§7.2(4)). */
function checkSentinel(a, spec, out) {
    const misclosures = spec?.misclosures ?? {};
    const misclosed = a.sentinelState === 'interrupted' ? a.foreignSentinels.find((s) => Object.hasOwn(misclosures, s)) : undefined;
    let problem = null;
    if (a.sentinelState === 'partial') {
        problem = `${a.type}: marked partial by <!-- ${a.sentinel} --> — not complete; re-run the producing phase (§3.3)`;
    }
    else if (misclosed !== undefined) {
        const expected = completionSentinels(a.type)[0];
        problem = `${a.type}: closed with ${misclosed}, ${misclosures[misclosed]} — end it with <!-- ${expected} --> to complete it (${spec?.ref ?? '§3.2'})`;
    }
    else if (a.sentinelState === 'interrupted') {
        const expected = spec ? completionSentinels(a.type)[0] : `${a.type}:COMPLETE`;
        problem = `${a.type}: completion sentinel <!-- ${expected} --> is missing — treated as interrupted (§3.2)`;
    }
    if (problem !== null)
        (spec ? out.errors : out.warnings).push(problem);
    for (const s of a.foreignSentinels) {
        if (s === misclosed)
            continue;
        out.warnings.push(`${a.type}: sentinel <!-- ${s} --> inside this annotation belongs to another type and is ignored (§3.2)`);
    }
}
function validate(a) {
    const out = { errors: [], warnings: [], templateGaps: [] };
    const spec = typeSpec(a.type);
    if (!isReferenceTypeName(a.type))
        out.warnings.push(`${a.type}: type name is outside [A-Z_]+ — readers using the reference grammar will not see it (implementation-notes.md §2)`);
    checkSentinel(a, spec, out);
    if (!spec) {
        // §7.2(4), §8: a consumer never fails on a type it does not know.
        const near = nearestReserved(a.type);
        out.warnings.push(`${a.type}: not a reserved type — read and tolerated (§7.2, §8)${near ? `; did you mean ${near}?` : ''}`);
        return { valid: true, ...out };
    }
    if (spec.form === 'inline') {
        if (a.inlineValue === null || a.inlineValue.trim() === '')
            out.errors.push(`${a.type}: inline value is empty (§3.4)`);
        else if (spec.category === 'cross-artifact' && spec.postedIn !== 'gist-description' && !/^https?:\/\/\S+$/.test(a.inlineValue))
            out.warnings.push(`${a.type}: inline value "${oneLine(a.inlineValue)}" is not a URL (§4.2)`);
    }
    else if (spec.form === 'described-marker') {
        if (!a.inlineValue)
            out.warnings.push(`${a.type}: marker has no " — {description}" (§4.3)`);
    }
    else if (spec.form === 'body' && a.inlineValue !== null) {
        out.warnings.push(`${a.type}: takes no inline value; "${oneLine(a.inlineValue)}" is ignored (§3.4)`);
    }
    for (const alias of a.fieldAliases)
        out.warnings.push(`${a.type}: field "${oneLine(alias.written)}" read as "${alias.field}" — the ${spec.ref} template writes "${alias.field}"`);
    for (const field of spec.fields)
        checkField(spec, field, a, out);
    for (const section of spec.sections) {
        if (section.presence === undefined || section.presence === 'optional')
            continue;
        if (getField(a.sections, section.heading) !== undefined)
            continue;
        if (section.presence === 'required')
            out.errors.push(`${a.type}: section "### ${section.heading}" is missing — required (${spec.ref})`);
        else
            gap(out, `${a.type}: section "### ${section.heading}" is missing — the ${spec.ref} template shows it`);
    }
    if (spec.structure)
        STRUCTURE_RULES[spec.structure]?.(a, spec, out);
    return { valid: out.errors.length === 0, ...out };
}

;// CONCATENATED MODULE: ./src/codec/emit.ts
/**
 * emit(type, input) — the canonical text of each spec template: tag, title,
 * lead table, fields, sections (tables, checklists, lists), free body, and the
 * completion (or partial) sentinel as the last line.
 *
 * Every key, value, heading and Markdown body passes through encode() (implementation-notes.md
 * §1), single-line slots are folded, and open fences are closed, so nothing a
 * caller passes can add an annotation or change a sentinel state. The type
 * name is validated, never escaped.
 */








class EmitError extends Error {
    constructor(message) {
        super(message);
        this.name = 'EmitError';
    }
}
function scalarText(v) {
    if (v === null || v === undefined)
        return '';
    if (Array.isArray(v))
        return v.map(scalarText).join(', ');
    if (typeof v === 'object')
        return JSON.stringify(v);
    return String(v);
}
/** One-line slot: fold line breaks, then escape. */
function line(v) {
    return encode(foldLine(scalarText(v)));
}
function cellText(v) {
    return line(v).split('|').join('\\|');
}
/**
 * Multi-line Markdown: split with the codec's one line model (CR, LF, CRLF —
 * never U+2028/U+2029), drop blank (space/tab) lines at both ends, escape,
 * and close any fence left open. A line of only U+2028 or a no-break space is
 * content and is written as it was.
 */
function markdown(text) {
    const lines = splitLines(text);
    let a = 0;
    let b = lines.length;
    while (a < b && isBlankLine(lines[a]))
        a++;
    while (b > a && isBlankLine(lines[b - 1]))
        b--;
    const kept = lines.slice(a, b);
    return closeOpenFences(encode(kept.join('\n')), kept);
}
function renderTable(rows, columns) {
    const cols = [...(columns ?? [])];
    for (const row of rows)
        for (const k of Object.keys(row))
            if (!cols.includes(k))
                cols.push(k);
    const out = [`| ${cols.map(cellText).join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`];
    for (const row of rows)
        out.push(`| ${cols.map((c) => cellText(row[c] ?? '')).join(' | ')} |`);
    return out.join('\n');
}
function renderSection(spec, value) {
    if (typeof value === 'string')
        return markdown(value);
    if (!Array.isArray(value))
        throw new EmitError('a section value must be Markdown text or a list');
    if (value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && !('text' in v)))
        return renderTable(value, spec?.columns);
    const kind = spec?.kind ?? 'list';
    return value
        .map((item, i) => {
        if (typeof item === 'object' && item !== null && 'text' in item) {
            // `checked` may arrive as the string "true" from YAML read as strings.
            const it = item;
            return `- [${it.checked === true || it.checked === 'true' ? 'x' : ' '}] ${line(it.text)}`;
        }
        const text = line(item);
        if (kind === 'checklist')
            return `- [ ] ${text}`;
        if (kind === 'numbered')
            return `${i + 1}. ${text}`;
        return `- ${text}`;
    })
        .join('\n');
}
/**
 * A value as a CommonMark code span: a backtick run longer than any inside it,
 * padded with a space where the value starts or ends with a backtick.
 */
function codeSpan(value) {
    let longest = 0;
    let run = 0;
    for (let i = 0; i < value.length; i++) {
        run = value.charCodeAt(i) === GRAVE ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    const ticks = '`'.repeat(longest + 1);
    const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
    return `${ticks}${pad}${value}${pad}${ticks}`;
}
/** Does `value` already stand as one code span (`` `x` ``)? */
function isCodeSpan(value) {
    return stripCodeSpan(value) !== value;
}
/**
 * The text inside one enclosing code span (`` `fix/x` `` → `fix/x`, CommonMark's
 * one-space padding removed), or the value unchanged when it is not one. The
 * one helper every reader of a code-span field (BUILDER's Branch) uses.
 */
function stripCodeSpan(value) {
    const v = value.trim();
    let n = 0;
    while (n < v.length && v.charCodeAt(n) === GRAVE)
        n++;
    if (n === 0 || v.length < 2 * n + 1)
        return value;
    const ticks = v.slice(0, n);
    if (!v.endsWith(ticks) || v.charCodeAt(v.length - n - 1) === GRAVE)
        return value;
    const inner = v.slice(n, v.length - n);
    // The closing run must be the first backtick run of exactly n inside.
    let i = 0;
    while (i < inner.length) {
        if (inner.charCodeAt(i) !== GRAVE) {
            i++;
            continue;
        }
        let j = i;
        while (j < inner.length && inner.charCodeAt(j) === GRAVE)
            j++;
        if (j - i === n)
            return value;
        i = j;
    }
    if (inner.trim() === '')
        return value;
    return inner.length >= 2 && inner.startsWith(' ') && inner.endsWith(' ') ? inner.slice(1, -1) : inner;
}
function emit_fieldLine(style, key, value, asCode = false) {
    const k = encodeKey(foldLine(key));
    if (k === '')
        throw new EmitError('a field key is empty');
    let v = line(value);
    if (asCode && v !== '' && !isCodeSpan(v))
        v = codeSpan(v);
    const sep = v === '' ? '' : ' ';
    return style === 'colon-inside' ? `**${k}:**${sep}${v}` : `**${k}**:${sep}${v}`;
}
function orderedFields(spec, fields) {
    const pairs = Array.isArray(fields) ? fields : Object.entries(fields ?? {});
    if (!spec)
        return pairs;
    const rank = (k) => {
        const i = spec.fields.findIndex((f) => f.name.toLowerCase() === k.trim().toLowerCase());
        return i < 0 ? spec.fields.length : i;
    };
    return pairs
        .map((p, i) => ({ p, i }))
        .sort((x, y) => rank(x.p[0]) - rank(y.p[0]) || x.i - y.i)
        .map((x) => x.p);
}
function orderedSections(spec, sections) {
    const entries = Object.entries(sections);
    const find = (h) => spec?.sections.findIndex((s) => s.heading.toLowerCase() === h.trim().toLowerCase()) ?? -1;
    return entries
        .map(([h, v], i) => ({ h, v, i, r: find(h) }))
        .sort((a, b) => (a.r < 0 ? 1e9 : a.r) - (b.r < 0 ? 1e9 : b.r) || a.i - b.i)
        .map(({ h, v, r }) => [h, v, r >= 0 ? spec?.sections[r] : undefined]);
}
function renderFindings(findings) {
    const out = [];
    for (const f of findings) {
        const severity = line(f.severity ?? '');
        out.push(severity === '' ? '- **Severity**:' : `- **Severity**: ${severity}`);
        const rest = [
            ['Location', f.location],
            ['Issue', f.issue],
            ['Suggested fix', f.suggestedFix],
            ['Prevention', f.prevention],
        ];
        for (const [k, v] of rest) {
            if (v === undefined || v === null)
                continue;
            // The template writes the location as a code span: `{filepath}:{line}`.
            const text = k === 'Location' && line(v) !== '' && !isCodeSpan(line(v)) ? codeSpan(line(v)) : line(v);
            out.push(`  **${k}**: ${text}`);
        }
    }
    return out.join('\n');
}
function tagLine(type, value, dash = false) {
    if (value === undefined)
        return `<!-- FORGE:${type} -->`;
    return dash ? `<!-- FORGE:${type} — ${value} -->` : `<!-- FORGE:${type}: ${value} -->`;
}
/** The tag line of a one-line form (inline value, marker, described marker). */
function atomicTag(type, spec, input, warnings) {
    if (input.status === 'partial')
        throw new EmitError(`${type} is written in one line and has no partial form`);
    const form = spec?.form ?? 'inline';
    if (form === 'marker') {
        if (input.value !== undefined && input.value !== '')
            warnings.push(`${type} is a marker with no value; the value was not written`);
        return tagLine(type);
    }
    let value;
    if (spec?.structure === 'card' && input.card !== undefined)
        value = cardValue(input.card);
    else
        value = line(input.value ?? '');
    if (form === 'described-marker')
        return value === '' ? tagLine(type) : tagLine(type, value, true);
    if (value.trim() === '')
        throw new EmitError(`${type} needs a non-empty value (§3.4)`);
    return tagLine(type, value);
}
/**
 * A one-line form, with any fields written as `**Key**:` lines right under the
 * tag (the deployed shape of markers such as CLAIM_RELEASED) and anything else
 * given after them: nothing the caller passes is dropped.
 */
function emitAtomic(type, spec, input, warnings) {
    const tag = atomicTag(type, spec, input, warnings);
    const fields = fieldLines(spec, input.fields);
    const head = fields.length > 0 ? `${tag}\n${fields.join('\n')}` : tag;
    const rest = [...(input.title ? [`## ${line(input.title)}`] : []), ...bodyBlocks(spec, input)];
    return [head, ...rest].join('\n\n');
}
function fieldLines(spec, fields) {
    const codeFields = new Set((spec?.fields ?? []).filter((f) => f.codeSpan).map((f) => f.name.toLowerCase()));
    return orderedFields(spec, fields).map(([k, v]) => emit_fieldLine(spec?.keyStyle ?? 'colon-after', k, v, codeFields.has(k.trim().toLowerCase())));
}
/**
 * A partial annotation's default title: a template title that says the work is complete ("Implementation
 * Complete") would tell a reader the opposite of what the sentinel says, so it reads "(partial)" instead.
 */
function partialTitle(title) {
    return title?.endsWith(' Complete') ? `${title.slice(0, -' Complete'.length)} (partial)` : title;
}
function emitBody(type, spec, input) {
    const blocks = [];
    const title = input.title ?? (input.status === 'partial' ? partialTitle(spec?.title) : spec?.title);
    if (title !== undefined && title !== '')
        blocks.push(`## ${line(title)}`);
    if (input.table && input.table.length > 0)
        blocks.push(renderTable(input.table, spec?.leadTable?.columns));
    const fields = fieldLines(spec, input.fields);
    if (fields.length > 0)
        blocks.push(fields.join('\n'));
    blocks.push(...bodyBlocks(spec, input));
    const sentinel = input.status === 'partial' ? emittedPartialSentinel(type) : emittedCompleteSentinel(type);
    // The templates put the title right under the tag; blank lines separate the rest.
    const head = title !== undefined && title !== '' ? `${tagLine(type)}\n${blocks.shift()}` : tagLine(type);
    let text = [head, ...blocks].join('\n\n');
    if (sentinel)
        text += `\n\n<!-- ${sentinel} -->`;
    return text;
}
/** Findings, sections and free Markdown: the part after the fields. */
function bodyBlocks(spec, input) {
    const blocks = [];
    const sections = { ...(input.sections ?? {}) };
    if (input.findings && input.findings.length > 0 && !Object.keys(sections).some((h) => h.toLowerCase() === 'findings'))
        blocks.push(`### Findings\n${renderFindings(input.findings)}`);
    for (const [heading, value, sectionSpec] of orderedSections(spec, sections)) {
        const h = line(heading);
        if (h === '')
            throw new EmitError('a section heading is empty');
        const content = renderSection(sectionSpec, value);
        blocks.push(content === '' ? `### ${h}` : `### ${h}\n${content}`);
    }
    if (input.body !== undefined && !isBlankText(input.body))
        blocks.push(markdown(input.body));
    return blocks;
}
function isBlankText(text) {
    return splitLines(text).every(isBlankLine);
}
/** The keys an emit input may have; anything else is a mistake, never silently dropped. */
const INPUT_KEYS = new Set(['fields', 'sections', 'table', 'findings', 'body', 'value', 'card', 'status', 'title']);
function checkInputKeys(type, input) {
    if (input === null || typeof input !== 'object' || Array.isArray(input))
        throw new EmitError(`emit(${type}, input): input must be an object`);
    const unknown = Object.keys(input).filter((k) => !INPUT_KEYS.has(k));
    if (unknown.length > 0)
        throw new EmitError(`emit(${type}): unknown input key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} — fields go under \`fields\` (emit('${type}', { fields: { ${JSON.stringify(unknown[0])}: … } })); the other keys are ${[...INPUT_KEYS].join(', ')}`);
}
/** The annotation text and any warnings. Throws EmitError on input it cannot write faithfully. */
function emitAnnotation(type, input = {}) {
    if (typeof type !== 'string' || !isTypeName(type))
        throw new EmitError(`${quote(type)} is not a type name: use upper-case letters, digits and _ , starting with a letter`);
    const warnings = [];
    if (!isReferenceTypeName(type))
        warnings.push(`type ${type} is outside [A-Z_]+: readers using the reference grammar <!-- FORGE:[A-Z_]+ --> will not see it`);
    checkInputKeys(type, input);
    const spec = typeSpec(type);
    const atomic = spec ? spec.form !== 'body' : input.value !== undefined && !input.fields && !input.sections && !input.body;
    const text = atomic ? emitAtomic(type, spec, input, warnings) : emitBody(type, spec, input);
    // Belt and braces: what we write must read back as exactly one annotation of this type.
    const back = parse(text);
    const want = input.status === 'partial' ? 'partial' : 'complete';
    // Unreachable while the rules above hold (every input shape is tested to read back); kept so a
    // future rule that breaks one fails loudly instead of posting a broken annotation.
    if (back.length !== 1 || back[0].type !== type || back[0].sentinelState !== want)
        throw new EmitError(`internal: emitted ${type} does not read back as one ${want} annotation`);
    return { text, warnings };
}
/** What an EmitInput may hold: any other key makes the object the spec's plain field map. */
const EMIT_INPUT_KEYS = new Set([
    'fields',
    'sections',
    'table',
    'findings',
    'body',
    'value',
    'card',
    'status',
    'title',
]);
/**
 * §13.2's `emit(type, fields)`: the second argument is either the full
 * EmitInput (fields, sections, body, …) or, as the spec writes it, the fields
 * themselves (`emit('BUILDER', { Branch: 'fix/x', Commits: 'a1b2c3d' })`) —
 * told apart by its keys: an object none of whose keys EmitInput has is a
 * field map. One that mixes the two is refused (emitAnnotation names the
 * stray keys): its intent cannot be told, and nothing given is ever dropped.
 */
function emit(type, input = {}) {
    const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
    const keys = isObject ? Object.keys(input) : [];
    const plainFields = keys.length > 0 && keys.every((k) => !EMIT_INPUT_KEYS.has(k));
    return emitAnnotation(type, plainFields ? { fields: input } : input).text;
}
/** The partial sentinel line for a type (§3.3), in the shape mirroring its completion sentinel. */
function emitPartial(type) {
    if (!isTypeName(type))
        throw new EmitError(`${quote(type)} is not a type name`);
    return `<!-- ${emittedPartialSentinel(type)} -->`;
}

;// CONCATENATED MODULE: ./src/codec/labels.ts
/**
 * The `workflow:*` label state machine as deployed (implementation-notes.md §4), in one table.
 * needs-human carries no prefix and is a sticky flag beside the workflow label.
 */
const NEEDS_HUMAN = 'needs-human';
const WORKFLOW_PREFIX = 'workflow:';
const WORKFLOW_STATES = [
    'investigating',
    'ready-to-build',
    'building',
    'in-review',
    'awaiting-merge',
    'merged',
    'invalid',
    'decomposed',
    'engine-error',
];
const RESERVED_LABELS = [...WORKFLOW_STATES.map((s) => WORKFLOW_PREFIX + s), NEEDS_HUMAN];
/** Terminal: a consumer stops processing the work item (§7.2). */
const TERMINAL_LABELS = new Set([
    'workflow:merged',
    'workflow:invalid',
    'workflow:decomposed',
    'workflow:awaiting-merge',
    'workflow:engine-error',
    NEEDS_HUMAN,
]);
/** Terminal states that end the work without a build: not held to a gate's required types. */
const ENDED_WITHOUT_BUILD = new Set(['workflow:invalid', 'workflow:decomposed']);
/** Allowed moves between workflow labels. `any → needs-human | engine-error` is added below. */
const TRANSITIONS = {
    'workflow:investigating': ['workflow:ready-to-build', 'workflow:invalid', 'workflow:decomposed'],
    'workflow:ready-to-build': ['workflow:building', 'workflow:invalid'],
    'workflow:building': ['workflow:in-review', 'workflow:ready-to-build', 'workflow:invalid'],
    'workflow:in-review': ['workflow:merged', 'workflow:building', 'workflow:invalid', 'workflow:awaiting-merge'],
    // implementation-notes.md lists no move out of awaiting-merge; a human merging the PR is the one a reader expects.
    'workflow:awaiting-merge': ['workflow:merged'],
    'workflow:merged': [],
    'workflow:invalid': [],
    'workflow:decomposed': [],
    'workflow:engine-error': [],
};
const FROM_ANY = new Set(['workflow:engine-error', NEEDS_HUMAN]);
function isReservedLabel(name) {
    return RESERVED_LABELS.includes(name);
}
function isWorkflowLabel(name) {
    return name.startsWith(WORKFLOW_PREFIX);
}
function isTerminal(label) {
    return TERMINAL_LABELS.has(label);
}
/** The current state from an item's labels: its workflow label, else needs-human, else none. */
function currentState(labels) {
    const workflow = labels.filter((l) => isReservedLabel(l) && isWorkflowLabel(l));
    if (workflow.length > 0)
        return workflow[0];
    return labels.includes(NEEDS_HUMAN) ? NEEDS_HUMAN : 'none';
}
function anyTerminal(labels) {
    return labels.some((l) => TERMINAL_LABELS.has(l));
}
/** A label move the state machine refuses: the caller's mistake, not a failure. */
class LabelTransitionError extends Error {
    constructor(message) {
        super(message);
        this.name = 'LabelTransitionError';
    }
}
/**
 * Plan moving an item with `labels` to the label `to`. Returns the plan, or
 * throws a LabelTransitionError naming the refused move. Exclusive: every other
 * workflow label goes; needs-human stays unless the move is to awaiting-merge.
 */
function planTransition(labels, to) {
    if (!isReservedLabel(to))
        throw new LabelTransitionError(`"${to}" is not a reserved label (${RESERVED_LABELS.join(', ')})`);
    const workflow = labels.filter(isWorkflowLabel);
    if (to === NEEDS_HUMAN) {
        return { add: labels.includes(NEEDS_HUMAN) ? [] : [NEEDS_HUMAN], remove: [] };
    }
    const others = workflow.filter((l) => l !== to);
    const already = workflow.includes(to);
    if (!already && !FROM_ANY.has(to)) {
        const reserved = workflow.filter(isReservedLabel);
        // No current state: the item may enter the machine anywhere.
        const allowed = reserved.length === 0 || reserved.some((from) => TRANSITIONS[from]?.includes(to));
        if (!allowed) {
            const from = reserved.join(' + ');
            const options = [...new Set(reserved.flatMap((f) => TRANSITIONS[f] ?? []))];
            throw new LabelTransitionError(`moving ${from} → ${to} is not an allowed transition (allowed from ${from}: ${[...options, 'workflow:engine-error', NEEDS_HUMAN].join(', ')})`);
        }
    }
    const remove = [...others];
    if (to === 'workflow:awaiting-merge' && labels.includes(NEEDS_HUMAN))
        remove.push(NEEDS_HUMAN);
    return { add: already ? [] : [to], remove };
}

;// CONCATENATED MODULE: ./src/codec/index.ts
/**
 * The FORGE codec: parse, validate and emit annotations (spec v1.0), the type
 * registry, and the label state machine. No GitHub code lives here.
 */













/** GitHub's limit on a comment, issue or milestone body. */
const MAX_BODY_LENGTH = 65536;
/**
 * parse + validate in one call: what `forge parse` prints. The findings are
 * added to parse's own fresh objects, in a fixed order: copying every
 * annotation into a new one cost a 64 KB body of 2,400 tiny annotations a
 * fifth of its cold parse time, mostly in garbage collection.
 */
function parseAndValidate(body) {
    const all = parse(body);
    for (let i = 0; i < all.length; i++) {
        const a = all[i];
        const { valid, errors, warnings, templateGaps } = validate(a);
        a.valid = valid;
        a.errors = errors;
        a.warnings = warnings;
        a.templateGaps = templateGaps;
    }
    return all;
}

var __webpack_exports__ENDED_WITHOUT_BUILD = __webpack_exports__.xJ;
var __webpack_exports__EmitError = __webpack_exports__.GU;
var __webpack_exports__LabelTransitionError = __webpack_exports__.uG;
var __webpack_exports__MAX_BODY_LENGTH = __webpack_exports__.tr;
var __webpack_exports__NEEDS_HUMAN = __webpack_exports__._8;
var __webpack_exports__RESERVED_LABELS = __webpack_exports__.tE;
var __webpack_exports__TASK_TYPES = __webpack_exports__.ci;
var __webpack_exports__TERMINAL_LABELS = __webpack_exports__.ZK;
var __webpack_exports__TYPES = __webpack_exports__.QE;
var __webpack_exports__WORKFLOW_PREFIX = __webpack_exports__.r3;
var __webpack_exports__WORKFLOW_STATES = __webpack_exports__.Fv;
var __webpack_exports__anyTerminal = __webpack_exports__.Hp;
var __webpack_exports__canonicalJson = __webpack_exports__.dj;
var __webpack_exports__cardValue = __webpack_exports__.MP;
var __webpack_exports__closesFence = __webpack_exports__.Tv;
var __webpack_exports__codeSpan = __webpack_exports__.SS;
var __webpack_exports__completionSentinels = __webpack_exports__.Iz;
var __webpack_exports__currentState = __webpack_exports__.JV;
var __webpack_exports__decode = __webpack_exports__.D4;
var __webpack_exports__editDistance = __webpack_exports__.YC;
var __webpack_exports__emit = __webpack_exports__.Ic;
var __webpack_exports__emitAnnotation = __webpack_exports__.TY;
var __webpack_exports__emitPartial = __webpack_exports__.Bz;
var __webpack_exports__emittedCompleteSentinel = __webpack_exports__.y;
var __webpack_exports__emittedPartialSentinel = __webpack_exports__.c5;
var __webpack_exports__encode = __webpack_exports__.lF;
var __webpack_exports__findAnnotations = __webpack_exports__.SU;
var __webpack_exports__foldLine = __webpack_exports__.wl;
var __webpack_exports__getField = __webpack_exports__.VI;
var __webpack_exports__isControl = __webpack_exports__.c0;
var __webpack_exports__isInline = __webpack_exports__.mO;
var __webpack_exports__isIso8601 = __webpack_exports__.nO;
var __webpack_exports__isReferenceTypeName = __webpack_exports__.BK;
var __webpack_exports__isReserved = __webpack_exports__.Bs;
var __webpack_exports__isReservedLabel = __webpack_exports__.JA;
var __webpack_exports__isTerminal = __webpack_exports__.Hd;
var __webpack_exports__isTypeName = __webpack_exports__.Ai;
var __webpack_exports__isWorkflowLabel = __webpack_exports__.ke;
var __webpack_exports__matchEnum = __webpack_exports__.nS;
var __webpack_exports__nearMisses = __webpack_exports__.UW;
var __webpack_exports__nearestReserved = __webpack_exports__.dK;
var __webpack_exports__oneLine = __webpack_exports__.TN;
var __webpack_exports__openingFence = __webpack_exports__.sv;
var __webpack_exports__parse = __webpack_exports__.qg;
var __webpack_exports__parseAndValidate = __webpack_exports__.r8;
var __webpack_exports__partialSentinels = __webpack_exports__.XE;
var __webpack_exports__planTransition = __webpack_exports__.Re;
var __webpack_exports__quote = __webpack_exports__.hD;
var __webpack_exports__readCard = __webpack_exports__.hX;
var __webpack_exports__stripCodeSpan = __webpack_exports__.OG;
var __webpack_exports__typeSpec = __webpack_exports__.KD;
var __webpack_exports__validate = __webpack_exports__.tf;
export { __webpack_exports__ENDED_WITHOUT_BUILD as ENDED_WITHOUT_BUILD, __webpack_exports__EmitError as EmitError, __webpack_exports__LabelTransitionError as LabelTransitionError, __webpack_exports__MAX_BODY_LENGTH as MAX_BODY_LENGTH, __webpack_exports__NEEDS_HUMAN as NEEDS_HUMAN, __webpack_exports__RESERVED_LABELS as RESERVED_LABELS, __webpack_exports__TASK_TYPES as TASK_TYPES, __webpack_exports__TERMINAL_LABELS as TERMINAL_LABELS, __webpack_exports__TYPES as TYPES, __webpack_exports__WORKFLOW_PREFIX as WORKFLOW_PREFIX, __webpack_exports__WORKFLOW_STATES as WORKFLOW_STATES, __webpack_exports__anyTerminal as anyTerminal, __webpack_exports__canonicalJson as canonicalJson, __webpack_exports__cardValue as cardValue, __webpack_exports__closesFence as closesFence, __webpack_exports__codeSpan as codeSpan, __webpack_exports__completionSentinels as completionSentinels, __webpack_exports__currentState as currentState, __webpack_exports__decode as decode, __webpack_exports__editDistance as editDistance, __webpack_exports__emit as emit, __webpack_exports__emitAnnotation as emitAnnotation, __webpack_exports__emitPartial as emitPartial, __webpack_exports__emittedCompleteSentinel as emittedCompleteSentinel, __webpack_exports__emittedPartialSentinel as emittedPartialSentinel, __webpack_exports__encode as encode, __webpack_exports__findAnnotations as findAnnotations, __webpack_exports__foldLine as foldLine, __webpack_exports__getField as getField, __webpack_exports__isControl as isControl, __webpack_exports__isInline as isInline, __webpack_exports__isIso8601 as isIso8601, __webpack_exports__isReferenceTypeName as isReferenceTypeName, __webpack_exports__isReserved as isReserved, __webpack_exports__isReservedLabel as isReservedLabel, __webpack_exports__isTerminal as isTerminal, __webpack_exports__isTypeName as isTypeName, __webpack_exports__isWorkflowLabel as isWorkflowLabel, __webpack_exports__matchEnum as matchEnum, __webpack_exports__nearMisses as nearMisses, __webpack_exports__nearestReserved as nearestReserved, __webpack_exports__oneLine as oneLine, __webpack_exports__openingFence as openingFence, __webpack_exports__parse as parse, __webpack_exports__parseAndValidate as parseAndValidate, __webpack_exports__partialSentinels as partialSentinels, __webpack_exports__planTransition as planTransition, __webpack_exports__quote as quote, __webpack_exports__readCard as readCard, __webpack_exports__stripCodeSpan as stripCodeSpan, __webpack_exports__typeSpec as typeSpec, __webpack_exports__validate as validate };
