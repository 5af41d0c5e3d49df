/** `npm run bench:api`: the actions' bundles against the loopback GitHub server. Prints figures; asserts none. */
import base from './jest.config.js';

export default { ...base, roots: ['<rootDir>/bench'], testMatch: ['**/*.bench.ts'], reporters: ['default'], testTimeout: 600000 };
