/**
 * A binary min-heap of (priority, item), ties broken by insertion order, the
 * newest first (deterministic; on a heuristic's plateaus the search then dives
 * like DFS instead of widening like BFS). Seed 003 blamed its merge-sorted queue for slow
 * greedy and A* searches: here a push or pop is O(log n).
 */
export class MinHeap<T> {
  private readonly prio: number[] = [];
  private readonly order: number[] = [];
  private readonly items: T[] = [];
  private counter = 0;

  get size(): number {
    return this.items.length;
  }

  push(priority: number, item: T): void {
    this.prio.push(priority);
    this.order.push(this.counter++);
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    const n = this.items.length;
    if (n === 0) return undefined;
    const top = this.items[0];
    this.move(n - 1, 0);
    this.prio.pop();
    this.order.pop();
    this.items.pop();
    if (this.items.length > 0) this.down(0);
    return top;
  }

  private less(i: number, j: number): boolean {
    return this.prio[i] < this.prio[j] || (this.prio[i] === this.prio[j] && this.order[i] > this.order[j]);
  }

  private move(from: number, to: number): void {
    this.prio[to] = this.prio[from];
    this.order[to] = this.order[from];
    this.items[to] = this.items[from];
  }

  private swap(i: number, j: number): void {
    [this.prio[i], this.prio[j]] = [this.prio[j], this.prio[i]];
    [this.order[i], this.order[j]] = [this.order[j], this.order[i]];
    [this.items[i], this.items[j]] = [this.items[j], this.items[i]];
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < n && this.less(l, best)) best = l;
      if (r < n && this.less(r, best)) best = r;
      if (best === i) break;
      this.swap(i, best);
      i = best;
    }
  }
}
