// Written once by mcpgen from specs/jobs.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { protocolError, toolError } from '@mcpgen/runtime/server';
import type { JobsHandlers } from './server.js';

/** Which instance ran a job: INSTANCE_ID when set (tests, compose files), else the host name. */
const INSTANCE = process.env.INSTANCE_ID ?? hostname();

// Each handler is an ordinary tool handler: the runtime runs it as a task (its spec says `task:`), keeps the
// record in the task store and answers tasks/get, tasks/update and tasks/cancel from any instance.
export const handlers: JobsHandlers = {
  async render({ frames, frameMs = 20 }, ctx) {
    for (let frame = 1; frame <= frames; frame++) {
      // ctx.signal aborts when the task is cancelled (tasks/cancel on any instance): stop working.
      await sleep(frameMs, undefined, { signal: ctx.signal });
      // Inside a task, progress becomes the task's statusMessage.
      await ctx.progress(frame, frames, `frame ${frame} of ${frames}`);
    }
    return { frames, servedBy: INSTANCE };
  },
  async snapshot({ ms }, ctx) {
    await sleep(ms, undefined, { signal: ctx.signal });
    return `snapshot taken in ${ms} ms`;
  },
  async importFeed({ url }) {
    // A JSON-RPC error ends the task `failed`; tasks/get carries the error.
    protocolError(-31001, `Feed unreachable: ${url}`);
  },
  async checkFeed({ url }) {
    // A tool error is a result: the task ends `completed` with isError set.
    return toolError(`Feed ${url} has no items.`);
  },
  async purge({ dataset }, ctx) {
    const answer = ctx.elicit.confirm.response;
    if (answer === undefined) {
      await sleep(30, undefined, { signal: ctx.signal }); // the listing that comes before the question
      // The task goes input_required; the client answers with tasks/update and the handler runs again.
      return ctx.elicit.confirm.ask();
    }
    if (answer.action !== 'accept' || !answer.content.confirm) return { dataset, purged: false, servedBy: INSTANCE };
    return { dataset, purged: true, servedBy: INSTANCE };
  },
};
