import { buildProgram } from '../../../src/cli/main';
import { freePort } from '../../helpers/ports';

/** Issue 24: `freshet health` with the services down printed a URL's user:pass@ as given. */
describe('freshet health with credentials in the service URLs', () => {
  it('prints both services DOWN without the passwords', async () => {
    const [esPort, redisPort] = [await freePort(), await freePort()];
    const settings = {
      redisUrl: `redis://default:redisPWsecret41@127.0.0.1:${redisPort}`,
      esUrl: `http://elastic:esPWsecret42@127.0.0.1:${esPort}`,
      indexPrefix: 'freshet-test-',
    };
    const printed: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void printed.push(a.join(' ')));
    const err = jest.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void printed.push(a.join(' ')));
    try {
      await buildProgram(() => settings).parseAsync(['node', 'freshet', 'health']);
    } finally {
      log.mockRestore();
      err.mockRestore();
      process.exitCode = undefined;
    }
    const out = printed.join('\n');
    expect(out).toMatch(/^search .*DOWN/m);
    expect(out).toMatch(/^redis .*DOWN/m);
    expect(out).toContain(`http://[redacted]@127.0.0.1:${esPort}`);
    expect(out).not.toContain('esPWsecret42');
    expect(out).not.toContain('redisPWsecret41');
  });
});
