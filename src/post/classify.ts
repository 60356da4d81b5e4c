// Classifier outputs (N, classes) to the k best classes with probabilities.

export interface Scored {
  readonly classId: number;
  readonly score: number;
}

/**
 * Probabilities from one row of scores: a softmax, unless the row already is a distribution (all in
 * [0, 1] summing to 1 within 1e-3: a model that ends in softmax), which is kept as it is.
 */
export function probabilities(row: Float32Array): Float64Array {
  let sum = 0;
  let inUnit = true;
  let max = -Infinity;
  for (const v of row) {
    sum += v;
    if (v < 0 || v > 1) inUnit = false;
    if (v > max) max = v;
  }
  const out = new Float64Array(row.length);
  if (inUnit && Math.abs(sum - 1) < 1e-3) {
    out.set(row);
    return out;
  }
  // Shifted by the max so that exp never overflows (logits of +-1000 stay finite).
  let total = 0;
  for (let i = 0; i < row.length; i++) total += out[i] = Math.exp(row[i]! - max);
  for (let i = 0; i < row.length; i++) out[i] /= total;
  return out;
}

/** The k highest scores, best first; ties keep the lower class number first. */
export function topK(scores: ArrayLike<number>, k: number): Scored[] {
  const best: Scored[] = [];
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (best.length === k && s <= best[k - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < s) at--;
    best.splice(at, 0, { classId: i, score: s });
    if (best.length > k) best.pop();
  }
  return best;
}
