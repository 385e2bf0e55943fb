/** Every response time of a run, in milliseconds, for exact percentiles. */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const sorted = this.values.slice(0, this.count).sort();
    return sorted[Math.min(this.count - 1, Math.ceil((p / 100) * this.count) - 1)]!;
  }
}
