/**
 * The game viewer: a seeded game played by the chosen weights in the page
 * (search in a Web Worker, search-worker.ts), with pause, step and speed, the
 * expectimax value of each move the player saw, and a hint mode where tiles
 * are set by clicking and the best move is shown. `?replay=run:ID` replays
 * instead the stored best held-out game of a run whose player the page
 * cannot run (an external program): its seed and moves, in the same engine.
 * A network (a learning run's, or a network file in a weights folder) is
 * played by the server, which keeps its tables: the page asks for each move
 * and shows its values, the depth searched and the search's time.
 */
import { escapeHtml } from '../../report/svg';
import type { WorkerReply, WorkerRequest } from './protocol';

const NAMES = ['up', 'down', 'left', 'right'];
const esc = (s: unknown) => escapeHtml(String(s));

/** A request/answer channel over the worker's messages. */
function channel(worker: Worker) {
  let next = 1;
  const waiting = new Map<number, (r: WorkerReply) => void>();
  worker.onmessage = (e: MessageEvent<WorkerReply & { id: number }>) => {
    waiting.get(e.data.id)?.(e.data);
    waiting.delete(e.data.id);
  };
  return (m: WorkerRequest) =>
    new Promise<WorkerReply>((resolve, reject) => {
      const id = next++;
      waiting.set(id, (r) => (r.type === 'error' ? reject(new Error(r.message)) : resolve(r)));
      worker.postMessage({ ...m, id });
    });
}

/** Sources the server plays (a network: its tables stay in the server's memory), not this page. */
const isNetworkSource = (source: string) => source.startsWith('learn:') || source.startsWith('network:');

type ServerState = Extract<WorkerReply, { type: 'state' }> & { game: number; depth: number | null; ms: number | null };
type ServerHint = Extract<WorkerReply, { type: 'hint' }> & { depth: number | null; ms: number };

