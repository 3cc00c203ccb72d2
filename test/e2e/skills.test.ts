// Skills (SEP-2640) end to end: the generated everything server (specs/skills/everything embedded at
// generate time) over real HTTP and stdio, read by the official SDK client and by the generated client,
// every byte compared with the files on disk.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingClient as EverythingClientType } from '../../generated/everything/client.js';
import type { createEverythingServer as CreateEverythingServer, EverythingHandlers } from '../../generated/everything/server.js';
import { tempDir } from '../support/root.js';
import { compiledMain, importCompiled, ROOT, startHttp, startScript, type HttpProcess } from '../support/servers.js';

const SKILLS_DIR = join(ROOT, 'specs/skills/everything');
const onDisk = (path: string) => readFileSync(join(SKILLS_DIR, path));
const digest = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const FILES = ['brand-guidelines/SKILL.md', 'brand-guidelines/assets/logo.png', 'pdf-processing/SKILL.md', 'pdf-processing/references/FORMS.md'];

let server: HttpProcess;
let EverythingClient: typeof EverythingClientType;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startHttp('everything');
  stops.push(async () => void (await server.stop()));
  ({ EverythingClient } = await importCompiled<{ EverythingClient: typeof EverythingClientType }>('everything', 'client.js'));
});

afterAll(async () => {
  await Promise.all(stops.map((s) => s()));
});

