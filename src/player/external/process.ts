/**
 * One running external player: a child process spoken to over its stdin/stdout (protocol.ts). Every fault
 * of the program (not found, exits, crashes, hangs, garbage, an illegal move) rejects with a PlayerError
 * whose one line names the player and what it did; the process is then killed.
 *
 * No player outlives tune2048: it is started under `setpriv --pdeathsig KILL` where that exists (Linux
 * kills it when the process that started it dies, even by kill -9), it is killed when this process exits,
 * and the protocol asks every player to exit when its stdin closes.
 *
 * A player runs in a process group of its own: a terminal's Ctrl-C (or a closed terminal's hangup) reaches the
 * whole foreground group, and a player that died of it (Python's KeyboardInterrupt) failed the run where the
 * user asked it to stop. tune2048 alone decides when its players stop: its batches finish and are stored first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Board } from '../../engine/board';
import { PlayerError } from '../../util/errors';
import type { Launch } from '../spec';
import { AnnouncementReader, boardLine, clip, parseMoveLine, PROTOCOL_VERSION, type Announcement, type MoveAnswer } from './protocol';

const SETPRIV = '/usr/bin/setpriv';
const ANNOUNCING = 'to announce itself';
const START_TIMEOUT_SEC = 30;
/** Of a program's stderr: what is kept, and how much of its last lines a fault's message shows. */
const STDERR_KEPT = 8192;
const STDERR_LINES = 3;
const STDERR_SHOWN = 600;
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killGroup(child);
});

/**
 * Kills a player and whatever it started (a wrapper such as `uv run` or a shell script starts the real program as
 * its child): the process group it leads (spawned detached), else the process alone.
 */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL'); // no group (already gone, or never started)
  }
}

export class ExternalProcess {
  private readonly child: ChildProcess;
  private buffer = '';
  private readonly lines: string[] = [];
  private waiter: { resolve: (line: string) => void; reject: (e: Error) => void; timer: NodeJS.Timeout } | null = null;
  private failure: PlayerError | null = null;
  private stderrTail = '';
  /** Where the program is: the game's seed and the board it was last asked (for a fault's message). */
  private at: { seed: number; ply: number } | null = null;
  /** The parameter values the player holds now (only changed ones are sent again). */
  private sent = new Map<string, number>();
  announcement!: Announcement;
  /** Parameters whose announced default looks rounded by printf (protocol.ts, looksRounded). */
  roundedDefaults: string[] = [];

