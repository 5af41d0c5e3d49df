export type LineClass = {
    kind: 'text';
} | {
    kind: 'open';
    type: string;
    value: string | null;
    valueForm: 'colon' | 'dash' | null;
} | {
    kind: 'sentinel';
    name: string;
    type: string;
    state: SentinelWord;
    forgePrefix: boolean;
};
/**
 * The words a sentinel line ends with. COMPLETE (§3.2) and PARTIAL (§3.3);
 * INVALID only so that a deployed `<!-- INVESTIGATION:INVALID -->` is
 * recognised and reported — it completes nothing.
 */
export type SentinelWord = 'COMPLETE' | 'PARTIAL' | 'INVALID';
export declare function classifyLine(line: string): LineClass;
