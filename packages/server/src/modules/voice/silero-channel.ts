import { SILERO_STATE_LENGTH } from "./silero-vad.ts";

/*
 * A channel: the windows of every Silero stream at one rate and window length, handed to the worker
 * thread in batches through two slots of shared memory (the protocol: silero-worker.ts, at the top).
 */

/** What a channel needs of the worker pool that owns it (`SileroWorker`). */
export interface ChannelPool {
  readonly batchWaitMs: number;
  readonly runWindows: number;
  /** The worker said that it failed. */
  readonly dead: boolean;
  /** Tells the worker that a channel has work. */
  ring(): void;
  /** A batch was not answered in time, or the worker failed. */
  hung(): void;
}

/** Windows a channel's slot holds: every Silero stream at one rate with a window waiting at once. */
const CHANNEL_CAPACITY = 512;
/** Words of a channel's header: the last batch requested, the last answered, each slot's size. */
const REQUESTED = 0;
const DONE = 1;
const SIZE = 2;
/** A batch not answered in this long (about 500 model runs) is a hung worker. */
export const HUNG_MS = 2_000;
/** A batch this large is sent without waiting longer: larger ones save little more per window. */
const FULL_BATCH = 16;

interface Slot {
  windows: Float32Array;
  states: Float32Array;
  probabilities: Float32Array;
}

/** What a channel needs of a stream. */
export interface ChannelMember {
  /** h (two layers) then c (two layers), 64 each: copied in when its batch is sent, back when answered. */
  readonly state: Float32Array;
  answered(probability: number): void;
  /** After `answered`, once the batch's answers are all applied: the stream queues its next waiting window. */
  next(): void;
  /** The worker died with this stream's window: no answer comes. */
  lost(): void;
}

/** The windows of every stream at one rate and window length, in two slots of shared memory (see top). */
export class Channel {
  private readonly header: Int32Array;
  private readonly slots: [Slot, Slot];
  private readonly members: [(ChannelMember | null)[], (ChannelMember | null)[]];
  /** The slot being gathered into (a batch's slot is its number's parity), and how many windows it holds. */
  private gathering = 1;
  private gathered = 0;
  /** The batch in flight: its number, its slot's size; none when `flying` is 0. */
  private requested = 0;
  private flying = 0;
  /** The batch being gathered waits for more windows (`batchWaitMs`). */
  private waiting = false;
  /** The answers of the batch in flight are being applied (see `collect`). */
  private applying = false;
  private timer: NodeJS.Timeout | null = null;
  batches = 0;
  windowsAnswered = 0;
  /** Times the relay's thread waited for an answer (`settle`). */
  waits = 0;

  constructor(
    private readonly pool: ChannelPool,
    readonly id: number,
    readonly sampleRate: number,
    readonly windowLength: number,
  ) {
    const words = 4;
    const perSlot = CHANNEL_CAPACITY * (windowLength + SILERO_STATE_LENGTH + 1);
    const buffer = new SharedArrayBuffer((words + 2 * perSlot) * 4);
    this.header = new Int32Array(buffer, 0, words);
    const slot = (index: number): Slot => {
      let at = (words + index * perSlot) * 4;
      const take = (length: number) => {
        const view = new Float32Array(buffer, at, length);
        at += length * 4;
        return view;
      };
      return {
        windows: take(CHANNEL_CAPACITY * windowLength),
        states: take(CHANNEL_CAPACITY * SILERO_STATE_LENGTH),
        probabilities: take(CHANNEL_CAPACITY),
      };
    };
    this.slots = [slot(0), slot(1)];
    this.members = [new Array(CHANNEL_CAPACITY).fill(null), new Array(CHANNEL_CAPACITY).fill(null)];
  }

  /** What the worker is sent to open this channel (typed arrays over shared memory arrive shared). */
  message() {
    return {
      id: this.id,
      sampleRate: this.sampleRate,
      windowLength: this.windowLength,
      header: this.header,
      slots: this.slots,
    };
  }

