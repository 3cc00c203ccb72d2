// Written once by mcpgen from specs/secure.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import type { SecureNotesHandlers } from './server.js';

/** Notes per subject, in memory (newest last). The scope checks happened before any of these run. */
const notes = new Map<string, string[]>();
const audit: string[] = [];

const owner = (subject: string | undefined) => subject ?? 'anonymous';

export const handlers: SecureNotesHandlers = {
  whoami(_args, ctx) {
    return {
      ...(ctx.auth?.subject !== undefined ? { subject: ctx.auth.subject } : {}),
      ...(ctx.auth?.clientId !== undefined ? { clientId: ctx.auth.clientId } : {}),
      scopes: [...(ctx.auth?.scopes ?? [])],
    };
  },
  listNotes(_args, ctx) {
    return { notes: [...(notes.get(owner(ctx.auth?.subject)) ?? [])].reverse() };
  },
  addNote({ text }, ctx) {
    const who = owner(ctx.auth?.subject);
    notes.set(who, [...(notes.get(who) ?? []), text]);
    audit.push(`${new Date().toISOString()} ${who} added a note`);
    return 'added';
  },
  purgeNotes(_args, ctx) {
    const count = [...notes.values()].reduce((n, list) => n + list.length, 0);
    notes.clear();
    audit.push(`${new Date().toISOString()} ${owner(ctx.auth?.subject)} purged ${count} notes`);
    return `purged ${count} notes`;
  },
  readAuditLog() {
    return audit.join('\n');
  },
  readNote({ index }, ctx) {
    const list = [...(notes.get(owner(ctx.auth?.subject)) ?? [])].reverse();
    return list[Number(index)] ?? '';
  },
  promptWeeklyReview(_args, ctx) {
    const list = notes.get(owner(ctx.auth?.subject)) ?? [];
    return `Write a short weekly review from these notes:\n${list.map((n) => `- ${n}`).join('\n')}`;
  },
};
