// Liveness and readiness for balancers and orchestrators (Kubernetes probes), answered by the node:http face
// before the Host/Origin checks and the bearer gate: a probe names the pod by its address and carries no token.
// The answers say only "ok" / "ready" / "not ready": what is down is nobody's business on the network (the
// server's own stderr says it once, when it happens).

/** One condition the server needs before it takes traffic (Redis reachable, authorization server discovered). */
export interface ReadinessCheck {
  /** Named in messages and tests only, never in the probe's answer. */
  readonly name: string;
  /** True when ready. A throw or a rejection counts as not ready. */
  ready(): boolean | Promise<boolean>;
}

export interface HealthPaths {
  /** Liveness: 200 while the process serves HTTP at all. Default `/healthz`; false turns it off. */
  readonly healthPath?: string | false;
  /** Readiness: 200 when every check passes and the server is not draining, else 503. Default `/readyz`; false turns it off. */
  readonly readyPath?: string | false;
}

export const DEFAULT_HEALTH_PATH = '/healthz';
export const DEFAULT_READY_PATH = '/readyz';
/** A probe never waits long for a check: a hung Redis ping is "not ready", not a probe timeout. */
const CHECK_TIMEOUT_MS = 2000;

export interface HealthProbes {
  /** The answer for this method and path, or undefined when the path is not a probe's. */
  answer(method: string | undefined, pathname: string): Promise<Response> | undefined;
  /** From now on readiness is 503 (SIGTERM: the balancer should stop sending before the server closes). */
  startDraining(): void;
  readonly draining: boolean;
}

export function createHealthProbes(paths: HealthPaths, checks: () => readonly ReadinessCheck[]): HealthProbes {
  const health = paths.healthPath === undefined ? DEFAULT_HEALTH_PATH : paths.healthPath;
  const ready = paths.readyPath === undefined ? DEFAULT_READY_PATH : paths.readyPath;
  let draining = false;
  const isReady = async (): Promise<boolean> => {
    if (draining) return false;
    const results = await Promise.all(checks().map((c) => passes(c)));
    return results.every((r) => r);
  };
  return {
    answer(method, pathname) {
      if (pathname !== health && pathname !== ready) return undefined;
      if (method !== 'GET' && method !== 'HEAD') return Promise.resolve(new Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
      if (pathname === health) return Promise.resolve(probeAnswer(200, 'ok'));
      return isReady().then((ok) => (ok ? probeAnswer(200, 'ready') : probeAnswer(503, 'not ready')));
    },
    startDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}

async function passes(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
    return await Promise.race([Promise.resolve(check.ready()), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function probeAnswer(status: number, status_: string): Response {
  // Never cached by a proxy: a stale "ready" is worse than none.
  return Response.json({ status: status_ }, { status, headers: { 'cache-control': 'no-store' } });
}
