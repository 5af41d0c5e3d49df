export interface Fence {
    char: number;
    length: number;
}
/** The fence this line opens, or null. */
export declare function openingFence(text: string): Fence | null;
/** The info string after an opening fence (`jsonc` in ```jsonc). */
export declare function fenceInfo(text: string): string;
export declare function closesFence(text: string, fence: Fence): boolean;
/**
 * Close any fence left open at the end of emitted Markdown, so that nothing the
 * emitter writes after it (a field, a sentinel) is swallowed into a code block.
 */
export declare function closeOpenFences(markdown: string, lines: string[]): string;