  /**
   * A stream's completed window (`windowLength` samples of `source` from `from`) joins the batch being
   * gathered (copied: the stream refills its own).
   */
  queue(member: ChannelMember, source: Float32Array, from: number): void {
    // Full (more streams than the slot holds, all with a window at once): the batch in flight is awaited
    // and this one sent, which frees the slot.
    if (this.gathered === CHANNEL_CAPACITY && (this.applying || !this.settleAll())) {
      member.lost();
      return;
    }
    const windows = this.slots[this.gathering]!.windows;
    const length = this.windowLength;
    for (let i = 0, at = this.gathered * length; i < length; i++) windows[at + i] = source[from + i]!;
    this.members[this.gathering]![this.gathered++] = member;
    if (this.gathered >= FULL_BATCH && !this.applying) this.send();
    else if (this.gathered === 1) this.arm();
  }

  /** The batch's wait starts (one timer per channel, re-armed: nothing allocated per batch). */
  private arm(): void {
    this.waiting = true;
    if (!this.timer) {
      this.timer = setTimeout(this.waited, this.pool.batchWaitMs);
      this.timer.unref();
    } else this.timer.refresh();
  }

  /** The wait is over: sent now, or as soon as the batch in flight is answered. */
  private readonly waited = () => {
    this.waiting = false;
    if (!this.collect()) this.send();
  };

  private send(): void {
    if (this.flying > 0 || this.gathered === 0) return;
    const index = this.gathering;
    const slot = this.slots[index]!;
    const members = this.members[index]!;
    for (let b = 0; b < this.gathered; b++) slot.states.set(members[b]!.state, b * SILERO_STATE_LENGTH);
    this.header[SIZE + index] = this.gathered;
    this.flying = this.gathered;
    this.requested++;
    Atomics.store(this.header, REQUESTED, this.requested);
    this.gathering = 1 - index;
    this.gathered = 0;
    // The next batch's wait starts with its first window.
    this.waiting = false;
    this.pool.ring();
  }

  /**
   * Applies the batch in flight if the worker answered it (and sends the one gathered meanwhile);
   * whether it did.
   */
  collect(): boolean {
    if (this.flying === 0 || Atomics.load(this.header, DONE) !== this.requested) return false;
    const index = this.requested & 1;
    const slot = this.slots[index]!;
    const members = this.members[index]!;
    const size = this.flying;
    this.flying = 0;
    this.batches += Math.ceil(size / this.pool.runWindows);
    this.windowsAnswered += size;
    const states = slot.states;
    for (let b = 0; b < size; b++) {
      const member = members[b]!;
      const state = member.state;
      for (let i = 0, at = b * SILERO_STATE_LENGTH; i < SILERO_STATE_LENGTH; i++) state[i] = states[at + i]!;
      member.answered(slot.probabilities[b]!);
    }
    // The streams' next windows join the batch being gathered (the other slot); it is not sent while
    // this slot is still read.
    this.applying = true;
    for (let b = 0; b < size; b++) {
      const member = members[b]!;
      members[b] = null;
      member.next();
    }
    this.applying = false;
    if (!this.waiting || this.gathered >= FULL_BATCH) this.send();
    return true;
  }

  /**
   * Waits, blocking this thread, while `pending` holds (a stream's window not answered yet): sends the
   * batch being gathered when none is in flight. False if the worker failed (then the window is lost).
   */
  settle(pending: () => boolean): boolean {
    while (pending()) {
      if (this.flying === 0) this.send();
      if (!this.waitForBatch()) return false;
    }
    return true;
  }

  /** Waits until nothing is in flight or gathered (every stream's waiting windows included). */
  settleAll(): boolean {
    return this.settle(() => this.flying > 0 || this.gathered > 0);
  }

  private waitForBatch(): boolean {
    this.waits++;
    const result = Atomics.wait(this.header, DONE, this.requested - 1, HUNG_MS);
    if (result === "timed-out" || this.pool.dead) {
      this.pool.hung();
      return false;
    }
    return this.collect();
  }

  /** The worker died: the windows in flight and gathered get no answer; the next worker starts clean. */
  abandon(): void {
    const lost: ChannelMember[] = [];
    for (const [index, size] of [
      [this.requested & 1, this.flying],
      [this.gathering, this.gathered],
    ] as const) {
      const members = this.members[index]!;
      for (let b = 0; b < size; b++) {
        lost.push(members[b]!);
        members[b] = null;
      }
    }
    this.flying = 0;
    this.gathered = 0;
    Atomics.store(this.header, DONE, this.requested);
    for (const member of lost) member.lost();
  }
}
