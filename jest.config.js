/** Two projects: fast unit tests (pure logic) and integration tests against the real services. */
// @swc/jest with the built-ins bound per module: see test/helpers/fast-globals-transform.js.
const transform = { '^.+\\.(t|j)s$': ['<rootDir>/test/helpers/fast-globals-transform.js', { jsc: { target: 'es2022' } }] };
module.exports = {
  // Global, not per project: integration tests crawl for real.
  testTimeout: 120000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
    },
  ],
};
