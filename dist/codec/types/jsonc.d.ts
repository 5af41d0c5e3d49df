/** The JSONC the DESIGN_SPEC template carries (§4.4): JSON with comments and trailing commas. */
/** JSON with `//` and `/* *\/` comments and trailing commas; null when it does not parse. */
export declare function parseJsonc(text: string): unknown;
