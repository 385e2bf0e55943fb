import { sealingKeyConcern } from './state-secret.notice.js';

describe('sealingKeyConcern', () => {
  const signs = (env: NodeJS.ProcessEnv, clusterWorker = false) => sealingKeyConcern({ env, clusterWorker });

  it('says nothing on a developer machine', () => {
    expect(signs({})).toBeUndefined();
    expect(signs({ NODE_ENV: 'development' })).toBeUndefined();
    expect(signs({ NODE_ENV: 'test' })).toBeUndefined();
  });

  it('names production, and every sign of other instances', () => {
    expect(signs({ NODE_ENV: 'production' })).toBe('NODE_ENV is production');
    expect(signs({}, true)).toBe('this process is a cluster worker');
    expect(signs({ NODE_APP_INSTANCE: '0' })).toBe('this process is one of a PM2 cluster');
    expect(signs({ KUBERNETES_SERVICE_HOST: '10.0.0.1' })).toBe('this process runs in Kubernetes');
  });
});
