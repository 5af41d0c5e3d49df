/**
 * The fast loop: the tests that import src/ only — no dist/ bundles, no
 * loopback servers or sockets, no subprocess tools (actionlint, Biome).
 * `npm run test:unit` runs these in seconds after an edit; everything left
 * out here runs in `npm test`.
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
    // Loopback sockets and subprocess tools: end-to-end, not unit.
    '/__tests__/transport\\.test\\.ts$',
    '/__tests__/transport-failures\\.test\\.ts$',
    '/__tests__/workflows\\.test\\.ts$',
    '/__tests__/lint-boundaries\\.test\\.ts$',
  ],
};
