// What createServerFactory is given, and what every MCP area (tools.ts, resources.ts, prompts.ts) reads
// of it: one object built once per factory, so each area is a plain function of it.
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import type { AuthOptions } from '../auth/auth.js';
import type { ChangeNotifier } from '../core/context.js';
import type { ServerDefinition } from '../core/definition.js';
import type { DiscoveryStore } from '../core/discovery.js';
import type { ExposureOptions } from '../core/exposure.js';
import type { RequestStateKey, RequestStateKeyRing } from '../scale/request-state.js';
import type { TaskStore } from '../tasks/store.js';
import type { ReadinessCheck } from '../ops/health.js';
import type { OpenTelemetryApi } from '../ops/telemetry.js';
import type { RateLimiter } from '../ops/rate-limit.js';
import type { AccessLog } from '../ops/access-log.js';
import { INTERNAL_ERROR, type ErrorReporting } from './errors.js';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { RequestStateSeal } from './request-context.js';
import type { DiscoveryGate } from './discovery.js';

/** `toolsets` and `readOnly` (core/exposure.ts) choose what this deployment exposes of the spec. */
export interface ServerOptions extends ExposureOptions {
  /** Items per page of tools/list, resources/list, resources/templates/list, prompts/list. Default 100. */
  readonly pageSize?: number;
  /** Default upper bound for tool handlers, in ms (a tool's `timeoutMs` in the spec wins). Default: none. */
  readonly toolTimeoutMs?: number;
  /**
   * Called with every unexpected error a handler throws; the client sees only a generic message ("Tool x
   * failed", "Reading <uri> failed"). PublicError and ProtocolError are meant for the client and are
   * not reported. Default: the stack on stderr.
   */
  readonly onHandlerError?: (error: unknown, where: string) => void;
  /**
   * Largest tool result or resource contents, as JSON text (characters, counted roughly), checked
   * before the SDK serializes it: a tool past it answers an `isError` result, a resource -32603.
   * Default: none (generated entry points set 16 MiB).
   */
  readonly maxResponseBytes?: number;
  /** Where `ctx.notify` publishes change events (createMcpgenServer wires the HTTP handler's bus). */
  readonly notifier?: ChangeNotifier;
  /** Token verification and resource identifier over HTTP, for a spec with `auth:`. */
  readonly auth?: AuthOptions;
  /**
   * tools/list shows an authenticated caller only the tools its token's scopes allow (the list may vary
   * by authorization: ST4). Default false: everyone sees every tool, calls are still refused with 403.
   */
  readonly hideForbiddenTools?: boolean;
  /**
   * Keys that seal MRTR `requestState` (the first signs, all verify; every instance needs the same).
   * Default: one random key per process — fine for one instance, refused across instances.
   */
  readonly requestStateKeys?: RequestStateKeyRing | readonly RequestStateKey[];
  /** How long a sealed `requestState` stays valid. Default 600 s (ignored when a ring is given). */
  readonly requestStateTtlSeconds?: number;
  /**
   * Where change events go and `subscriptions/listen` streams hear them (createMcpgenServer). Default:
   * in this process only; `createRedisEventBus` shares them between instances.
   */
  readonly bus?: ServerEventBus;
  /**
   * Where tasks (tools with `task:` in the spec) live. Default: in this process (MemoryTaskStore);
   * instances behind a balancer need a shared one.
   */
  readonly taskStore?: TaskStore;
  /**
   * Owner lease of this instance's tasks in a shared store (docs/tasks.md): a task whose instance died is
   * found by a survivor within 4/3 × this and ended `failed` (the worker was lost). Default 15 000 ms.
   */
  readonly taskLeaseMs?: number;
  /** How long a task's result or error is retried through task store outages before it is dropped. Default 60 000 ms. */
  readonly taskResultRetryMs?: number;
  /**
   * Skills (SEP-2640) this server serves: the catalog a generated `skills.ts` embeds, or any SDK
   * SkillsExtension (`await loadSkills(dir)` reads a folder at start-up instead).
   */
  readonly skills?: SkillsExtension;
  /**
   * What the HTTP readiness probe (`/readyz`) waits for besides the authorization server: e.g. Redis
   * reachable (serverOptionsFromEnv adds that check with REDIS_URL).
   */
  readonly readiness?: readonly ReadinessCheck[];
  /**
   * OpenTelemetry (the MCP semantic conventions): pass `@opentelemetry/api` (`import * as api from
   * '@opentelemetry/api'`, or `await loadOpenTelemetry()`); spans and the duration histogram go to whatever
   * SDK the application registered. Default: none, and nothing of OpenTelemetry is loaded.
   */
  readonly telemetry?: OpenTelemetryApi;
  /**
   * Rate limits per caller (`await createRateLimiter({ server, tools, redisUrl }, name)`; serverOptionsFromEnv
   * builds one from MCPGEN_RATE_LIMIT / MCPGEN_RATE_LIMIT_TOOLS). HTTP answers 429 with Retry-After, stdio the
   * JSON-RPC error 429. Default: none.
   */
  readonly rateLimiter?: RateLimiter;
  /**
   * Where each principal's enabled toolsets live, for a spec with `discovery:` (docs/toolsets.md). Default:
   * in this process; serverOptionsFromEnv uses Redis with REDIS_URL, so every instance agrees.
   */
  readonly discoveryStore?: DiscoveryStore;
  /** One entry per handled request (`jsonAccessLog()`: JSON lines on stderr; MCPGEN_ACCESS_LOG=json). Default: none. */
  readonly accessLog?: AccessLog;
}

export type AnyHandler = (...args: unknown[]) => unknown;
export type HandlerTable = { readonly [method: string]: AnyHandler | undefined };

/** One factory's shared pieces, handed to each MCP area. */
export interface Dispatch extends ErrorReporting, RequestStateSeal {
  readonly def: ServerDefinition;
  readonly options: ServerOptions;
  readonly handlers: HandlerTable;
  readonly notifier: ChangeNotifier;
  readonly pageSize: number;
  /** Dynamic discovery (a spec with `discovery:`): what each caller sees and may call, and the discovery tools' handlers. */
  readonly discovery?: DiscoveryGate;
}

/** The user's handler for a spec method, bound to its table; a missing one is -32603 (never a crash). */
export function handlerOf(handlers: HandlerTable, method: string): AnyHandler {
  const h = handlers[method];
  if (typeof h !== 'function') throw new ProtocolError(INTERNAL_ERROR, `Server has no handler for ${method}`);
  return h.bind(handlers);
}
