// A stdio MCP server started as the leader of its own process group. Servers are often launched
// through npx, uvx or a shell script, whose real server is a grandchild: signalling the pid the
// runner spawned would leave that grandchild running. Signalling the group reaches all of them,
// the runner's last-resort exit path (process-groups.ts) kills the group too, and a Ctrl-C at the
// terminal reaches the runner only, which then shuts the server down itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { procFile, processIds } from '../../util/proc.js';
import { randomBytes } from 'node:crypto';
import { killMarkedProcesses, killProcessGroup, track, untrack } from '../process-groups.js';
import { MAX_MESSAGE_BYTES, MessageReader, type OversizedMessage } from './message-reader.js';

export interface GroupStdioParams {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A polite server exits when its stdin closes; this is how long it gets. */
export const STDIN_CLOSE_GRACE_MS = 2_000;
/** Between SIGTERM to the group and SIGKILL. */
export const TERM_GRACE_MS = 1_000;
/** How long close() waits for SIGKILLed group members to disappear (zombies nobody reaps never do). */
const GROUP_GONE_WAIT_MS = 1_000;
/** Set in each server's environment, to find its processes that left its group (killMarkedProcesses). */
const MARKER_VARIABLE = 'UNATTENDED_MCP_SERVER';
/** JSON-RPC's "internal error": what a reply refused for its size becomes. */
const INTERNAL_ERROR = -32603;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the runner stopped the server (it sent what cannot be read), or null. */
  failure(): string | null {
    return this.failed;
  }

  /** How the server's process ended (`exit code 1`, `killed by SIGSEGV`), or null while it runs. */
  exitStatus(): string | null {
    const child = this.child;
    if (!child || (child.exitCode === null && child.signalCode === null)) return null;
    return child.signalCode !== null ? `killed by ${child.signalCode}` : `exit code ${child.exitCode}`;
  }

  /** The server's stderr, available before start() so that no early line is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private failed: string | null = null;
  private readonly marker = `${MARKER_VARIABLE}=${randomBytes(8).toString('hex')}`;
  private readonly reader = new MessageReader({
    message: (message) => this.deliver(message),
    invalid: (error) => this.onerror?.(error),
    badReply: (id, reason) => this.deliver({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: reason } }),
    junk: (bytes) => this.fail(`it wrote ${megabytes(bytes)} of output that is no MCP message, with no line break`),
    oversized: (message) => this.refuse(message),
  });

  constructor(private readonly params: GroupStdioParams) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, [...this.params.args], {
        env: { ...getDefaultEnvironment(), ...this.params.env, [MARKER_VARIABLE]: this.marker.slice(MARKER_VARIABLE.length + 1) },
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('exit', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) track(child.pid, this.marker);
        resolve();
      });
      child.once('exit', () => {
        if (child.pid === undefined) return;
        // What the server left behind (a grandchild npx started, one that left the group) goes with it.
        killProcessGroup(child.pid, 'SIGKILL');
        killMarkedProcesses(this.marker);
        untrack(child.pid, this.marker);
      });
      child.once('close', () => this.onclose?.());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** stdin closed, then SIGTERM to the group, then SIGKILL; resolves once the server's group is gone. */
  async close(): Promise<void> {
    const child = this.child;
    // Never spawned (no pid: the command was not found): nothing to wait for.
    if (!child || child.pid === undefined) return;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      if (!(await this.exitsWithin(STDIN_CLOSE_GRACE_MS))) {
        this.signalGroup('SIGTERM');
        if (!(await this.exitsWithin(TERM_GRACE_MS))) {
          this.kill();
          await this.exited;
        }
      }
    }
    // The leader's exit SIGKILLs what is left of its group; a killed process takes a moment to go.
    await groupGone(child.pid, GROUP_GONE_WAIT_MS);
  }

  /** No grace: the run is being stopped by a signal and must be gone within seconds. */
  kill(): void {
    this.signalGroup('SIGKILL');
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid !== undefined) killProcessGroup(pid, signal);
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return Promise.race([this.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
  }

  private receive(chunk: Buffer): void {
    if (this.failed === null) this.reader.push(chunk);
  }

  /** A throw in here would escape from the pipe's data callback and take the runner down. */
  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A message over the limit fails the call it answers; one that answers no known call, the server. */
  private refuse(message: OversizedMessage): void {
    const size = `${megabytes(message.bytes)}, over the limit of ${megabytes(MAX_MESSAGE_BYTES)} for one MCP message`;
    if (message.replyTo !== null) {
      const text = `the server's reply is ${size}; it was not read (ask the tool for less: a smaller image, a page of the result)`;
      this.deliver({ jsonrpc: '2.0', id: message.replyTo, error: { code: INTERNAL_ERROR, message: text } });
    } else if (message.fromServer) {
      this.onerror?.(new Error(`the server sent a request or notification of ${size}; it was ignored`));
    } else {
      this.fail(`it sent a message of ${size}, answering no request the runner could tell`);
    }
  }

  /** Pending calls then end at once (the SDK fails them when the connection closes), saying why. */
  private fail(reason: string): void {
    if (this.failed !== null) return;
    this.failed = `the runner stopped it: ${reason}`;
    this.onerror?.(new Error(this.failed));
    this.kill();
  }
}

function megabytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** True once no live process of the group led by `pid` is left, or false after `ms`. */
async function groupGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * kill(-pgid, 0) also finds zombies, and in a container whose first process reaps nothing they
 * stay forever; on Linux, /proc tells the living from the dead.
 */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  const pids = processIds();
  if (pids === null) return true; // no /proc (macOS): the signal probe is all there is
  for (const pid of pids) {
    const stat = procFile(pid, 'stat');
    if (stat === null) continue;
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}