async function officialClient(url: string): Promise<Client> {
  const client = new Client({ name: 'skills-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  stops.push(() => client.close());
  return client;
}

describe('skills over HTTP, official SDK client', () => {
  it('lists every skill with the digest and size of each file on disk, and serves the bytes', async () => {
    const client = await officialClient(server.url);
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const { skills: entries, invalid } = await skills.list();
    expect(invalid).toEqual([]);
    expect(entries.map((s) => s.uri)).toEqual(['skill://brand-guidelines/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    const pdf = entries[1]!;
    expect(pdf.frontmatter).toEqual({ name: 'pdf-processing', description: 'Extract text and tables from PDF files, fill PDF forms, and merge documents.', compatibility: "Needs a PDF library in the host's sandbox.", metadata: { author: 'mcpgen', version: '1.0' } });
    const resources = entries.flatMap((s) => (Array.isArray(s.resources) ? s.resources : []));
    expect(resources.map((r) => r.uri).sort()).toEqual(FILES.map((f) => `skill://${f}`));
    for (const r of resources) {
      const bytes = onDisk(r.uri.slice('skill://'.length));
      expect({ uri: r.uri, digest: r.digest, size: r.size }).toEqual({ uri: r.uri, digest: digest(bytes), size: bytes.byteLength });
    }
    // Reads are verified by the SDK; the bytes are the files' own, the binary one included.
    const logo = await skills.read(entries[0]!, 'assets/logo.png');
    expect(Buffer.from(logo.bytes)).toEqual(onDisk('brand-guidelines/assets/logo.png'));
    const manifest = await skills.read(pdf);
    expect(manifest.verified).toBe(true);
    expect(manifest.text).toBe(onDisk('pdf-processing/SKILL.md').toString('utf8'));
    expect((await skills.get('skill://pdf-processing/SKILL.md')).skill).toEqual(pdf);
    await expect(skills.get('skill://nope/SKILL.md')).rejects.toMatchObject({ code: -32602 });
  });

  it('reads skill folders and lists each SKILL.md beside the spec\'s own resources', async () => {
    const client = await officialClient(server.url);
    const dir = await new SkillsClient(client).readDirectory('skill://pdf-processing');
    expect(dir.resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['skill://pdf-processing/SKILL.md', 'text/markdown'],
      ['skill://pdf-processing/references', 'inode/directory'],
    ]);
    const listed = (await client.listResources()).resources;
    expect(listed.map((r) => r.uri)).toEqual(expect.arrayContaining(['test://static-text', 'skill://pdf-processing/SKILL.md', 'skill://brand-guidelines/SKILL.md']));
    expect(listed.find((r) => r.uri === 'skill://brand-guidelines/SKILL.md')).toMatchObject({ name: 'brand-guidelines', description: "Apply the brand's colours, type and logo to documents and slides.", mimeType: 'text/markdown' });
    // The spec's resources still answer as before.
    expect((await client.readResource({ uri: 'test://static-text' })).contents[0]).toMatchObject({ uri: 'test://static-text' });
    await expect(client.readResource({ uri: 'skill://pdf-processing/missing.md' })).rejects.toThrow();
  });
});

describe('skills, generated client', () => {
  it('over HTTP: lists, then loads a skill with every file verified', async () => {
    const client = await EverythingClient.connect({ url: server.url });
    stops.push(() => client.close());
    const { skills } = await client.skills.list();
    const loaded = await client.skills.load(skills.find((s) => s.frontmatter.name === 'pdf-processing')!);
    expect(loaded.manifest.frontmatter).toMatchObject({ name: 'pdf-processing' });
    expect(loaded.manifest.body).toContain('# PDF processing');
    expect(loaded.files.map((f) => [f.uri, f.verified, Buffer.from(f.bytes).equals(onDisk('pdf-processing/references/FORMS.md'))])).toEqual([['skill://pdf-processing/references/FORMS.md', true, true]]);
  });

  it('over stdio: the same skills from the built server with no skills folder beside it', async () => {
    const client = await EverythingClient.connect({ command: process.execPath, args: [compiledMain('everything')], cwd: tempDir() });
    stops.push(() => client.close());
    const { skills } = await client.skills.list();
    expect(skills.map((s) => s.frontmatter.name)).toEqual(['brand-guidelines', 'pdf-processing']);
    const brand = await client.skills.load(skills[0]!);
    expect(brand.files.map((f) => Buffer.from(f.bytes).equals(onDisk('brand-guidelines/assets/logo.png')))).toEqual([true]);
  });
});

describe('skills from a folder at run time', () => {
  it('options.skills replaces the embedded catalog (loadSkills reads the folder at start-up)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'live-notes'), { recursive: true });
    writeFileSync(join(dir, 'live-notes/SKILL.md'), '---\nname: live-notes\ndescription: Read from disk when the server starts.\n---\nBody.\n');
    const { createEverythingServer } = await importCompiled<{ createEverythingServer: typeof CreateEverythingServer }>('everything', 'server.js');
    const { handlers } = await importCompiled<{ handlers: EverythingHandlers }>('everything', 'handlers.js');
    const running = await createEverythingServer(handlers, { skills: await loadSkills(dir, { strict: true }) }).listen({ port: 0 });
    stops.push(() => running.close(500));
    const { skills } = await new SkillsClient(await officialClient(running.url)).list();
    expect(skills.map((s) => s.uri)).toEqual(['skill://live-notes/SKILL.md']);
  });

  it('MCPGEN_SKILLS_DIR makes the built entry point read the folder; a bad skill stops start-up with one line', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'ops-runbook'), { recursive: true });
    writeFileSync(join(dir, 'ops-runbook/SKILL.md'), '---\nname: ops-runbook\ndescription: Steps for the on-call engineer.\n---\n');
    const live = await startScript(compiledMain('everything'), [], { env: { MCPGEN_SKILLS_DIR: dir } });
    stops.push(async () => void (await live.stop()));
    const { skills } = await new SkillsClient(await officialClient(live.url)).list();
    expect(skills.map((s) => s.uri)).toEqual(['skill://ops-runbook/SKILL.md']);

    writeFileSync(join(dir, 'ops-runbook/SKILL.md'), '---\nname: wrong-name\ndescription: x\n---\n');
    const child = spawn(process.execPath, [compiledMain('everything'), '--http', '--port', '0'], { env: { ...process.env, MCPGEN_SKILLS_DIR: dir }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('ops-runbook/SKILL.md: frontmatter name "wrong-name" must match the last path segment "ops-runbook"');
  });
});
