// A stdio MCP server started as the leader of its own process group. Servers are often launched
// through npx, uvx or a shell script, whose real server is a grandchild: signalling the pid the
// runner spawned would leave that grandchild running. Signalling the group reaches all of them,
// the runner's last-resort exit path (process-groups.ts) kills the group too, and a Ctrl-C at the
// terminal reaches the runner only, which then shuts the server down itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { procFile, processIds } from '../../util/proc.js';
import { killProcessGroup, track, untrack } from '../process-groups.js';

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

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
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
  private readonly readBuffer = new ReadBuffer();

  constructor(private readonly params: GroupStdioParams) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, [...this.params.args], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
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
        if (child.pid !== undefined) track(child.pid);
        resolve();
      });
      child.once('exit', () => {
        if (child.pid === undefined) return;
        // What the server left behind (a grandchild npx started) goes with it.
        killProcessGroup(child.pid, 'SIGKILL');
        untrack(child.pid);
      });
      child.once('close', () => this.onclose?.());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
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
    this.readBuffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
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
