// A small seeded generator (mulberry32) with normal deviates: reproducible weights and inputs
// from a seed, the same on every machine.

export class SeededRandom {
  private state: number;
  private spare: number | undefined;

  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Standard normal (Box-Muller, both deviates used). */
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  fillNormal(out: Float32Array, std: number, mean = 0): Float32Array {
    for (let i = 0; i < out.length; i++) out[i] = mean + std * this.normal();
    return out;
  }

  fillUniform(out: Float32Array, lo: number, hi: number): Float32Array {
    for (let i = 0; i < out.length; i++) out[i] = this.uniform(lo, hi);
    return out;
  }
}
