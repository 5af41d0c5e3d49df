/** The version of these actions (package.json's; a test holds the two together). Checkpoints record it. */
export const VERSION = '1.0.0';