  private constructor(
    readonly label: string,
    private readonly launch: Launch,
  ) {
    const [program, ...args] = launch.command;
    const argv = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', program, ...args]] as const : [program, args] as const;
    this.child = spawn(argv[0], [...argv[1]], { cwd: launch.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    live.add(this.child);
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.receive(chunk));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_KEPT);
    });
    // A player that died leaves a closed pipe: its exit says more than EPIPE does.
    this.child.stdin!.on('error', () => {});
    this.child.on('error', (e: NodeJS.ErrnoException) => {
      // A folder that is not there fails the start as ENOENT too: said as what it is, not as a missing interpreter.
      const noFolder = e.code === 'ENOENT' && !existsSync(launch.cwd);
      const what = noFolder ? `could not start: its folder ${launch.cwd} does not exist (the player's "cwd")` : e.code === 'ENOENT' ? `was not found (${program})` : e.code === 'EACCES' ? `is not executable (${program})` : `could not start: ${e.message}`;
      this.fail(`${what}`);
    });
    this.child.on('exit', () => live.delete(this.child));
    // 'close', not 'exit': it comes after the last of stderr, which names why a program could not start.
    this.child.on('close', (code, signal) => {
      // setpriv reports a program it could not run on stderr ("setpriv: failed to execute …") and exits 127/126.
      const said = this.lastStderrLine();
      const setprivFailed = /^setpriv: failed to execute/.test(said);
      if (setprivFailed && code === 127) return this.fail(`was not found (${program})`);
      if (setprivFailed && code === 126) return this.fail(`is not executable (${program})`);
      const where = this.at ? ` in the game of seed ${this.at.seed}${this.at.ply > 0 ? ` at board ${this.at.ply}` : ' as it began'}` : '';
      const words = this.lastStderrWords();
      this.fail(`exited${signal ? ` on ${signal}` : ` with code ${code}`}${where}${words ? `; its last words on stderr: ${words}` : ''}`);
    });
  }

  /** Starts the program and reads its announcement. */
  static async start(label: string, launch: Launch): Promise<ExternalProcess> {
    const p = new ExternalProcess(label, launch);
    try {
      p.send(`tune2048 ${PROTOCOL_VERSION}`);
      const reader = new AnnouncementReader();
      for (;;) {
        const line = await p.nextLine(ANNOUNCING);
        let done: Announcement | null;
        try {
          done = reader.read(line);
        } catch (e) {
          throw p.fail((e as Error).message);
        }
        if (done) {
          p.announcement = done;
          p.roundedDefaults = reader.roundedDefaults;
          return p;
        }
      }
    } catch (e) {
      p.kill();
      throw e;
    }
  }

  /** Sets the parameters (those that changed) and starts a game; resolves when the player said `ok`. */
  async newGame(params: Record<string, number>, seed: number): Promise<void> {
    for (const [name, value] of Object.entries(params)) {
      if (this.sent.get(name) === value) continue;
      this.send(`set ${name} ${formatNumber(value)}`);
      this.sent.set(name, value);
    }
    this.at = { seed, ply: 0 };
    this.send(`newgame ${seed}`);
    const line = await this.nextLine('to start a game');
    if (line.trim() !== 'ok') throw this.fail(`printed "${clip(line)}" where "ok" was expected after newgame`);
  }

  /** The player's move on a board (the caller checks it is legal). */
  async move(board: Board, ply: number): Promise<MoveAnswer> {
    if (this.at) this.at.ply = ply;
    this.send(boardLine(board, ply));
    const line = await this.nextLine('to answer a board');
    try {
      return parseMoveLine(line, ply);
    } catch (e) {
      throw this.fail((e as Error).message);
    }
  }

  /** Says goodbye and lets the program exit (killed if it has not within a second). */
  close(): void {
    if (this.failure) return;
    this.failure = new PlayerError(`player ${this.label} was closed`);
    try {
      this.child.stdin!.end('quit\n');
    } catch {
      // already gone
    }
    const timer = setTimeout(() => killGroup(this.child), 1000);
    timer.unref();
    this.child.once('exit', () => clearTimeout(timer));
  }

  kill(): void {
    killGroup(this.child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Records the first fault (later ones are its consequences), kills the program, wakes a waiter. */
  fail(what: string): PlayerError {
    if (!this.failure) {
      this.failure = new PlayerError(`player ${this.label} ${what}`);
      killGroup(this.child);
    }
    const w = this.waiter;
    if (w) {
      this.waiter = null;
      clearTimeout(w.timer);
      w.reject(this.failure);
    }
    return this.failure;
  }

  private send(line: string): void {
    if (this.failure) throw this.failure;
    this.child.stdin!.write(line + '\n');
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      if (/^error(\s|$)/.test(line)) {
        this.fail(`said: ${clip(line.slice(5).trim(), 400)}`);
        return;
      }
      if (line.startsWith('#') || line.trim() === '') continue; // comments: a player may log on stdout this way
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        clearTimeout(w.timer);
        w.resolve(line);
      } else {
        this.lines.push(line);
      }
    }
    if (this.buffer.length > 65536) this.fail(`printed over 64 KiB without a newline`);
  }

  private nextLine(purpose: string): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      // Starting may load a model or build tables: it gets at least START_TIMEOUT_SEC whatever the per-board limit.
      const limit = purpose === ANNOUNCING ? Math.max(this.launch.timeoutSec, START_TIMEOUT_SEC) : this.launch.timeoutSec;
      const timer = setTimeout(() => this.fail(`took over ${limit} s ${purpose}`), limit * 1000);
      this.waiter = { resolve, reject, timer };
    });
  }

  private lastStderrLine(): string {
    const lines = this.stderrTail.trim().split('\n');
    return lines[lines.length - 1]?.trim() ?? '';
  }

  /** The program's last lines on stderr in one line (a traceback's place and its error), as it wrote them. */
  private lastStderrWords(): string {
    const lines = this.stderrTail.split('\n').map((l) => l.replace(/[\x00-\x1f\x7f]/g, '?').trim()).filter((l) => l !== '');
    const words = lines.slice(-STDERR_LINES).join(' | ');
    return words.length > STDERR_SHOWN ? `…${words.slice(-STDERR_SHOWN + 1)}` : words;
  }
}

/** Numbers as the shortest text that reads back to the same double. */
function formatNumber(x: number): string {
  return String(x);
}
