/**
 * One loopback GitHub per test file: started before the tests, stopped after,
 * and after every test the OpenAPI referee's findings must be empty.
 */
import { FakeGitHub } from './github-server.js';

export function useFakeGitHub(setup: (gh: FakeGitHub) => void = () => undefined): () => FakeGitHub {
  let gh: FakeGitHub | null = null;
  beforeAll(async () => {
    gh = new FakeGitHub();
    setup(gh);
    await gh.start();
  });
  afterAll(async () => gh?.stop());
  afterEach(() => {
    const seen = gh ? gh.violations.splice(0) : [];
    expect(seen).toEqual([]);
  });
  return () => {
    if (!gh) throw new Error('the fake GitHub is not started yet');
    return gh;
  };
}
