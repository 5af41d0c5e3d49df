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
    state: 'COMPLETE' | 'PARTIAL';
    forgePrefix: boolean;
};
export declare function classifyLine(line: string): LineClass;
