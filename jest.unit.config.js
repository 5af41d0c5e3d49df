/**
 * The fast loop: the tests that import src/ only — no dist/ bundles, no
 * loopback GitHub. `npm run test:unit` runs these in seconds after an edit.
 */
import base from './jest.config.js';

export default {
  ...base,
  testPathIgnorePatterns: [
    '/node_modules/',
    '/__tests__/e2e-',
    '/__tests__/cli\\.test\\.ts$',
    '/__tests__/package\\.test\\.ts$',
    '/__tests__/dist\\.test\\.ts$',
    '/__tests__/openapi-referee\\.test\\.ts$',
  ],
};