/** One request to the server's network games; its one-line error when it refuses. */
async function serverCall<T>(method: 'GET' | 'POST', path: string, query: Record<string, string | number>): Promise<T> {
  const r = await fetch(`${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { method });
  const body = (await r.json().catch(() => ({}))) as T & { error?: string };
  if (!r.ok) throw new Error(body.error ?? `HTTP ${r.status}`);
  return body;
}

/** "depth 2, 0.71 ms on the server": what the server's search did for the move. */
const searchNote = (s: { depth: number | null; ms: number | null }) => (s.ms === null ? '' : ` · depth ${s.depth}, ${s.ms < 10 ? s.ms.toFixed(2) : s.ms.toFixed(0)} ms on the server`);

export function startViewer(app: HTMLElement): void {
  document.title = 'tune2048 — game viewer';
  const params = new URLSearchParams(location.search);
  app.innerHTML = `<h1>Game viewer</h1>
<form id="controls" onsubmit="return false">
  <label>weights <select id="weights"></select></label>
  <label>player <select id="player">${['expectimax', 'minimax', 'mcts', 'mcts-emm'].map((k) => `<option${k === (params.get('player') ?? 'expectimax') ? ' selected' : ''}>${k}</option>`).join('')}</select></label>
  <label>depth <select id="depth">${['0', '1', '2', '3', '4', 'auto'].map((d) => `<option${d === (params.get('depth') ?? '1') ? ' selected' : ''}>${d}</option>`).join('')}</select></label>
  <label>seed <input id="seed" type="number" min="0" step="1" value="${esc(params.get('seed') ?? '1')}"></label>
  <button id="start" type="button">play</button>
  <button id="pause" type="button" disabled>pause</button>
  <button id="step" type="button" disabled>step</button>
  <label>speed <input id="speed" type="range" min="1" max="61" value="${esc(params.get('speed') === 'max' ? '61' : (params.get('speed') ?? '20'))}"> <span id="speed-label"></span></label>
  <button id="hint-mode" type="button">hint mode</button>
</form>
<div class="viewer"><div id="board" class="board">${'<div class="cell"></div>'.repeat(16)}</div>
<div class="side-panel"><p id="playing" hidden></p><p>score <b id="score">0</b> · moves <b id="moves">0</b></p><p id="status">pick weights, a depth and a seed, then play</p>
<table id="values"><thead><tr><th>move</th><th>value the player saw</th></tr></thead><tbody>${NAMES.map((n) => `<tr data-move="${n}"><td>${n}</td><td>–</td></tr>`).join('')}</tbody></table>
<div id="hint-panel" hidden><p>Click a tile to raise it (shift-click to lower), then <button id="hint-go" type="button">best move?</button> <button id="hint-clear" type="button">clear</button></p><p id="hint-result"></p></div></div></div>`;
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const call = channel(new Worker('/assets/search-worker.js'));
  const cells = [...$('board').children] as HTMLElement[];
  let ranks = new Array<number>(16).fill(0);
  let playing = false;
  let over = true;
  let timer: number | null = null;
  let busy = false;
  let hintMode = false;

  /** Moves per second; the slider's top end (61) is "as fast as the search goes". */
  const speed = () => Number(($('speed') as HTMLInputElement).value);
  const showSpeed = () => ($('speed-label').textContent = speed() > 60 ? 'max' : `${speed()} moves/s`);
  showSpeed();
  $('speed').addEventListener('input', showSpeed);

  function drawBoard(next: number[], spawnAnimation: boolean): void {
    next.forEach((r, i) => {
      const cell = cells[i];
      const value = r === 0 ? '' : String(2 ** r);
      if (cell.textContent !== value) {
        cell.textContent = value;
        cell.className = `cell${r ? ` t${Math.min(r, 12)}` : ''}`;
        if (spawnAnimation && r && speed() <= 60) {
          cell.animate([{ transform: 'scale(0.6)' }, { transform: 'scale(1)' }], { duration: Math.min(120, 600 / speed()), easing: 'ease-out' });
        }
      }
    });
    ranks = next;
  }

  function drawValues(values: (number | null)[] | null, chosen: number | null): void {
    const rows = [...$('values').querySelectorAll('tbody tr')] as HTMLElement[];
    rows.forEach((row, i) => {
      row.classList.toggle('chosen', chosen === i);
      row.children[1].textContent = values ? (values[i] === null ? 'illegal' : values[i]!.toFixed(0)) : '–';
    });
  }

  async function weights(): Promise<unknown> {
    const source = ($('weights') as HTMLSelectElement).value;
    const r = await fetch(`/api/weights/one?source=${encodeURIComponent(source)}`);
    // The server's one line (a network or an external program: why the page cannot play it, and what to open instead).
    if (!r.ok) throw new Error(`cannot play ${source} here: ${((await r.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${r.status}`}`);
    return r.json();
  }
  /** Learned tables already fetched, by hash: half a megabyte each, the same for every start and hint. */
  const tables = new Map<string, ArrayBuffer>();
  /** The learned line tables of the chosen weights (null for weights without them). */
  async function table(w: unknown): Promise<ArrayBuffer | null> {
    const hash = (w as { learned?: { sha256: string } }).learned?.sha256;
    if (!hash) return null;
    const known = tables.get(hash);
    if (known) return known;
    const source = ($('weights') as HTMLSelectElement).value;
    const r = await fetch(`/api/tables/one?source=${encodeURIComponent(source)}`);
    if (!r.ok) throw new Error(`cannot load the learned tables of ${source}: ${((await r.json()) as { error?: string }).error ?? r.status}`);
    const bytes = await r.arrayBuffer();
    tables.set(hash, bytes);
    return bytes;
  }
  const player = () => ($('player') as HTMLSelectElement).value as 'expectimax' | 'minimax' | 'mcts' | 'mcts-emm';
  const depth = () => {
    const d = ($('depth') as HTMLSelectElement).value;
    return d === 'auto' ? ('auto' as const) : Number(d);
  };

  function schedule(): void {
    if (timer !== null) clearTimeout(timer);
    timer = playing && !over ? window.setTimeout(() => void step(), speed() > 60 ? 0 : 1000 / speed()) : null;
  }

  /** The server's number of the network game being watched (null: the page plays the game itself). */
  let serverGame: number | null = null;

  async function step(): Promise<void> {
    if (busy || over) return;
    busy = true;
    try {
      const s: WorkerReply & { depth?: number | null; ms?: number | null } = serverGame !== null ? await serverCall<ServerState>('POST', `/api/network-game/${serverGame}/step`, {}) : await call({ type: 'step' });
      if (s.type !== 'state') return;
      if (s.over) {
        over = true;
        playing = false;
        $('status').innerHTML = `game over: final score <b id="final-score">${s.score}</b> after ${s.moves} moves, largest tile ${2 ** Math.max(...ranks)}`;
        ($('pause') as HTMLButtonElement).disabled = true;
        ($('step') as HTMLButtonElement).disabled = true;
        return;
      }
      drawBoard(s.ranks, true);
      // A replayed game has no values (none were stored): dashes, not "illegal".
      drawValues(s.values?.every((v) => v === null) ? null : s.values, s.move);
      $('score').textContent = String(s.score);
      $('moves').textContent = String(s.moves);
      $('status').textContent = `moved ${NAMES[s.move!]}${s.ms !== undefined ? searchNote({ depth: s.depth ?? null, ms: s.ms }) : ''}`;
    } catch (e) {
      $('status').textContent = `error: ${(e as Error).message}`;
      playing = false;
    } finally {
      busy = false;
      schedule();
    }
  }

  /** ?replay=run:ID: the run's stored game, fetched once (null: the page plays with the chosen weights). */
  const replaySource = params.get('replay');
  const replay: Promise<{ seed: number; moves: string; score: number; player: { name: string; version: string } | null } | null> = replaySource
    ? (async () => {
        const id = /^run:(\d+)$/.exec(replaySource)?.[1];
        if (!id) throw new Error(`replay=${replaySource}: expected run:ID`);
        const r = await fetch(`/api/runs/${id}/replay`);
        const body = (await r.json()) as { error?: string; seed: number; moves: string; score: number; player: { name: string; version: string } | null };
        // A run whose best the page plays itself has no stored moves: not an error, a link to watch it live.
        if (r.ok && (body as { live?: string }).live) throw Object.assign(new Error((body as { note?: string }).note ?? ''), { live: (body as { live?: string }).live });
        if (!r.ok) throw new Error(body.error ?? `cannot load the game of run ${id}`);
        return body;
      })()
    : Promise.resolve(null);
  if (replaySource) {
    // The controls name what plays: the stored game, not weights, a player kind or a depth of the page's.
    for (const id of ['weights', 'player', 'depth', 'seed', 'hint-mode']) ($(id) as HTMLInputElement).disabled = true;
    $('weights').innerHTML = `<option>${esc(replaySource)}: its stored game</option>`;
    $('player').innerHTML = '<option>the run\'s own</option>';
    $('depth').innerHTML = '<option>its own</option>';
    replay.then(
      (g) => {
        ($('seed') as HTMLInputElement).value = String(g!.seed);
        // In a line of its own, kept while the game replays (the status line says each move).
        $('playing').hidden = false;
        $('playing').innerHTML = `<span id="replay-note">the stored game of ${!g!.player ? 'the run' : g!.player.name.startsWith('network:') ? `the network <b>${esc(g!.player.name.slice('network:'.length))}</b> (sha256 ${esc(g!.player.version)}…)` : `the external player <b>${esc(g!.player.name)}</b> ${esc(g!.player.version)}`} on seed ${g!.seed} (score ${g!.score})</span>`;
        $('status').textContent = 'play to replay it';
        if (params.get('play') === '1') $('start').click();
      },
      (e: Error & { live?: string }) => {
        if (e.live) {
          $('status').innerHTML = `run ${esc(replaySource.slice('run:'.length))}'s best plays here in the page: <a id="live-link" href="${esc(e.live)}">watch it play</a>`;
          ($('start') as HTMLButtonElement).disabled = true;
        } else $('status').textContent = `error: ${e.message}`;
      },
    );
    // The stored game's first board, as soon as its seed is known.
    void replay.then((g) => g && preview(g.seed), () => {});
  }

  /** The first board of a seed, before play: what is about to play (not an empty grid). */
  async function preview(seed: number): Promise<void> {
    if (!Number.isSafeInteger(seed) || seed < 0) return;
    const s = await call({ type: 'preview', seed }).catch(() => null);
    if (s && s.type === 'state' && !playing) drawBoard(s.ranks, false);
  }
  if (!replaySource) {
    void preview(Number(($('seed') as HTMLInputElement).value));
    $('seed').addEventListener('change', () => void preview(Number(($('seed') as HTMLInputElement).value)));
  }

  $('start').addEventListener('click', async () => {
    setHintMode(false);
    playing = false;
    // Until the new game is there, pause and step would act on the old one (or on none).
    ($('pause') as HTMLButtonElement).disabled = true;
    ($('step') as HTMLButtonElement).disabled = true;
    try {
      const stored = await replay;
      const seed = stored ? stored.seed : Number(($('seed') as HTMLInputElement).value);
      if (!Number.isSafeInteger(seed) || seed < 0) throw new Error('the seed must be a whole number ≥ 0');
      const source = ($('weights') as HTMLSelectElement).value;
      const network = !stored && isNetworkSource(source);
      const w = stored || network ? null : await weights();
      const s = stored
        ? await call({ type: 'replay', seed, moves: stored.moves })
        : network
          ? await serverCall<ServerState>('POST', '/api/network-game/start', { source, depth: depth(), seed })
          : await call({ type: 'start', weights: w, table: await table(w), player: player(), depth: depth(), cprob: 1e-4, seed });
      if (s.type !== 'state') return;
      serverGame = network ? (s as ServerState).game : null;
      over = false;
      playing = true;
      drawBoard(s.ranks, false);
      drawValues(null, null);
      $('score').textContent = '0';
      $('moves').textContent = '0';
      $('status').textContent = stored ? `replaying seed ${seed}` : network ? `playing seed ${seed} on the server (the network's tables stay there)` : `playing seed ${seed}`;
      ($('pause') as HTMLButtonElement).disabled = false;
      ($('step') as HTMLButtonElement).disabled = false;
      $('pause').textContent = 'pause';
      schedule();
    } catch (e) {
      $('status').textContent = `error: ${(e as Error).message}`;
    }
  });
  $('pause').addEventListener('click', () => {
    playing = !playing;
    $('pause').textContent = playing ? 'pause' : 'resume';
    schedule();
  });
  $('step').addEventListener('click', () => {
    playing = false;
    $('pause').textContent = 'resume';
    schedule();
    void step();
  });

  function setHintMode(on: boolean): void {
    hintMode = on;
    $('hint-panel').hidden = !on;
    $('board').classList.toggle('editable', on);
    if (on) {
      playing = false;
      over = true;
      schedule();
      $('status').textContent = 'hint mode: set up a board';
    }
  }
  $('hint-mode').addEventListener('click', () => setHintMode(!hintMode));
  cells.forEach((cell, i) =>
    cell.addEventListener('click', (e) => {
      if (!hintMode) return;
      const next = [...ranks];
      next[i] = Math.max(0, Math.min(15, next[i] + ((e as MouseEvent).shiftKey ? -1 : 1)));
      drawBoard(next, false);
    }),
  );
  $('hint-clear').addEventListener('click', () => drawBoard(new Array(16).fill(0), false));
  $('hint-go').addEventListener('click', async () => {
    try {
      const source = ($('weights') as HTMLSelectElement).value;
      let h: WorkerReply & { depth?: number | null; ms?: number };
      if (isNetworkSource(source)) {
        h = await serverCall<ServerHint>('GET', '/api/network-game/hint', { source, depth: depth(), ranks: ranks.join(',') });
      } else {
        const w = await weights();
        h = await call({ type: 'hint', weights: w, table: await table(w), player: player(), depth: depth(), cprob: 1e-4, ranks });
      }
      if (h.type !== 'hint') return;
      drawValues(h.values, h.move);
      $('hint-result').innerHTML = (h.move === null ? 'no legal move: the game is over' : `best move: <b id="hint-move">${NAMES[h.move]}</b>`) + (h.ms !== undefined ? esc(searchNote({ depth: h.depth ?? null, ms: h.ms })) : '');
    } catch (e) {
      $('hint-result').textContent = `error: ${(e as Error).message}`;
    }
  });

  if (!replaySource)
    void fetch('/api/weights')
      .then((r) => r.json() as Promise<{ source: string; label: string }[]>)
      .then((list) => {
        const wanted = params.get('weights') ?? 'preset:tuned-d2';
        $('weights').innerHTML = list.map((w) => `<option value="${esc(w.source)}"${w.source === wanted ? ' selected' : ''}>${esc(w.label)}</option>`).join('');
        followSource();
        // "Watch the best play" (play=1): start as soon as the weights are there.
        if (params.get('play') === '1' && list.some((w) => w.source === wanted)) $('start').click();
      });
  /** A network plays as itself (the server's expectimax over it): the player choice is not its. */
  const playerChoices = $('player').innerHTML;
  function followSource(): void {
    const network = isNetworkSource(($('weights') as HTMLSelectElement).value);
    const select = $('player') as HTMLSelectElement;
    // It names what plays: the network's own search, not a player kind it does not use.
    if (network && !select.disabled) select.innerHTML = '<option value="network">the network\'s search</option>';
    else if (!network && select.value === 'network') select.innerHTML = playerChoices;
    select.disabled = network || !!replaySource;
    select.title = network ? 'a network plays with its own evaluation, searched on the server' : '';
  }
  $('weights').addEventListener('change', followSource);
}
