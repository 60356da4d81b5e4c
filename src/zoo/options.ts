// What every zoo builder takes.

export interface ZooOptions {
  /** Batch size (default 1). */
  readonly batch?: number;
  /** Square input size in pixels. */
  readonly size?: number;
  /** Seed of the random weights (default 1); `weights: false` leaves them out (graph only). */
  readonly seed?: number;
  readonly weights?: boolean;
}
