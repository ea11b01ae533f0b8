import type { StorageAdapter } from "../../src/index.js";

/**
 * The application's part of the contract, kept in memory: what localStorage would do, plus
 * switches to make reads or writes fail and a log of writes.
 */
export class MemoryStorage implements StorageAdapter {
  value: string | null;
  writes: string[] = [];
  failReads: Error | null = null;
  failWrites: Error | null = null;

  constructor(initial: string | null = null) {
    this.value = initial;
  }

  async getLanguage(): Promise<string | null> {
    if (this.failReads) throw this.failReads;
    return this.value;
  }

  async setLanguage(lng: string): Promise<void> {
    if (this.failWrites) throw this.failWrites;
    this.value = lng;
    this.writes.push(lng);
  }
}
